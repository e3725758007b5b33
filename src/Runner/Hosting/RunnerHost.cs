using BenchDashboard.Core;
using BenchDashboard.Core.Data;
using BenchDashboard.Processing;
using BenchDashboard.Processing.Executing;
using BenchDashboard.Processing.Telemetry;
using BenchDashboard.ServiceDefaults;
using Microsoft.Extensions.Configuration.Memory;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace BenchDashboard.Runner.Hosting;

/// <summary>
/// The runner as a process of its own: started by hand (<c>dotnet run --project src/Runner</c>), or by the
/// dashboard as its child (the dashboard's <c>ChildRunner</c>), which hands it its configuration and content root, reads
/// its pulse from standard output and stops it by closing its standard input.
/// </summary>
public static class RunnerHost
{
    public static async Task RunAsync(string[] args, bool asChild)
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
        // An agent on another machine never touches a database: it keeps its link to the dashboard and runs the
        // shards it is leased, under its own target policy (Targets:*), since it sends the traffic.
        if (builder.Configuration.GetSection(RunnerOptions.Section).GetValue("Mode", RunnerMode.Runner) == RunnerMode.Agent)
        {
            builder.Services.AddBenchAgent();
            await builder.Build().RunAsync();
            return;
        }
        builder.Services.AddBenchCore();
        builder.Services.AddBenchRunner();
        // The runs' live figures leave from here, the process that measures them (when Telemetry:OtlpEndpoint is set).
        builder.Services.AddBenchTelemetry(builder.Configuration, "benchdash-runner", [RunnerMetrics.MeterName], RunnerMetrics.ExponentialHistograms);
        if (asChild) builder.Services.AddHostedService<ChildPulse>();

        var host = builder.Build();
        // The dashboard applies migrations, and nothing else does: a child starts after it did; a runner on its
        // own waits until the file has this build's schema (it says so in its log).
        if (!asChild)
            await host.Services.WaitForSchemaAsync(host.Services.GetRequiredService<ILoggerFactory>().CreateLogger("BenchDashboard.Runner"));
        await host.RunAsync();
    }
}
