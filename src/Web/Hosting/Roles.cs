using BenchDashboard.Runner.Hosting;

namespace BenchDashboard.Web.Hosting;

/// <summary>
/// The roles the dashboard's one executable plays, chosen by its first arguments: the dashboard (no argument), its
/// runner child, a runner on its own (with <c>Runner:Mode=agent</c>, an agent on another machine), or the
/// move-history command. Without an argument but with <c>Runner:Mode=agent</c> it is one configuration under test
/// (<see cref="ConfigurationHost"/>: targets and an agent). Only this folder of the dashboard knows the runner's project.
/// </summary>
public static class Roles
{
    /// <summary>The argument that makes the dashboard's own executable run as its runner child (<see cref="Runners.ChildRunner"/>).</summary>
    public const string RunnerChild = "--runner-child";

    /// <summary>The argument that makes the dashboard's own executable run as a runner on its own.</summary>
    public const string RunnerAlone = "--runner";

    /// <summary>Runs the runner when <paramref name="args"/> ask for one of its roles; false when they do not.</summary>
    public static async Task<bool> TryRunRunnerAsync(string[] args)
    {
        var asChild = args.Contains(RunnerChild);
        if (!asChild && !args.Contains(RunnerAlone)) return false;
        await RunnerHost.RunAsync(args.Where(a => a is not (RunnerChild or RunnerAlone)).ToArray(), asChild);
        return true;
    }
}
