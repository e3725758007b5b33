using BenchDashboard.Core.Kinds.Tables;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;
using BenchDashboard.Runner.Tests.Execution;
using BenchDashboard.TestSupport;

namespace BenchDashboard.Runner.Tests.Tables;

/// <summary>Single and batch inserts, with Expect: 100-continue and Nagle on and off, through the whole runner against a real Azurite, directly or through a relay that watches the wire.</summary>
public sealed class TableBenchmarkTests
{
    static readonly string[] Matrix =
    [
        "single/expect-on/nagle-on", "single/expect-on/nagle-off", "single/expect-off/nagle-on", "single/expect-off/nagle-off",
        "batch/expect-on/nagle-on", "batch/expect-on/nagle-off", "batch/expect-off/nagle-on", "batch/expect-off/nagle-off",
    ];

    [Fact]
    public async Task TheVariantsAreInterleavedEvenlyAndEveryAnsweredEntityLandsInItsPartition()
    {
        await using var azurite = await Azurite.StartAsync();
        var (run, samples) = await TableRuns.ExecuteAsync(azurite.ConnectionString, TableRuns.Small("landed") with { WarmupRequests = 2, Cleanup = false });

        Assert.Equal(RunStatus.Completed, run.Status);
        // Every request is a sample, numbered in the order they started: rounds of one of each variant, each from its
        // drawn leader on, warm-up rounds first (their rounds count from 0, and so do the measured ones).
        Assert.Equal(Enumerable.Range(0, 8 * 10), samples.Select(s => s.Index));
        Assert.Equal(TurnOrder.Of(Matrix, Enumerable.Range(0, 2).Concat(Enumerable.Range(0, 8))), samples.Select(s => s.Series));
        Assert.All(samples.Take(16), s => Assert.True(s.IsWarmup));
        Assert.All(samples.Skip(16), s => Assert.False(s.IsWarmup));
        Assert.All(samples, s => Assert.Equal(ErrorKind.None, s.Error));
        Assert.All(samples, s => Assert.Equal(s.Series!.StartsWith("batch") ? 202 : 204, s.StatusCode));
        Assert.All(samples, s => Assert.Equal(s.Series!.StartsWith("batch") ? 10 * 1024 : 1024, s.Bytes));
        Assert.All(SeriesStatistics.From(samples), s => Assert.Equal(8, s.Statistics.Count));

        // Read back with a client of our own: 10 requests per variant, of 1 or 10 entities each.
        var prefix = TableRuns.PartitionPrefix(run);
        using var connection = TableRuns.Connect(azurite.ConnectionString, "landed");
        for (var v = 0; v < Matrix.Length; v++)
            Assert.Equal(Matrix[v].StartsWith("batch") ? 100 : 10, await connection.Client.CountAsync($"{prefix}{v}", default));
        Assert.Contains(TableRuns.Notes(run).Notes, n => n == "batch/expect-off/nagle-off: the service confirmed 100 entities written, and the partition holds 100.");
        Assert.Contains(TableRuns.Notes(run).Warnings, w => w.StartsWith("This endpoint is an emulator (Azurite)", StringComparison.Ordinal));
    }

