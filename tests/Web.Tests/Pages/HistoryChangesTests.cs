using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using System.Text.RegularExpressions;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Stores;
using BenchDashboard.TestSupport;
using Microsoft.Extensions.DependencyInjection;

namespace BenchDashboard.Web.Tests.Pages;

/// <summary>A real target that became slower under the same address, as every page and the API tell it.</summary>
public class HistoryChangesTests
{
    [Fact]
    public async Task ATargetThatBecameTenTimesAsSlowIsOneConfirmedChangeOnEveryPageAndInTheApi()
    {
        await using var target = await KestrelTarget.StartAsync();
        await using var app = new DashboardFactory();
        var client = app.CreateClient();
        var benchmark = await SaveAsync(app, target.Url("/deployed?key=history&ms=2").ToString());
        var runs = new List<long>();
        for (var i = 0; i < 8; i++) runs.Add(await RunToEndAsync(app, client, benchmark));
        using (var direct = new HttpClient()) await direct.GetStringAsync(target.Url("/deploy?key=history&ms=20"));
        for (var i = 0; i < 5; i++) runs.Add(await RunToEndAsync(app, client, benchmark));
        var first = runs[8];
        // The third run at the new level confirms it, or on a busy machine whose runs before were noisy, the fourth.
        var confirming = await ConfirmingRunAsync(client, runs.Skip(8).ToList());
        Assert.Contains(confirming, runs[10..12]);
        var after = runs[^1];

        var pending = (await client.GetFromJsonAsync<JsonElement>($"/api/runs/{first}")).GetProperty("regression");
        Assert.False(pending.GetProperty("flagged").GetBoolean());
        Assert.Equal((first, 2), (pending.GetProperty("pending").GetProperty("sinceRunId").GetInt64(), pending.GetProperty("pending").GetProperty("waitingFor").GetInt32()));
        // Named by the percentile that moved furthest: the median on a quiet machine, a tail on a busy one.
        Assert.Matches($@"^possible change since run {first} \((median|p95|p99) slower\), waiting for 2 more runs$", pending.GetProperty("summary").GetString());

        var flagged = await client.GetFromJsonAsync<JsonElement>($"/api/runs/{confirming}");
        Assert.True(flagged.GetProperty("regression").GetProperty("flagged").GetBoolean());
        Assert.Equal(("warning", "regression"), (flagged.GetProperty("outcome").GetProperty("level").GetString(), flagged.GetProperty("outcome").GetProperty("label").GetString()));
        var change = Assert.Single(flagged.GetProperty("regression").GetProperty("changes").EnumerateArray().ToList());
        Assert.Equal(("confirmed", first, confirming), (change.GetProperty("status").GetString(), change.GetProperty("sinceRunId").GetInt64(), change.GetProperty("confirmedByRunId").GetInt64()));
        // The level before: all eight runs, unless a busy machine's first runs made a level of their own.
        var before = change.GetProperty("beforeRunIds").EnumerateArray().Select(r => r.GetInt64()).ToList();
        Assert.InRange(before.Count, 3, 8);
        Assert.Equal(runs.Take(8).TakeLast(before.Count), before);

        // Announced once: the run after it is at the new level, not a new change.
        var next = (await client.GetFromJsonAsync<JsonElement>($"/api/runs/{after}")).GetProperty("regression");
        Assert.False(next.GetProperty("flagged").GetBoolean());
        Assert.Equal(first, next.GetProperty("levelSinceRunId").GetInt64());
        Assert.Equal($"in line with the runs since run {first}", next.GetProperty("summary").GetString());
        // The headline is the percentile that moved furthest: the median on a quiet machine, a tail on a busy one.
        var history = (await client.GetStringAsync($"/api/runs/{confirming}?format=text")).Split('\n').Single(l => l.StartsWith("History:"));
        Assert.Matches($@"^History: +FLAGGED regression: (median|p95|p99) [0-9.]+× slower \(99\.9 % interval [^)]+\) since run {first}, confirmed by run {confirming}", history);

        var changes = await client.GetFromJsonAsync<JsonElement>($"/api/benchmarks/{benchmark.Id}/changes");
        Assert.Equal(13, changes.GetProperty("runs").GetInt32());
        Assert.Equal((5.0, 3), (changes.GetProperty("rule").GetProperty("changeMarginPercent").GetDouble(), changes.GetProperty("rule").GetProperty("confirmRuns").GetInt32()));
        var regression = Assert.Single(changes.GetProperty("changes").EnumerateArray().Where(c => c.GetProperty("direction").GetString() == "regression").ToList());
        Assert.Equal(first, regression.GetProperty("sinceRunId").GetInt64());
        Assert.Equal(JsonValueKind.Null, changes.GetProperty("pending").ValueKind);
        var levels = changes.GetProperty("segments").EnumerateArray().Select(s => s.GetProperty("medianMs").GetDouble()).ToList();
        Assert.InRange(levels[^1] / levels[^2], 5, 11); // 2 ms, then 20 ms, on a machine that may be busy

        var trend = WebUtility.HtmlDecode(await client.GetStringAsync($"/benchmarks/{benchmark.Id}/trend"));
        Assert.Contains($"⚠ Slower since <a href=\"/runs/{first}\">#{first}</a>", trend);
        Assert.Matches("<td title=\"⚠ regression: (median|p95|p99)", trend);
        Assert.Contains("⚠ regression confirmed", trend);
        Assert.Contains($"Compare the {before.Count} runs before with the {runs.Count(r => r >= first && r <= confirming)} after", trend);
        Assert.Single(Regex.Matches(WebUtility.HtmlDecode(await client.GetStringAsync("/")), "⚠ regression<"));
        Assert.Contains("confirmed by run", WebUtility.HtmlDecode(await client.GetStringAsync($"/runs/{confirming}")));

        // The same benchmark pointed elsewhere: its next run starts a history of its own, and is no change.
        benchmark = await SaveAsync(app, target.Url("/deployed?key=elsewhere&ms=8").ToString(), benchmark);
        var moved = await RunToEndAsync(app, client, benchmark);
        var parameters = (await client.GetFromJsonAsync<JsonElement>($"/api/runs/{moved}")).GetProperty("regression");
        Assert.True(parameters.GetProperty("parameterChange").GetBoolean());
        Assert.False(parameters.GetProperty("flagged").GetBoolean());
        Assert.Equal([moved], (await client.GetFromJsonAsync<JsonElement>($"/api/benchmarks/{benchmark.Id}/changes")).GetProperty("parameterChanges").EnumerateArray().Select(r => r.GetInt64()));
    }

