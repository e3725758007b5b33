using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Kinds.Http.Journeys;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;
using BenchDashboard.TestSupport;

namespace BenchDashboard.Runner.Tests.Http;

/// <summary>Journeys (steps) against the target's sign-in → token → list → detail, in its own process.</summary>
public sealed class JourneyTests
{
    static HttpStep SignIn(KestrelTarget target, string password = "secret", string query = "") => new()
    {
        Name = "signin",
        Method = "POST",
        Url = target.Url("/journey/signin" + query).ToString(),
        Headers = new() { ["Content-Type"] = "application/json" },
        Body = $$"""{"user":"u{{"{{connection}}"}}","password":"{{password}}"}""",
        Extract = [new() { Name = "token", Json = "$.token" }, new() { Name = "session", Header = "X-Session" }, new() { Name = "next", Json = "$.next" }],
        Checks = [new() { Status = 200 }],
    };

    static HttpStep Orders(KestrelTarget target, string token = "{{token}}", string query = "") => new()
    {
        Name = "orders",
        Url = target.Url("/journey/orders" + query).ToString(),
        Headers = new() { ["Authorization"] = $"Bearer {token}" },
        Extract = [new() { Name = "first", Json = "$.items[0].id" }],
        Checks = [new() { Status = 200 }, new() { Json = "$.items", Exists = true }],
    };

    static HttpStep Detail(KestrelTarget target, string query = "") => new()
    {
        Name = "detail",
        Url = target.Url("/journey/orders/{{first}}" + query).ToString().Replace("%7B%7Bfirst%7D%7D", "{{first}}"),
        Headers = new() { ["Authorization"] = "Bearer {{token}}" },
        Checks = [new() { Json = "$.status", EqualTo = "shipped" }],
    };

    static async Task<long> ServedAsync(KestrelTarget target)
    {
        using var client = new HttpClient();
        return long.Parse(await client.GetStringAsync(target.Url("/journey/served")));
    }

    static List<Sample> Of(List<Sample> samples, string series) => samples.Where(s => s.Series == series && !s.IsWarmup).ToList();

    [Fact]
    public async Task ValuesFlowFromSignInThroughTheTokenToTheDetail()
    {
        await using var target = await KestrelTarget.StartAsync();
        var p = new HttpParameters { Steps = [SignIn(target), Orders(target), Detail(target)], Requests = 20, Concurrency = 2, WarmupRequests = 2 };
        Assert.Empty(HttpParametersValidator.Validate(p, new RunLimits()));

        var (samples, _, notes) = await HttpRun.ExecuteWithNotesAsync(p);

        foreach (var series in new[] { "signin", "orders", "detail", "iteration" })
        {
            var s = Of(samples, series);
            Assert.Equal(20, s.Count);
            Assert.All(s, x => Assert.Equal(ErrorKind.None, x.Error));
        }
        Assert.Equal(2 * 4, samples.Count(s => s.IsWarmup));
        Assert.Equal(samples.Count, samples.Select(s => s.Index).Distinct().Count());
        Assert.All(Of(samples, "detail"), s => Assert.Equal(200, s.StatusCode));
        Assert.All(Of(samples, "iteration"), s => { Assert.Equal(0, s.Bytes); Assert.Null(s.StatusCode); });
        Assert.All(Of(samples, "orders"), s => Assert.True(s.Bytes > 50));
        // Every request accounted for: what the server saw is what was recorded.
        Assert.Equal(3 * 22, await ServedAsync(target));
        // An iteration takes its steps' time and a little more (its own bookkeeping), never less.
        Assert.All(Of(samples, "iteration"), it =>
        {
            var own = samples.Where(s => s.Series != "iteration" && s.Connection == it.Connection && s.OffsetNs >= it.OffsetNs && s.OffsetNs < it.OffsetNs + it.LatencyNs).ToList();
            Assert.Equal(3, own.Count);
            Assert.True(it.LatencyNs >= own.Sum(s => s.LatencyNs), $"iteration {it.LatencyNs} ns < steps {own.Sum(s => s.LatencyNs)} ns");
        });
        Assert.Empty(notes.ErrorMessages);
    }

