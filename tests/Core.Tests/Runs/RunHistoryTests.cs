using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Data;
using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Reports;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;
using BenchDashboard.Core.Statistics.Changes;
using BenchDashboard.Core.Stores;
using BenchDashboard.Core.Tests.Data;
using BenchDashboard.TestSupport;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;

namespace BenchDashboard.Core.Tests.Runs;

/// <summary>The change rule's judgements as stored and read on either provider.</summary>
public class RunHistoryTests
{
    public static TheoryProviders Providers => TestDatabase.Providers;

    [Theory, MemberData(nameof(Providers))]
    public async Task EachRunIsJudgedOnceInOrderAndTwoJudgesAtOnceStoreOneJudgement(string provider)
    {
        await using var database = await TestDatabase.CreateAsync(provider);
        await using var services = DatabaseServices.For(new Dictionary<string, string?>(database.Settings) { ["Targets:AllowLoopback"] = "true" });
        await services.MigrateDatabaseAsync();
        var benchmark = await SeedAsync(services, [2, 2.02, 1.98, 2.01, 1.99, 2, 2.03, 1.97, 4, 4.05, 3.96, 4.01]);

        await using (var scope = services.CreateAsyncScope())
            Assert.Equal(1, await scope.ServiceProvider.GetRequiredService<RunHistory>().JudgeUnjudgedAsync(10, default));

        var stored = await JudgementsAsync(services);
        Assert.Equal(12, stored.Count);
        var change = Assert.Single(stored.SelectMany(j => j.Value.Confirmed));
        Assert.Equal((9L, 11L, ChangeDirection.Regression), (change.SinceRunId, change.ConfirmedByRunId, change.Evidence.Call));
        Assert.Equal(2, stored[9].Pending!.WaitingFor);
        Assert.True(stored[11].Flagged);
        Assert.Equal(9L, stored[12].LevelSinceRunId);

        // The last run judged by an older rule: judged again, by two processes at once; one judgement stands.
        await using (var scope = services.CreateAsyncScope())
            await scope.ServiceProvider.GetRequiredService<BenchDbContext>().Runs.Where(r => r.Id >= 11)
                .ExecuteUpdateAsync(set => set.SetProperty(r => r.HistoryVersion, 0).SetProperty(r => r.HistoryJson, "{}"));
        await Task.WhenAll(Enumerable.Range(0, 2).Select(_ => Task.Run(async () =>
        {
            await using var scope = services.CreateAsyncScope();
            await scope.ServiceProvider.GetRequiredService<RunHistory>().JudgeAsync(benchmark, default);
        })));

        var again = await JudgementsAsync(services);
        Assert.Equal(Core.Json.Serialize(stored[11]), Core.Json.Serialize(again[11]));
        Assert.Equal(Core.Json.Serialize(stored[12]), Core.Json.Serialize(again[12]));
        await using (var scope = services.CreateAsyncScope())
        {
            var (points, view) = await scope.ServiceProvider.GetRequiredService<RunHistory>().ViewAsync(benchmark, 500, default);
            Assert.Equal(12, points.Count);
            Assert.Equal([(1L, 8L), (9L, 12L)], view.Segments.Select(s => (s.FromRunId, s.ToRunId)));
        }
    }

    /// <summary>A benchmark and one completed run per median (in ms), each with its summary and 50 stored latencies around it, as a runner leaves them.</summary>
    static async Task<Benchmark> SeedAsync(ServiceProvider services, double[] medians)
    {
        await using var scope = services.CreateAsyncScope();
        var (benchmark, errors) = await scope.ServiceProvider.GetRequiredService<BenchmarkStore>().SaveAsync(
            null, "judged", new HttpParameters { Url = "http://127.0.0.1:1/", Requests = 50 }, null, true, default);
        Assert.Empty(errors);
        var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
        for (var i = 0; i < medians.Length; i++)
        {
            var latencies = Enumerable.Range(0, 50).Select(k => (long)(medians[i] * 1e6 * (0.95 + k * 0.002))).ToArray();
            var statistics = RunStatistics.From(latencies.Select((ns, k) => new Sample { Index = k, LatencyNs = ns, StatusCode = 200 }).ToList());
            var run = new Run
            {
                BenchmarkId = benchmark!.Id, Kind = HttpKind.KindName, ParametersJson = benchmark.ParametersJson, Status = RunStatus.Completed,
                QueuedUtcMs = 1_000 + i, EndedUtcMs = 2_000 + i, SummaryJson = Core.Json.Serialize(RunSummary.From(statistics)),
            };
            db.Runs.Add(run);
            await db.SaveChangesAsync();
            db.Latencies.Add(new StoredLatencies { RunId = run.Id, Basis = LatencyBasis.Corrected, Series = RunDigest.WholeRun, Count = latencies.Length, Data = SortedLatencies.Encode(latencies) });
            await db.SaveChangesAsync();
        }
        return benchmark!;
    }

    static async Task<Dictionary<long, HistoryJudgement>> JudgementsAsync(ServiceProvider services)
    {
        await using var scope = services.CreateAsyncScope();
        var runs = await scope.ServiceProvider.GetRequiredService<BenchDbContext>().Runs.AsNoTracking().OrderBy(r => r.Id).ToListAsync();
        return runs.Where(r => RunHistory.JudgementOf(r) is not null).ToDictionary(r => r.Id, r => RunHistory.JudgementOf(r)!);
    }
}
