using System.Net;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Data;
using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Notifications;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Stores;
using BenchDashboard.TestSupport;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;

namespace BenchDashboard.Web.Tests.Notifications;

/// <summary>The dashboard announcing runs to real receivers on 127.0.0.1: signed, retried, and shown on the run page.</summary>
public class WebhookTests
{
    const string Key = "a-signing-key-for-the-webhook-tests";

    static Dictionary<string, string?> Settings(Dictionary<string, string?>? more = null)
    {
        var settings = new Dictionary<string, string?>
        {
            ["Webhooks:SigningKey"] = Key, ["Webhooks:PollIntervalMs"] = "50", ["Webhooks:PublicBaseUrl"] = "https://bench.example.test/",
        };
        foreach (var (k, v) in more ?? []) settings[k] = v;
        return settings;
    }

    [Fact]
    public async Task AConfirmedRegressionSendsOneSignedWebhookAndNoOtherRunSendsAny()
    {
        await using var target = await KestrelTarget.StartAsync();
        await using var receiver = await WebhookReceiver.StartAsync(Key);
        await using var app = new DashboardFactory(Settings());
        var client = app.CreateClient();
        var benchmark = await SaveAsync(app, target.Url("/deployed?key=webhooks&ms=2").ToString(), [receiver.Url]);
        var runs = new List<long>();
        for (var i = 0; i < 8; i++) runs.Add(await RunToEndAsync(app, client, benchmark));
        // The same address, ten times as slow from now on, as after a deployment: the third run at the new level confirms it.
        using (var direct = new HttpClient()) await direct.GetStringAsync(target.Url("/deploy?key=webhooks&ms=20"));
        for (var i = 0; i < 5; i++) runs.Add(await RunToEndAsync(app, client, benchmark));
        var first = runs[8];
        // The third run at the new level confirms it, or on a busy machine whose runs before were noisy, the fourth.
        var confirming = await Pages.HistoryChangesTests.ConfirmingRunAsync(client, runs.Skip(8).ToList());
        Assert.Contains(confirming, runs[10..12]);

        await WaitUntilAsync(async () => (await DeliveriesAsync(app, confirming)) is [{ Status: DeliveryStatus.Delivered }]);
        foreach (var id in runs.Where(id => id != confirming))
        {
            await WaitUntilAsync(async () => (await RunAsync(app, id)).WebhooksCheckedUtcMs is not null);
            Assert.Empty(await DeliveriesAsync(app, id));
        }

        var call = Assert.Single(receiver.Calls);
        Assert.True(call.SignatureValid);
        Assert.True(call.TimestampFresh);
        Assert.Equal("regression", call.Event);
        Assert.Equal(confirming, call.Body.GetProperty("runId").GetInt64());
        Assert.Equal("webhook target", call.Body.GetProperty("benchmark").GetProperty("name").GetString());
        Assert.Contains($"slower", call.Body.GetProperty("why").GetString());
        Assert.Contains($"since run {first}, confirmed by run {confirming}", call.Body.GetProperty("why").GetString());
        Assert.Equal($"https://bench.example.test/runs/{confirming}", call.Body.GetProperty("runUrl").GetString());
        var change = Assert.Single(call.Body.GetProperty("changes").EnumerateArray().ToList());
        Assert.Equal(("regression", first, confirming), (change.GetProperty("direction").GetString(), change.GetProperty("sinceRunId").GetInt64(), change.GetProperty("confirmedByRunId").GetInt64()));
        var median = change.GetProperty("metrics").EnumerateArray().Single(m => m.GetProperty("metric").GetString() == "median");
        Assert.InRange(median.GetProperty("beforeMs").GetDouble(), 1.9, 3.5);
        Assert.InRange(median.GetProperty("afterMs").GetDouble(), 19.9, 30);
        Assert.Equal("regression", median.GetProperty("call").GetString());
        Assert.True(median.GetProperty("lower").GetDouble() > 0.05);
        // The runs before it are the level before (all eight, unless a busy machine's first runs made a level of their own).
        var before = change.GetProperty("beforeRunIds").EnumerateArray().Select(r => r.GetInt64()).ToList();
        Assert.Equal(runs.Take(8).TakeLast(before.Count), before);
        Assert.Equal($"https://bench.example.test/compare?items={Uri.EscapeDataString(string.Join("+", before) + "," + string.Join("+", runs.Skip(8).TakeWhile(r => r <= confirming)))}",
            change.GetProperty("compareUrl").GetString());
        var delivery = Assert.Single(await DeliveriesAsync(app, confirming));
        Assert.Equal((1, 200, null), (delivery.Attempts, delivery.LastStatusCode, delivery.LastError));

        var page = WebUtility.HtmlDecode(await client.GetStringAsync($"/runs/{confirming}"));
        Assert.Contains("id=\"webhooks\"", page);
        Assert.Contains("delivered", page);
        Assert.Contains("Nothing sent: this run's outcome announces nothing", WebUtility.HtmlDecode(await client.GetStringAsync($"/runs/{runs[^1]}")));
    }