    [Fact]
    public async Task ABadTokenFailsTheOrdersCheckAndEndsTheIterationThereWithItsLatencyKept()
    {
        await using var target = await KestrelTarget.StartAsync();
        var p = new HttpParameters { Steps = [SignIn(target), Orders(target, token: "{{token}}x"), Detail(target)], Requests = 10, Concurrency = 1 };

        var (samples, stats, notes) = await HttpRun.ExecuteWithNotesAsync(p);

        Assert.Equal(10, Of(samples, "signin").Count(s => s.Error == ErrorKind.None));
        var orders = Of(samples, "orders");
        Assert.Equal(10, orders.Count);
        Assert.All(orders, s => { Assert.Equal(ErrorKind.CheckFailed, s.Error); Assert.Equal(401, s.StatusCode); Assert.True(s.LatencyNs > 0); });
        Assert.Empty(Of(samples, "detail"));
        Assert.All(Of(samples, "iteration"), s => Assert.Equal(ErrorKind.CheckFailed, s.Error));
        Assert.Contains(notes.ErrorMessages, e => e.Kind == ErrorKind.CheckFailed && e.Message.Contains("check failed: orders: status 401, expected 200"));
        Assert.Equal(20, await ServedAsync(target));

        var table = JourneyTable.From(p, SeriesStatistics.From(samples))!;
        Assert.Equal(["signin", "orders", "detail", "iteration"], table.Rows.Select(r => r.Step));
        Assert.Equal(10, table.Rows[1].FailedChecks);
        Assert.Equal(0, table.Rows[2].Count);
        Assert.True(table.Rows[0].Share + table.Rows[1].Share is > 0.5 and <= 1.0);
    }

    [Fact]
    public async Task AScriptedUnauthorizedPassesItsStatusCheckAndAMissingValueFailsTheStep()
    {
        await using var target = await KestrelTarget.StartAsync();
        var denied = Orders(target, token: "nobody") with { Name = "denied", Checks = [new() { Status = 401 }], Extract = null };
        var missing = Orders(target) with { Name = "missing", Extract = [new() { Name = "nothing", Json = "$.items[5].id" }], Checks = null };
        var p = new HttpParameters { Steps = [SignIn(target), denied, missing], Requests = 5, Concurrency = 1 };

        var (samples, _, notes) = await HttpRun.ExecuteWithNotesAsync(p);

        Assert.Equal(5, Of(samples, "denied").Count);
        Assert.All(Of(samples, "denied"), s => { Assert.Equal(ErrorKind.None, s.Error); Assert.Equal(401, s.StatusCode); });
        Assert.All(Of(samples, "missing"), s => Assert.Equal(ErrorKind.CheckFailed, s.Error));
        Assert.Equal(5, Of(samples, "missing").Count);
        Assert.Contains(notes.ErrorMessages, e => e.Message.Contains("nothing: nothing to extract ($.items[5].id)"));
    }

    [Fact]
    public async Task ThinkTimeIsNeverPartOfAStepsOrTheIterationsLatency()
    {
        await using var target = await KestrelTarget.StartAsync();
        var think = new HttpThinkTime { Ms = 150 };
        var p = new HttpParameters
        {
            Steps = [SignIn(target, query: "?ms=20") with { ThinkTime = think }, Orders(target, query: "?ms=20") with { ThinkTime = think }, Detail(target, query: "?ms=20")],
            Requests = 5, Concurrency = 1, WarmupRequests = 1, // the first, cold sign-in (JIT on both sides) takes 100 ms more
        };

        var (samples, _, _) = await HttpRun.ExecuteWithNotesAsync(p);

        var iterations = Of(samples, "iteration");
        Assert.Equal(5, iterations.Count);
        foreach (var step in new[] { "signin", "orders", "detail" })
            Assert.All(Of(samples, step), s => Assert.InRange(s.LatencyNs / 1e6, 20, 60));
        // Three 20 ms steps: about 60 ms, where two pauses of 150 ms would make it 360 ms.
        Assert.All(iterations, s => Assert.InRange(s.LatencyNs / 1e6, 60, 150));
        // The pauses happened: consecutive iterations start at least the steps and two pauses apart.
        var starts = iterations.Select(s => s.OffsetNs).Order().ToList();
        Assert.All(starts.Zip(starts.Skip(1)), pair => Assert.True((pair.Second - pair.First) / 1e6 >= 360, $"{(pair.Second - pair.First) / 1e6} ms apart"));
    }

