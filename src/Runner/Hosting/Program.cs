namespace BenchDashboard.Runner.Hosting;

/// <summary>The runner on its own, against the same database as the dashboard (set Runner:Process=none there).</summary>
static class Program
{
    static Task Main(string[] args) => RunnerHost.RunAsync(args, asChild: false);
}