    static async Task<long> RunToEndAsync(DashboardFactory app, HttpClient client, Benchmark benchmark)
    {
        var id = await EnqueueAsync(app, benchmark);
        await DashboardFactory.WaitForEndAsync(client, id);
        return id;
    }

    [Fact]
    public async Task ReceiversThatAnswer500OrRefuseAreRetriedWithBackoffThenMarkedFailed()
    {
        await using var target = await KestrelTarget.StartAsync();
        await using var failing = await WebhookReceiver.StartAsync(Key, status: 500);
        var refused = $"http://127.0.0.1:{WebhookReceiver.ClosedPort()}/hook";
        await using var app = new DashboardFactory(Settings(new() { ["Webhooks:MaxAttempts"] = "3", ["Webhooks:FirstRetrySeconds"] = "0.3" }));
        // A p99 limit no request can meet: the run fails its limits.
        var benchmark = await SaveAsync(app, target.Url("/ok").ToString(), [failing.Url, refused], thresholds: new Thresholds { MaxP99Ms = 0.001 });
        var run = await EnqueueAsync(app, benchmark);

        await WaitUntilAsync(async () => (await DeliveriesAsync(app, run)) is { Count: 2 } all && all.All(d => d.Status != DeliveryStatus.Pending));

        var deliveries = await DeliveriesAsync(app, run);
        Assert.All(deliveries, d => Assert.Equal((DeliveryStatus.Failed, 3, "thresholdsFailed"), (d.Status, d.Attempts, d.Event)));
        var answered = deliveries.Single(d => d.Url == failing.Url);
        Assert.Equal((500, "HTTP 500 Internal Server Error"), (answered.LastStatusCode, answered.LastError));
        var unanswered = deliveries.Single(d => d.Url == refused);
        Assert.Null(unanswered.LastStatusCode);
        Assert.Contains("refused", unanswered.LastError, StringComparison.OrdinalIgnoreCase);
        var calls = failing.Calls.ToArray();
        Assert.Equal(3, calls.Length);
        Assert.All(calls, c => Assert.True(c.SignatureValid));
        Assert.Equal("thresholdsFailed", calls[0].Body.GetProperty("event").GetString());
        Assert.Matches(@"^p99 [0-9.]+ ms, limit [0-9.]+ ms$", calls[0].Body.GetProperty("why").GetString()); // in words, not the API's field name
        // 0.3 s, then 0.6 s: each wait at least as long as the backoff says (a loaded machine only makes them longer).
        Assert.True(calls[1].ReceivedUtc - calls[0].ReceivedUtc >= TimeSpan.FromSeconds(0.28), $"first retry after {(calls[1].ReceivedUtc - calls[0].ReceivedUtc).TotalSeconds} s");
        Assert.True(calls[2].ReceivedUtc - calls[1].ReceivedUtc >= TimeSpan.FromSeconds(0.58), $"second retry after {(calls[2].ReceivedUtc - calls[1].ReceivedUtc).TotalSeconds} s");

        var page = WebUtility.HtmlDecode(await app.CreateClient().GetStringAsync($"/runs/{run}"));
        Assert.Contains("HTTP 500 Internal Server Error", page);
        Assert.Contains("outcome-bad\">failed", page);
    }

