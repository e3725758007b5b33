using BenchDashboard.Core;
using BenchDashboard.Core.Data;
using BenchDashboard.Runner;

// The runner on its own, against the same database as the dashboard (set Runner:Embedded=false there).
var builder = Host.CreateApplicationBuilder(args);
builder.Services.AddBenchCore();
builder.Services.AddBenchRunner();

var host = builder.Build();
await host.Services.MigrateDatabaseAsync();
await host.RunAsync();
