using BenchDashboard.Core;
using BenchDashboard.Core.Data;

namespace BenchDashboard.Runner;

/// <summary>The runner on its own, against the same database as the dashboard (set Runner:Embedded=false there).</summary>
static class Program
{
    static async Task Main(string[] args)
    {
        var builder = Host.CreateApplicationBuilder(args);
        builder.Services.AddBenchCore();
        builder.Services.AddBenchRunner();

        var host = builder.Build();
        await host.Services.MigrateDatabaseAsync();
        await host.RunAsync();
    }
}