    [Fact]
    public async Task WithoutASigningKeyNothingIsSentAndTheDeliveryIsFailedSayingWhy()
    {
        await using var receiver = await WebhookReceiver.StartAsync(Key);
        await using var app = new DashboardFactory(Settings(new() { ["Webhooks:SigningKey"] = null }));
        // Nothing listens there: the run itself fails.
        var benchmark = await SaveAsync(app, $"http://127.0.0.1:{WebhookReceiver.ClosedPort()}/", [receiver.Url]);
        var run = await EnqueueAsync(app, benchmark);

        await WaitUntilAsync(async () => (await DeliveriesAsync(app, run)) is [{ Status: DeliveryStatus.Failed }]);

        var delivery = Assert.Single(await DeliveriesAsync(app, run));
        Assert.Equal(0, delivery.Attempts);
        Assert.Contains("Webhooks:SigningKey is not set", delivery.LastError);
        Assert.Empty(receiver.Calls);
    }

    [Fact]
    public async Task ADeliveryLeftPendingByAStoppedDashboardIsSentByTheNextOne()
    {
        using var dir = new TempDirectory();
        var port = WebhookReceiver.ClosedPort();
        var hook = $"http://127.0.0.1:{port}/hook";
        var database = new Dictionary<string, string?> { ["Database:Path"] = dir.File("shared.db"), ["Webhooks:FirstRetrySeconds"] = "2" };
        long run;
        await using (var first = new DashboardFactory(Settings(database)))
        {
            var benchmark = await SaveAsync(first, $"http://127.0.0.1:{WebhookReceiver.ClosedPort()}/", [hook]);
            run = await EnqueueAsync(first, benchmark);
            await WaitUntilAsync(async () => (await DeliveriesAsync(first, run)) is [{ Attempts: 1, Status: DeliveryStatus.Pending }]);
        }
        await using var receiver = await WebhookReceiver.StartAsync(Key, port: port);
        await using var second = new DashboardFactory(Settings(database));
        second.CreateClient(); // starts it

        await WaitUntilAsync(async () => (await DeliveriesAsync(second, run)) is [{ Status: DeliveryStatus.Delivered }]);

        Assert.Equal(2, (await DeliveriesAsync(second, run))[0].Attempts);
        var call = Assert.Single(receiver.Calls);
        Assert.True(call.SignatureValid);
        Assert.Equal("failed", call.Body.GetProperty("event").GetString());
    }

    static async Task<Benchmark> SaveAsync(DashboardFactory app, string url, string[] hooks, Benchmark? existing = null, Thresholds? thresholds = null)
    {
        await using var scope = app.Services.CreateAsyncScope();
        var (saved, errors) = await scope.ServiceProvider.GetRequiredService<BenchmarkStore>().SaveAsync(
            existing?.Id, "webhook target", new HttpParameters { Url = url, Requests = 20, TimeoutMs = 2000 }, null, true, default, thresholds, webhookUrls: hooks);
        Assert.True(saved is not null, string.Join("; ", errors.SelectMany(e => e.Value)));
        return saved!;
    }

    static async Task<long> EnqueueAsync(DashboardFactory app, Benchmark benchmark)
    {
        await using var scope = app.Services.CreateAsyncScope();
        var result = await scope.ServiceProvider.GetRequiredService<RunQueue>().EnqueueAsync(benchmark, default);
        return result.Run!.Id;
    }

    static async Task<Run> RunAsync(DashboardFactory app, long id)
    {
        await using var scope = app.Services.CreateAsyncScope();
        return await scope.ServiceProvider.GetRequiredService<BenchDbContext>().Runs.AsNoTracking().SingleAsync(r => r.Id == id);
    }

    static async Task<List<WebhookDelivery>> DeliveriesAsync(DashboardFactory app, long runId)
    {
        await using var scope = app.Services.CreateAsyncScope();
        return await scope.ServiceProvider.GetRequiredService<RunNotifications>().ForRunAsync(runId, default);
    }

    static async Task WaitUntilAsync(Func<Task<bool>> condition)
    {
        var deadline = DateTime.UtcNow.AddSeconds(90);
        while (!await condition())
        {
            if (DateTime.UtcNow > deadline) throw new TimeoutException("The webhook state awaited did not come within 90 s.");
            await Task.Delay(50);
        }
    }
}
