using BenchDashboard.Web.Hosting;
using BenchDashboard.Web.Moving;

// One executable plays every role. The runner's: the dashboard's child, or a runner on its own (an agent on another
// machine: Runner__Mode=agent).
if (await Roles.TryRunRunnerAsync(args)) return;

// `move-history --from FILE.db --to CONNECTION-STRING`: a SQLite history copied into PostgreSQL (docs/storage.md).
if (args.FirstOrDefault() == MoveHistoryCommand.Verb)
{
    using var interrupted = new CancellationTokenSource();
    Console.CancelKeyPress += (_, e) => { e.Cancel = true; interrupted.Cancel(); };
    Environment.ExitCode = await MoveHistoryCommand.RunAsync(args, Console.Out, Console.Error, interrupted.Token);
    return;
}

// The dashboard; or, with Runner__Mode=agent, one App Service configuration under test: its /target/* site and its
// agent in one process, no database (ConfigurationHost, docs/agents.md).
await DashboardHost.RunAsync(args);

/// <summary>Visible to WebApplicationFactory in the tests.</summary>
public partial class Program;