    [Fact]
    public async Task OnAScheduleTheVariantsStillTakeTurnsAndEveryEntityIsAccountedFor()
    {
        await using var azurite = await Azurite.StartAsync();
        // 10 requests of each of the 8 variants at 100 requests a second: 0.8 s, request k in round k ÷ 8.
        var (run, samples) = await TableRuns.ExecuteAsync(azurite.ConnectionString, TableRuns.Small("scheduled", requests: 10) with
        {
            Model = Core.Benchmarks.LoadModel.Open, Rate = 100, Concurrency = 2, Cleanup = false,
        });

        Assert.Equal(RunStatus.Completed, run.Status);
        Assert.Equal(Enumerable.Range(0, 80), samples.Select(s => s.Index));
        Assert.Equal(TurnOrder.Of(Matrix, Enumerable.Range(0, 10)), samples.Select(s => s.Series));
        Assert.All(samples, s => Assert.True(s.LagNs >= 0 && s.LatencyNs >= s.LagNs));
        Assert.All(samples, s => Assert.InRange(s.OffsetNs - samples[0].OffsetNs - s.Index * 10_000_000L, -1, 1));
        Assert.All(samples, s => Assert.Equal(ErrorKind.None, s.Error));
        Assert.True(RunStatistics.From(samples).IsOpenModel);

        var prefix = TableRuns.PartitionPrefix(run);
        using var connection = TableRuns.Connect(azurite.ConnectionString, "scheduled");
        for (var v = 0; v < Matrix.Length; v++)
            Assert.Equal(Matrix[v].StartsWith("batch") ? 100 : 10, await connection.Client.CountAsync($"{prefix}{v}", default));
        Assert.Contains(TableRuns.Notes(run).Notes, n => n.StartsWith("Open model: 80 operations", StringComparison.Ordinal));
    }

    [Fact]
    public async Task CleanupDeletesTheRunsEntitiesAndKeepsTheTable()
    {
        await using var azurite = await Azurite.StartAsync();
        var (run, _) = await TableRuns.ExecuteAsync(azurite.ConnectionString, TableRuns.Small("cleaned", requests: 3));

        Assert.Equal(RunStatus.Completed, run.Status);
        Assert.Contains(TableRuns.Notes(run).Notes, n => n.StartsWith("Cleanup: deleted the run's 132 entities", StringComparison.Ordinal)); // 4 × 3 + 4 × 30
        using var connection = TableRuns.Connect(azurite.ConnectionString, "cleaned");
        for (var v = 0; v < Matrix.Length; v++) Assert.Equal(0, await connection.Client.CountAsync($"{TableRuns.PartitionPrefix(run)}{v}", default));
        Assert.False(await connection.Client.CreateTableIfNotExistsAsync(default)); // still there
    }

    [Fact]
    public async Task OnTheWireExpectIsSentExactlyByTheVariantsThatAskAndNagleHoldsABatchsLastSegment()
    {
        await using var azurite = await Azurite.StartAsync();
        await using var relay = new HttpRelay(azurite.Port);
        var (run, samples) = await TableRuns.ExecuteAsync(Azurite.ConnectionStringFor(relay.Port), TableRuns.Small("wire", requests: 12) with { WarmupRequests = 2 });
        Assert.Equal(RunStatus.Completed, run.Status);

        // Each request carries the client request id bd-{run}-{sample index}: the relay's view joins the samples'.
        var series = samples.ToDictionary(s => $"bd-{run.Id}-{s.Index}", s => s.Series!);
        var measured = relay.Requests.Where(r => r.Header("x-ms-client-request-id") is { } id && series.ContainsKey(id)).ToList();
        Assert.Equal(samples.Count, measured.Count);
        foreach (var request in measured)
        {
            Assert.Equal(series[request.Header("x-ms-client-request-id")!].Contains("expect-on"), request.Header("Expect") == "100-continue");
            // Sent by Azure.Data.Tables itself: the pinned version, signed, and no answer body to read.
            Assert.StartsWith("azsdk-net-Data.Tables/12.13.0 ", request.Header("User-Agent"));
            Assert.Equal("2020-12-06", request.Header("x-ms-version"));
            Assert.StartsWith($"SharedKeyLite {Azurite.AccountName}:", request.Header("Authorization"));
            if (request.Target.Split('?')[0].EndsWith("/$batch", StringComparison.Ordinal))
                Assert.StartsWith("multipart/mixed; boundary=batch_", request.Header("Content-Type"));
            else
                Assert.Equal(("return-no-content", "application/json;odata=minimalmetadata"), (request.Header("Prefer"), request.Header("Accept")));
        }

        // The SDK writes a batch's body in pieces, which leave in 4 KiB writes; with Nagle on, the rest waits for
        // the server's delayed ACK of the first (about 40 ms on Linux), with or without Expect (the "100
        // Continue" acknowledges the headers, not the body's first piece). Nagle off, and it follows at once.
        // Single inserts fit in one write.
        double MedianSpread(string name) => Median(measured.Where(r => series[r.Header("x-ms-client-request-id")!] == name).Select(r => r.BodySpreadMs));
        Assert.True(MedianSpread("batch/expect-off/nagle-on") >= 30, $"Nagle held the batch's second write for {MedianSpread("batch/expect-off/nagle-on"):F1} ms");
        Assert.True(MedianSpread("batch/expect-on/nagle-on") >= 30, $"Nagle held the batch's second write after 100 Continue for {MedianSpread("batch/expect-on/nagle-on"):F1} ms");
        Assert.True(MedianSpread("batch/expect-on/nagle-off") < 10, $"expect-on nagle-off spread {MedianSpread("batch/expect-on/nagle-off"):F1} ms");
        Assert.True(MedianSpread("batch/expect-off/nagle-off") < 10, $"nagle-off spread {MedianSpread("batch/expect-off/nagle-off"):F1} ms");
        Assert.True(MedianSpread("single/expect-off/nagle-on") < 10, $"single insert spread {MedianSpread("single/expect-off/nagle-on"):F1} ms");

        // And the samples show it as latency.
        var phases = SeriesStatistics.From(samples).ToDictionary(s => s.Name, s => s.Statistics.Latency!.P50Ns / 1e6);
        Assert.True(phases["batch/expect-off/nagle-on"] > phases["batch/expect-off/nagle-off"] + 25, string.Join(", ", phases.Select(p => $"{p.Key} {p.Value:F1} ms")));
    }