    [Fact]
    public async Task TheChangesOfAnUnknownBenchmarkAreNotFoundAndABadTakeIsAFieldError()
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient();
        Assert.Equal(HttpStatusCode.NotFound, (await client.GetAsync("/api/benchmarks/9999/changes")).StatusCode);
        var bad = await client.GetAsync("/api/benchmarks/9999/changes?take=0");
        Assert.Equal(HttpStatusCode.BadRequest, bad.StatusCode);
        Assert.Contains("take", await bad.Content.ReadAsStringAsync());
    }

    /// <summary>The one run among <paramref name="runs"/> that confirmed a regression (flagged).</summary>
    public static async Task<long> ConfirmingRunAsync(HttpClient client, IReadOnlyList<long> runs)
    {
        var flagged = new List<long>();
        var said = new List<string>();
        foreach (var id in runs)
        {
            var history = (await client.GetFromJsonAsync<JsonElement>($"/api/runs/{id}")).GetProperty("regression");
            if (history.GetProperty("flagged").GetBoolean()) flagged.Add(id);
            said.Add($"{id}: {history.GetProperty("summary").GetString()}");
        }
        Assert.True(flagged.Count == 1, string.Join("\n", said));
        return flagged[0];
    }

    static async Task<Benchmark> SaveAsync(DashboardFactory app, string url, Benchmark? existing = null)
    {
        await using var scope = app.Services.CreateAsyncScope();
        var (saved, errors) = await scope.ServiceProvider.GetRequiredService<BenchmarkStore>().SaveAsync(
            existing?.Id, "deployed target", new HttpParameters { Url = url, Requests = 20, TimeoutMs = 2000 }, null, true, default);
        Assert.True(saved is not null, string.Join("; ", errors.SelectMany(e => e.Value)));
        return saved!;
    }

    static async Task<long> RunToEndAsync(DashboardFactory app, HttpClient client, Benchmark benchmark)
    {
        await using var scope = app.Services.CreateAsyncScope();
        var id = (await scope.ServiceProvider.GetRequiredService<RunQueue>().EnqueueAsync(benchmark, default)).Run!.Id;
        await DashboardFactory.WaitForEndAsync(client, id);
        return id;
    }
}
