using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Calibration;
using BenchDashboard.Core.Data;
using BenchDashboard.Core.Notifications;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;
using Microsoft.Extensions.DependencyInjection;

namespace BenchDashboard.Core.Tests.Data.Moving;

/// <summary>
/// A SQLite history with a row in every table and runs of several kinds: HTTP with warm-up, status codes and
/// errors; cache with series and hits; a run over agents with shards; a failed run without samples; an ad-hoc run.
/// </summary>
static class SqliteHistory
{
    public static async Task FillAsync(IServiceProvider services, int samplesPerRun = 2_000, int extraRuns = 0, bool packed = false)
    {
        await using var scope = services.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
        var nightly = new Benchmark { Name = "nightly", Kind = "http", ParametersJson = """{"url":"http://127.0.0.1:1/x"}""", CronSchedule = "0 3 * * *", TimeZone = "Asia/Tokyo", CreatedUtcMs = 1_700_000_000_000, WebhookUrls = ["https://hooks.example/a", "https://hooks.example/b"], ThresholdsJson = """{"p99Ms":50}""", LastScheduledUtcMs = 1_700_000_100_000 };
        var cache = new Benchmark { Name = "cache", Kind = "cache", ParametersJson = "{}", Enabled = false, CreatedUtcMs = 1_700_000_000_001, Agents = 2 };
        db.Benchmarks.AddRange(nightly, cache);
        await db.SaveChangesAsync();

        var runs = new List<Run>
        {
            Finished(nightly, "http", RunStatus.Completed),
            Finished(cache, "cache", RunStatus.Completed),
            Finished(null, "fileSystem", RunStatus.Completed, agents: 2),
            Finished(nightly, "http", RunStatus.Failed, error: "the target refused every connection"),
            Finished(null, "table", RunStatus.Cancelled),
        };
        for (var i = 0; i < extraRuns; i++) runs.Add(Finished(nightly, "http", RunStatus.Completed));
        db.Runs.AddRange(runs);
        await db.SaveChangesAsync();

        foreach (var run in runs.Where(r => r.Status != RunStatus.Failed))
        {
            var samples = Enumerable.Range(0, samplesPerRun).Select(i => SampleOf(run, i));
            // The run over agents stored as blocks, as this version's writer stores samples, the others as rows, as before.
            if (packed && run.Kind == "fileSystem") db.SampleBlocks.AddRange(SampleBlock.Pack(run.Id, samples));
            else db.Samples.AddRange(samples);
            db.Digests.Add(new StoredDigest { RunId = run.Id, Basis = LatencyBasis.Corrected, Version = 3, Json = $$"""{"run":{{run.Id}}}""" });
            db.Latencies.Add(new StoredLatencies { RunId = run.Id, Basis = LatencyBasis.Service, Series = "", Count = 3, Data = [1, 2, 3, (byte)run.Id] });
        }
        db.WebhookDeliveries.Add(new WebhookDelivery { RunId = runs[0].Id, Url = "https://hooks.example/a", Event = "regression", PayloadJson = "{}", Status = DeliveryStatus.Failed, Attempts = 5, CreatedUtcMs = 1, NextAttemptUtcMs = 2, LastAttemptUtcMs = 3, LastStatusCode = 502, LastError = "bad gateway" });
        db.AaChecks.Add(new AaCheck { BenchmarkId = nightly.Id, BenchmarkName = "nightly", CreatedUtcMs = 5, Rounds = 4, InterleavedRunIdsJson = $"[{runs[0].Id}]", SeparateRunIdsJson = "[]" });
        await db.SaveChangesAsync();
    }

    static long queued = 1_700_000_200_000;

    static Run Finished(Benchmark? benchmark, string kind, RunStatus status, int? agents = null, string? error = null) => new()
    {
        BenchmarkId = benchmark?.Id,
        BenchmarkName = benchmark?.Name,
        Kind = kind,
        ParametersJson = $$"""{"kind":"{{kind}}","n":{{Interlocked.Increment(ref queued)}}}""",
        Status = status,
        QueuedUtcMs = queued,
        StartedUtcMs = queued + 10,
        EndedUtcMs = queued + 5_000,
        HeartbeatUtcMs = queued + 4_900,
        RunnerName = "host-a/1",
        CompletedRequests = 2_000,
        MeasuredSamples = 2_000,
        EnvironmentJson = """{"os":"linux"}""",
        CachingEvidenceJson = """{"Age":["3"]}""",
        NotesJson = """["note é ü"]""",
        SummaryJson = """{"p50Ms":1.5}""",
        Error = error,
        WebhooksCheckedUtcMs = queued + 6_000,
        Agents = agents,
        AgentsJson = agents is null ? null : """[{"agent":"a"},{"agent":"b"}]""",
    };

    static Sample SampleOf(Run run, int i) => new()
    {
        RunId = run.Id,
        Index = i,
        IsWarmup = i < 10,
        Connection = i % 4,
        OffsetNs = i * 1_000_003L,
        LatencyNs = 900_000 + i * 7L,
        HeadersNs = run.Kind == "http" ? 800_000 + i : null,
        ConnectNs = i % 100 == 0 ? 50_000 : null,
        StatusCode = run.Kind == "http" ? (i % 50 == 0 ? 503 : 200) : null,
        Bytes = 512,
        Error = i % 97 == 0 ? ErrorKind.Timeout : ErrorKind.None,
        Series = run.Kind == "cache" ? (i % 2 == 0 ? "get" : "set") : null,
        Hit = run.Kind == "cache" && i % 2 == 0 ? i % 3 == 0 : null,
        LagNs = i % 5 == 0 ? 1_234 : null,
        Shard = run.Agents is null ? null : i % 2,
    };
}