    [Fact]
    public async Task ThrottlingAConflictInsideABatchAnswerAndAResetAreClassifiedSamplesAndTheRunCompletes()
    {
        await using var azurite = await Azurite.StartAsync();
        var inserts = 0;
        await using var relay = new HttpRelay(azurite.Port, request =>
        {
            var path = request.Target.Split('?')[0];
            if (request.Method != "POST" || path.EndsWith("/Tables", StringComparison.Ordinal)) return RelayReply.Forward; // create, count, delete
            if (path.EndsWith("/$batch", StringComparison.Ordinal))
                return request.Header("x-ms-client-request-id") is null ? RelayReply.Forward : ConflictInBatch();
            return Interlocked.Increment(ref inserts) % 3 == 0
                ? RelayReply.Reset
                : RelayReply.Respond(503, "Server Busy", "application/json", """{"odata.error":{"code":"ServerBusy","message":{"lang":"en-US","value":"The server is busy.\nRequestId:1"}}}""");
        });
        var parameters = TableRuns.Small("faults", requests: 9) with { Expect100Continue = [false], Nagle = [false] };

        var (run, samples) = await TableRuns.ExecuteAsync(Azurite.ConnectionStringFor(relay.Port), parameters);

        Assert.Equal(RunStatus.Completed, run.Status);
        Assert.Equal(18, samples.Count);
        var single = samples.Where(s => s.Series == "single/expect-off/nagle-off").ToList();
        Assert.Equal(6, single.Count(s => s.Error == ErrorKind.Throttled && s.StatusCode == 503 && s.LatencyNs > 0));
        Assert.Equal(3, single.Count(s => s.Error == ErrorKind.ConnectionReset && s.StatusCode is null));
        Assert.All(samples.Where(s => s.Series == "batch/expect-off/nagle-off"), s => Assert.Equal((ErrorKind.HttpStatus, (int?)409), (s.Error, s.StatusCode)));
        var messages = TableRuns.Notes(run).ErrorMessages;
        Assert.Contains(messages, m => m is { Kind: ErrorKind.Throttled, Count: 6, Message: "503 ServerBusy: The server is busy." });
        Assert.Contains(messages, m => m is { Kind: ErrorKind.HttpStatus, Count: 9 } && m.Message == "409 EntityAlreadyExists: The specified entity already exists. (inside a batch's 202 answer)");
        Assert.Contains(TableRuns.Notes(run).Notes, n => n == "batch/expect-off/nagle-off: the service confirmed 0 entities written, and the partition holds 0.");
    }

