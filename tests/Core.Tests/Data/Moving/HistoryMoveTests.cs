using System.Collections;
using System.Globalization;
using BenchDashboard.Core.Data;
using BenchDashboard.Core.Data.Moving;
using BenchDashboard.Core.Runs;
using BenchDashboard.TestSupport;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Metadata;
using Microsoft.Extensions.DependencyInjection;

namespace BenchDashboard.Core.Tests.Data.Moving;

/// <summary>A real SQLite file moved into a real PostgreSQL database (the test assembly's cluster).</summary>
public sealed class HistoryMoveTests : IAsyncLifetime
{
    TestDatabase sqlite = null!, postgres = null!;
    ServiceProvider source = null!, target = null!;

    public async Task InitializeAsync()
    {
        sqlite = await TestDatabase.CreateAsync("sqlite");
        postgres = await TestDatabase.CreateAsync("postgresql");
        source = DatabaseServices.For(sqlite);
        target = DatabaseServices.For(postgres);
        await source.MigrateDatabaseAsync();
        await target.MigrateDatabaseAsync();
        // Each installation's own fingerprint key, made at its first use as a dashboard makes it at its start.
        source.GetRequiredService<Core.Security.ParameterDisplay>().Fingerprint("x");
        target.GetRequiredService<Core.Security.ParameterDisplay>().Fingerprint("x");
    }

    public async Task DisposeAsync()
    {
        await source.DisposeAsync();
        await target.DisposeAsync();
        Microsoft.Data.Sqlite.SqliteConnection.ClearAllPools();
        Npgsql.NpgsqlConnection.ClearAllPools();
        await sqlite.DisposeAsync();
        await postgres.DisposeAsync();
    }

    [Fact]
    public async Task EveryRowOfEveryTableArrivesWithEveryFieldEqualAndTheCountsAreVerified()
    {
        await SqliteHistory.FillAsync(source, packed: true);

        var moved = await new HistoryMove(source, target).MoveAsync();
        var check = await HistoryCheck.RunAsync(source, target);

        Assert.Equal((5, 0), (moved.RunsMoved, moved.RunsAlreadyThere));
        Assert.True(check.Passed, string.Join("\n", check.Mismatches));
        Assert.Equal(
            ["AaChecks 1", "Benchmarks 2", "RunDigests 4", "RunLatencies 4", "Runs 5", "Samples 8000", "WebhookDeliveries 1"],
            check.Counts.Select(c => $"{c.Table} {c.Target}").Order());
        Assert.All(check.Counts, c => Assert.Equal(c.Source, c.Target));
        foreach (var type in Model().GetEntityTypes().Where(HistoryTables.IsHistory))
            Assert.Equal(await RowsAsync(source, type), await RowsAsync(target, type));
        // The keys are each installation's own: the target's fingerprint key is not replaced by the source's.
        var fingerprintKey = Model().FindEntityType(typeof(Core.Security.InstallationKey))!;
        Assert.NotEqual(await RowsAsync(source, fingerprintKey), await RowsAsync(target, fingerprintKey));
    }

    [Fact]
    public async Task NewRowsInTheTargetGetIdsAfterTheMovedOnes()
    {
        await SqliteHistory.FillAsync(source, samplesPerRun: 10);
        await new HistoryMove(source, target).MoveAsync();

        await using var scope = target.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
        var run = new Run { Kind = "http", ParametersJson = "{}", QueuedUtcMs = 1 };
        var benchmark = new Core.Benchmarks.Benchmark { Name = "new", Kind = "http", ParametersJson = "{}" };
        db.AddRange(run, benchmark);
        await db.SaveChangesAsync();

        Assert.Equal(6, run.Id);
        Assert.Equal(3, benchmark.Id);
    }

    [Fact]
    public async Task AnInterruptedMoveContinuesWhenStartedAgainWithoutDuplicates()
    {
        await SqliteHistory.FillAsync(source, samplesPerRun: 25_000, extraRuns: 3);
        using var interrupt = new CancellationTokenSource();
        var first = new HistoryMove(source, target) { RunMoved = (_, _, done, _) => { if (done == 2) interrupt.Cancel(); } };

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => first.MoveAsync(interrupt.Token));
        var between = await HistoryCheck.RunAsync(source, target);
        await using (var scope = target.CreateAsyncScope())
            // A run created meanwhile on the target takes an id after all eight of the source's, so the move can go on.
            Assert.Equal(9, await scope.ServiceProvider.GetRequiredService<BenchDbContext>().Database
                .SqlQueryRaw<long>("SELECT nextval(pg_get_serial_sequence('\"Runs\"', 'Id')) AS \"Value\"").SingleAsync());
        var again = await new HistoryMove(source, target).MoveAsync();
        var check = await HistoryCheck.RunAsync(source, target);

