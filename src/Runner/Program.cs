using BenchDashboard.Core;
using BenchDashboard.Core.Data;
using Microsoft.Extensions.Configuration.Memory;

namespace BenchDashboard.Runner;

/// <summary>The runner on its own, against the same database as the dashboard (set Runner:Embedded=false there).</summary>
static class Program
{
    static async Task Main(string[] args)
    {
        var builder = Host.CreateApplicationBuilder(args);
        // Defaults below every other source (so appsettings, environment and command line still win). Not an
        // appsettings.json: the Web project references this one, and two appsettings.json break its publish.
        builder.Configuration.Sources.Insert(0, new MemoryConfigurationSource
        {
            InitialData = new Dictionary<string, string?>
            {
                ["Database:Path"] = "../Web/data/benchdashboard.db", // the dashboard's file, for `dotnet run --project src/Runner`
                ["Logging:LogLevel:Microsoft.EntityFrameworkCore"] = "Warning",
            },
        });
        builder.Services.AddBenchCore();
        builder.Services.AddBenchRunner();

        var host = builder.Build();
        await host.Services.MigrateDatabaseAsync();
        await host.RunAsync();
    }
}