    [Fact]
    public async Task AWrongAccountKeyFailsTheRunWithTheReasonAndNothingIsRetried()
    {
        await using var azurite = await Azurite.StartAsync();
        await using var relay = new HttpRelay(azurite.Port);
        var wrongKey = Convert.ToBase64String(new byte[64]);

        var (run, samples) = await TableRuns.ExecuteAsync(Azurite.ConnectionStringFor(relay.Port, wrongKey), TableRuns.Small("wrongkey"));

        Assert.Equal(RunStatus.Failed, run.Status);
        Assert.Contains("403 AuthorizationFailure", run.Error);
        Assert.Contains("Check the account key or SAS", run.Error);
        Assert.DoesNotContain(wrongKey, run.Error + run.NotesJson);
        Assert.Empty(samples);
        Assert.Single(relay.Requests); // the create-table call, once
    }

    [Fact]
    public async Task AnEndpointWhereNothingListensFailsTheRunAtOnceWithTheReason()
    {
        var (run, samples) = await TableRuns.ExecuteAsync(Azurite.ConnectionStringFor(Azurite.FreePort()), TableRuns.Small("nobody"));

        Assert.Equal(RunStatus.Failed, run.Status);
        Assert.Contains("Could not reach the Table endpoint of connection 'test' (ConnectionRefused)", run.Error);
        Assert.Empty(samples);
    }

    [Fact]
    public async Task ADurationRunGivesEveryVariantTheSameNumberOfRequests()
    {
        await using var azurite = await Azurite.StartAsync();
        var parameters = TableRuns.Small("duration") with
        {
            Requests = null, DurationSeconds = 2, Concurrency = 3, Operations = [TableOperation.Single], Nagle = [false],
        };

        var (run, samples) = await TableRuns.ExecuteAsync(azurite.ConnectionString, parameters);

        Assert.Equal(RunStatus.Completed, run.Status);
        var counts = samples.GroupBy(s => s.Series).ToDictionary(g => g.Key!, g => g.Count());
        Assert.Equal(["single/expect-off/nagle-off", "single/expect-on/nagle-off"], counts.Keys.Order());
        Assert.True(counts.Values.Min() > 20, $"only {counts.Values.Min()} requests in 2 s");
        Assert.Equal(counts.Values.Min(), counts.Values.Max()); // whole rounds: each variant the same share
        Assert.Equal(3, samples.Select(s => s.Connection).Distinct().Count());
    }

    static double Median(IEnumerable<double> values)
    {
        var sorted = values.Order().ToArray();
        return sorted.Length == 0 ? double.NaN : sorted[sorted.Length / 2];
    }

    /// <summary>A 202 whose changeset says the first entity already existed: how the service answers a failed batch.</summary>
    static RelayReply ConflictInBatch()
    {
        const string body =
            "--batchresponse_1\r\nContent-Type: multipart/mixed; boundary=changesetresponse_1\r\n\r\n" +
            "--changesetresponse_1\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n" +
            "HTTP/1.1 409 Conflict\r\nContent-Type: application/json;odata=nometadata;charset=utf-8\r\n\r\n" +
            "{\"odata.error\":{\"code\":\"EntityAlreadyExists\",\"message\":{\"lang\":\"en-US\",\"value\":\"0:The specified entity already exists.\\nRequestId:9\"}}}\r\n" +
            "--changesetresponse_1--\r\n--batchresponse_1--\r\n";
        return RelayReply.Respond(202, "Accepted", "multipart/mixed; boundary=batchresponse_1", body);
    }
}
