using BenchDashboard.Processing;
using BenchDashboard.Runner;
using BenchDashboard.Web.Runners;

namespace BenchDashboard.Web.Hosting;

public static class RunnerPlacement
{
    /// <summary>
    /// The dashboard's runner, where <see cref="RunnerOptions.Process"/> says: a child process it supervises (the
    /// default), this process (the runner's services beside the dashboard's), or none (a runner of its own elsewhere).
    /// </summary>
    public static IServiceCollection AddRunnerFor(this IServiceCollection services, IConfiguration configuration)
    {
        var section = configuration.GetSection(RunnerOptions.Section);
        var where = section.GetValue<bool?>("Embedded") == false ? RunnerProcess.None : section.GetValue("Process", RunnerProcess.Child);
        return where switch
        {
            RunnerProcess.InProcess => services.AddBenchRunner(),
            RunnerProcess.Child => services.AddChildRunner(),
            _ => services,
        };
    }
}
