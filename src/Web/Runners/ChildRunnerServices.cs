using BenchDashboard.Processing;
using BenchDashboard.Processing.Claiming;

namespace BenchDashboard.Web.Runners;

public static class ChildRunnerServices
{
    /// <summary>
    /// The dashboard's runner as a child process it supervises (<see cref="ChildRunner"/>); the child's pulse is
    /// mirrored into <see cref="RunnerPulse"/> here for the health check.
    /// </summary>
    public static IServiceCollection AddChildRunner(this IServiceCollection services)
    {
        services.AddRunnerOptions();
        services.AddSingleton<RunnerPulse>();
        services.AddSingleton<ChildRunner>();
        services.AddHostedService(sp => sp.GetRequiredService<ChildRunner>());
        return services;
    }
}