        Assert.Equal(2, between.Counts.Single(c => c.Table == "Runs").Target);
        Assert.Equal(2 * 25_000, between.Counts.Single(c => c.Table == "Samples").Target); // the run under way left nothing
        Assert.Equal((6, 2), (again.RunsMoved, again.RunsAlreadyThere));
        Assert.True(check.Passed, string.Join("\n", check.Mismatches));
        Assert.Equal(7 * 25_000, check.Counts.Single(c => c.Table == "Samples").Target);
        Assert.Equal(await RowsAsync(source, Model().FindEntityType(typeof(Sample))!), await RowsAsync(target, Model().FindEntityType(typeof(Sample))!));
        Assert.Equal(0, (await new HistoryMove(source, target).MoveAsync()).RunsMoved);
    }

    [Fact]
    public async Task MissingSamplesOfAMovedRunAreReportedWithTheRunAndBothCounts()
    {
        await SqliteHistory.FillAsync(source);
        await new HistoryMove(source, target).MoveAsync();
        await using (var scope = target.CreateAsyncScope())
            await scope.ServiceProvider.GetRequiredService<BenchDbContext>().Samples.Where(s => s.RunId == 2 && s.Index >= 1_995).ExecuteDeleteAsync();

        var check = await HistoryCheck.RunAsync(source, target);

        Assert.False(check.Passed);
        Assert.Equal(["Samples of run 2: 2,000 in the source, 1,995 in the target"], check.Mismatches);
    }

    [Fact]
    public async Task ARunInBlocksAndRunsInRowsArriveWithTheirSampleCountsAndTheCheckCountsSamplesNotBlocks()
    {
        // Run 3 (over agents) in three blocks of 4,096, 4,096 and 1,808 samples; the others in rows, from before blocks.
        await SqliteHistory.FillAsync(source, samplesPerRun: 10_000, packed: true);
        var reported = new Dictionary<long, long>();

        await new HistoryMove(source, target) { RunMoved = (id, samples, _, _) => reported[id] = samples }.MoveAsync();
        var check = await HistoryCheck.RunAsync(source, target);

        Assert.True(check.Passed, string.Join("\n", check.Mismatches));
        Assert.Equal(new TableCount("Samples", 40_000, 40_000), check.Counts.Single(c => c.Table == "Samples"));
        Assert.DoesNotContain(check.Counts, c => c.Table == "SampleBlocks");
        Assert.Equal(new Dictionary<long, long> { [1] = 10_000, [2] = 10_000, [3] = 10_000, [4] = 0, [5] = 10_000 }, reported);
        await using (var scope = target.CreateAsyncScope())
        {
            var to = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
            Assert.Equal([4_096, 4_096, 1_808], await to.SampleBlocks.Where(b => b.RunId == 3).OrderBy(b => b.FirstIndex).Select(b => b.Count).ToListAsync());
            Assert.Equal(0, await to.Samples.CountAsync(s => s.RunId == 3));
            Assert.Equal(10_000, await to.Samples.CountAsync(s => s.RunId == 2));
            foreach (var runId in new long[] { 1, 2, 3, 5 })
                Assert.Equal(10_000, await Core.Stores.RunSamples.CountAsync(to, runId));
            // A block lost in the target is reported as the samples it held.
            await to.SampleBlocks.Where(b => b.RunId == 3 && b.FirstIndex == 4_096).ExecuteDeleteAsync();
        }

        var after = await HistoryCheck.RunAsync(source, target);
        Assert.Equal(["Samples of run 3: 10,000 in the source, 5,904 in the target"], after.Mismatches);
        Assert.Equal(new TableCount("Samples", 40_000, 35_904), after.Counts.Single(c => c.Table == "Samples"));
    }

    [Fact]
    public async Task ATargetHoldingOtherRunsUnderTheSameIdsIsRefusedAndNothingIsMoved()
    {
        await SqliteHistory.FillAsync(source, samplesPerRun: 10);
        await using (var scope = target.CreateAsyncScope())
        {
            var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
            db.Runs.Add(new Run { Kind = "http", ParametersJson = "{}", QueuedUtcMs = 42 });
            await db.SaveChangesAsync();
        }

        var refused = await Assert.ThrowsAsync<HistoryMoveRefused>(() => new HistoryMove(source, target).MoveAsync());

        Assert.Contains("other runs under the ids of 1 of this history's runs (run 1)", refused.Message);
        await using var after = target.CreateAsyncScope();
        var to = after.ServiceProvider.GetRequiredService<BenchDbContext>();
        Assert.Equal((1, 0), (await to.Runs.CountAsync(), await to.Benchmarks.CountAsync()));
    }

    IModel Model() => source.CreateScope().ServiceProvider.GetRequiredService<BenchDbContext>().Model;

    /// <summary>Every row of a table with every property as text, in key order: equal lists mean equal tables.</summary>
    static async Task<List<string>> RowsAsync(IServiceProvider services, IEntityType type)
    {
        await using var scope = services.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
        var set = (IQueryable<object>)typeof(DbContext).GetMethod(nameof(DbContext.Set), Type.EmptyTypes)!.MakeGenericMethod(type.ClrType).Invoke(db, null)!;
        var properties = type.GetProperties().ToList();
        var rows = set.AsNoTracking().AsEnumerable()
            .Select(row => string.Join(" | ", properties.Select(p => $"{p.Name}={Text(p.PropertyInfo!.GetValue(row))}")))
            .Order(StringComparer.Ordinal).ToList();
        Assert.NotEmpty(rows);
        return rows;
    }

    static string Text(object? value) => value switch
    {
        null => "null",
        byte[] bytes => Convert.ToBase64String(bytes),
        string s => s,
        IEnumerable list => "[" + string.Join(",", list.Cast<object>()) + "]",
        IFormattable f => f.ToString(null, CultureInfo.InvariantCulture),
        _ => value.ToString()!,
    };
}