    [Fact]
    public async Task TheOpenModelsRateIsIterationsPerSecond()
    {
        await using var target = await KestrelTarget.StartAsync();
        var p = new HttpParameters { Steps = [SignIn(target), Orders(target)], Model = LoadModel.Open, Rate = 40, Requests = 60, Concurrency = 4 };

        var (samples, _, _) = await HttpRun.ExecuteWithNotesAsync(p);

        var iterations = Of(samples, "iteration");
        Assert.Equal(60, iterations.Count);
        Assert.Equal(60, Of(samples, "signin").Count);
        Assert.Equal(60, Of(samples, "orders").Count);
        Assert.All(iterations, s => Assert.NotNull(s.LagNs));
        // 60 iterations at 40 a second are due over 1.475 s (the first at 0): due times, not sends.
        var span = (iterations.Max(s => s.OffsetNs) - iterations.Min(s => s.OffsetNs)) / 1e9;
        Assert.InRange(span, 1.45, 1.50);
        Assert.Equal(120, await ServedAsync(target));
    }

    [Fact]
    public async Task AnExtractedUrlThePolicyRefusesIsAnErrorSampleAndNeverARequest()
    {
        await using var target = await KestrelTarget.StartAsync();
        var follow = new HttpStep { Name = "follow", Url = "{{next}}" };
        var p = new HttpParameters { Steps = [SignIn(target, query: "?next=http://169.254.169.254/latest/meta-data"), follow], Requests = 4, Concurrency = 1 };
        Assert.Empty(HttpParametersValidator.Validate(p, new RunLimits()));

        var (samples, _, notes) = await HttpRun.ExecuteWithNotesAsync(p);

        var refused = Of(samples, "follow");
        Assert.Equal(4, refused.Count);
        Assert.All(refused, s => { Assert.Equal(ErrorKind.TargetRefused, s.Error); Assert.Null(s.StatusCode); Assert.Equal(0, s.LatencyNs); });
        Assert.All(Of(samples, "iteration"), s => Assert.Equal(ErrorKind.TargetRefused, s.Error));
        Assert.Contains(notes.ErrorMessages, e => e.Kind == ErrorKind.TargetRefused && e.Message.Contains("169.254.169.254"));
        Assert.Equal(4, await ServedAsync(target)); // the sign-ins only
    }

    [Fact]
    public async Task VariantsThatReplaceTheStepsTakeTurnsEachWithItsOwnSeries()
    {
        await using var target = await KestrelTarget.StartAsync();
        var p = new HttpParameters
        {
            Steps = [SignIn(target), Orders(target)],
            Variants = [new() { Name = "A" }, new() { Name = "B", Steps = [SignIn(target), Orders(target), Detail(target)] }],
            Requests = 6, Concurrency = 2,
        };
        Assert.Empty(HttpParametersValidator.Validate(p, new RunLimits()));

        var (samples, _, notes) = await HttpRun.ExecuteWithNotesAsync(p);

        Assert.Empty(notes.ErrorMessages);
        foreach (var series in new[] { "A/signin", "A/orders", "A/iteration", "B/signin", "B/orders", "B/detail", "B/iteration" })
            Assert.Equal(6, Of(samples, series).Count);
        Assert.Equal(samples.Count, Of(samples, "A/iteration").Count * 3 + Of(samples, "B/iteration").Count * 4);
        Assert.Equal(6 * 2 + 6 * 3, await ServedAsync(target));
    }

    [Fact]
    public async Task AnExtractedValueWithALineBreakIsNeverSentInAHeader()
    {
        await using var target = await KestrelTarget.StartAsync();
        var signIn = SignIn(target) with { Body = """{"user":"a\r\nHost: elsewhere","password":"secret"}""" };
        var orders = Orders(target) with { Extract = [new() { Name = "user", Json = "$.user" }] };
        var echo = new HttpStep { Name = "echo", Url = target.Url("/journey/orders").ToString(), Headers = new() { ["X-User"] = "{{user}}" } };
        var p = new HttpParameters { Steps = [signIn, orders, echo], Requests = 3, Concurrency = 1 };

        var (samples, _, notes) = await HttpRun.ExecuteWithNotesAsync(p);

        Assert.Equal(3, Of(samples, "orders").Count(s => s.Error == ErrorKind.None));
        Assert.Equal(3, Of(samples, "echo").Count);
        Assert.All(Of(samples, "echo"), s => { Assert.Equal(ErrorKind.Other, s.Error); Assert.Null(s.StatusCode); });
        Assert.Contains(notes.ErrorMessages, e => e.Message.Contains("X-User would contain a line break"));
        Assert.Equal(6, await ServedAsync(target));
    }
}
