using BenchDashboard.Core;
using BenchDashboard.Core.Data;
using BenchDashboard.Core.Data.Moving;
using Microsoft.EntityFrameworkCore;
using Npgsql;

namespace BenchDashboard.Web.Moving;

/// <summary>
/// <c>move-history --from FILE [--to CONNECTION-STRING]</c>: copies a SQLite history into PostgreSQL and checks the
/// counts. A verb of the dashboard's own program, not of benchdash: it needs both databases' providers and both sets
/// of migrations, which the published dashboard already carries, and no running dashboard or network API.
/// Exit codes: 0 moved and verified; 1 the counts differ; 2 nothing or not everything was moved (a refused target,
/// bad arguments, an interruption: start the same command again to continue).
/// </summary>
public static class MoveHistoryCommand
{
    public const string Verb = "move-history";

    public static async Task<int> RunAsync(string[] args, TextWriter output, TextWriter errors, CancellationToken ct)
    {
        if (!TryParse(args, out var from, out var to, out var usage))
        {
            await errors.WriteLineAsync(usage);
            return 2;
        }
        if (!File.Exists(from))
        {
            await errors.WriteLineAsync($"move-history: no SQLite history at {from}");
            return 2;
        }
        await using var source = Services(DatabaseProviders.Sqlite, Path.GetFullPath(from!), null);
        NpgsqlConnectionStringBuilder where;
        try
        {
            where = new NpgsqlConnectionStringBuilder(to);
        }
        catch (ArgumentException)
        {
            // Its message repeats the value, password included: say what is wrong without it.
            await errors.WriteLineAsync("move-history: the PostgreSQL connection string cannot be read; give it as Host=…;Database=…;Username=…;Password=…");
            return 2;
        }
        await using var target = Services(DatabaseProviders.PostgreSql, null, to);
        try
        {
            // An old file is brought to this build's schema first, as the dashboard would on start; an empty target is created.
            await RefuseNewerSchemaAsync(source, "the SQLite file", ct);
            await source.MigrateDatabaseAsync(ct); // keys are each installation's own: this tool adds or moves none
            await RefuseNewerSchemaAsync(target, "the PostgreSQL database", ct);
            await target.MigrateDatabaseAsync(ct);
            await output.WriteLineAsync($"Moving {from} into PostgreSQL database {where.Database} on {where.Host}:{where.Port}");

            var move = new HistoryMove(source, target)
            {
                RunMoved = (id, samples, done, total) => output.WriteLine($"  run {id}: {samples:N0} samples ({done} of {total})"),
            };
            var moved = await move.MoveAsync(ct);
            await output.WriteLineAsync($"Moved {moved.RunsMoved} run(s); {moved.RunsAlreadyThere} were already there.");

            var check = await HistoryCheck.RunAsync(source, target, ct);
            await output.WriteLineAsync($"{"Table",-20} {"In the file",14} {"In PostgreSQL",14}");
            foreach (var count in check.Counts) await output.WriteLineAsync($"{count.Table,-20} {count.Source,14:N0} {count.Target,14:N0}");
            if (check.Passed)
            {
                await output.WriteLineAsync("Every count matches.");
                return 0;
            }
            await errors.WriteLineAsync($"move-history: the counts differ in {check.Mismatches.Count} place(s):");
            foreach (var mismatch in check.Mismatches.Take(50)) await errors.WriteLineAsync($"  {mismatch}");
            return 1;
        }
        catch (HistoryMoveRefused refused)
        {
            await errors.WriteLineAsync($"move-history: refused, nothing was moved: {refused.Message}.");
            return 2;
        }
        catch (OperationCanceledException) when (ct.IsCancellationRequested)
        {
            await errors.WriteLineAsync("move-history: interrupted. The runs moved so far are complete; start the same command again to continue.");
            return 2;
        }
        catch (Exception ex) when (StorageFault.Of(ex) is { } fault)
        {
            await errors.WriteLineAsync($"move-history: {fault.Reason}. Start the same command again to continue.");
            return 2;
        }
    }

    static bool TryParse(string[] args, out string? from, out string? to, out string usage)
    {
        from = null;
        to = Environment.GetEnvironmentVariable("ConnectionStrings__results");
        usage = $"usage: {Verb} --from FILE.db [--to \"Host=...;Database=...;Username=...;Password=...\"] " +
            "(without --to: the ConnectionStrings__results environment variable, which keeps the password off the command line)";
        for (var i = 0; i < args.Length; i++)
        {
            switch (args[i])
            {
                case Verb: break;
                case "--from" when i + 1 < args.Length: from = args[++i]; break;
                case "--to" when i + 1 < args.Length: to = args[++i]; break;
                default:
                    usage = $"{Verb}: unknown or incomplete argument {args[i]}\n{usage}";
                    return false;
            }
        }
        return !string.IsNullOrWhiteSpace(from) && !string.IsNullOrWhiteSpace(to);
    }

    /// <summary>Core's storage services for one database, as the dashboard registers them, logging nothing.</summary>
    static ServiceProvider Services(string provider, string? path, string? connectionString)
    {
        var services = new ServiceCollection();
        services.AddSingleton<IHostEnvironment>(new Microsoft.Extensions.Hosting.Internal.HostingEnvironment
        {
            ContentRootPath = path is null ? Directory.GetCurrentDirectory() : Path.GetDirectoryName(path)!,
            EnvironmentName = Environments.Production,
        });
        services.AddSingleton<IConfiguration>(new ConfigurationBuilder().AddInMemoryCollection(new Dictionary<string, string?>
        {
            ["Database:Provider"] = provider,
            ["Database:Path"] = path,
            ["ConnectionStrings:results"] = connectionString,
        }).Build());
        services.AddLogging();
        services.AddBenchCore();
        return services.BuildServiceProvider();
    }

    /// <summary>A database a newer version has migrated must not be written by this one's model.</summary>
    static async Task RefuseNewerSchemaAsync(IServiceProvider services, string what, CancellationToken ct)
    {
        await using var scope = services.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
        if (!await db.Database.CanConnectAsync(ct)) return; // a database still to create (or a server down: the migration says so)
        var unknown = (await db.Database.GetAppliedMigrationsAsync(ct)).Except(db.Database.GetMigrations()).ToList();
        if (unknown.Count > 0)
            throw new HistoryMoveRefused($"{what} has migrations this version does not know ({unknown[^1]}): use the dashboard of that version");
    }
}
