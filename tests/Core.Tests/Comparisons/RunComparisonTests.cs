using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Comparisons;
using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Tests.Comparisons;

public class RunComparisonTests
{
    static ComparedItem Item(long id, string dynamicCache, int concurrency = 1, double latencyMs = 10, string machine = "web-1", long uptimeMs = 600_000)
    {
        var environment = new EnvironmentSnapshot
        {
            MachineName = machine, OsDescription = "Linux", DotnetVersion = ".NET 10.0.0", ProcessorCount = 2, ProcessUptimeMs = uptimeMs + id,
            PlatformVariables = new(StringComparer.Ordinal) { ["WEBSITE_DYNAMIC_CACHE"] = dynamicCache, ["WEBSITE_SKU"] = "Standard" },
        };
        var run = new Run
        {
            Id = id, Kind = HttpKind.KindName, Status = RunStatus.Completed,
            ParametersJson = Json.Serialize(new HttpParameters { Url = "http://127.0.0.1/index.php", Requests = 50, Concurrency = concurrency }),
            EnvironmentJson = Json.Serialize(environment),
        };
        var random = new Random((int)id);
        var samples = Enumerable.Range(0, 50).Select(i => new Sample
        {
            RunId = id, Index = i, OffsetNs = i * 20_000_000L, LatencyNs = (long)(latencyMs * 1e6 * (0.9 + 0.2 * random.NextDouble())),
        }).ToList();
        var ranked = samples.Select(s => s.LatencyNs).ToArray();
        var sorted = ranked.Order().ToArray();
        return new ComparedItem(id.ToString(), $"#{id}", run, null, RunStatistics.From(samples), sorted, LatencyShape.From(ranked, sorted));
    }

    [Fact]
    public void RunsThatDifferInOneEnvironmentFieldListExactlyThatField()
    {
        var comparison = RunComparison.Build([Item(1, "0"), Item(2, "2", latencyMs: 7.5)], "1");

        var difference = Assert.Single(comparison.Differences);
        Assert.Equal("environment.WEBSITE_DYNAMIC_CACHE", difference.Field);
        Assert.Equal(["0", "2"], difference.Values);
        Assert.Empty(comparison.Warnings);
    }

    [Fact]
    public void MoreThanOneDifferenceAndAnotherMachineAreWarnedAbout()
    {
        var comparison = RunComparison.Build([Item(1, "0"), Item(2, "2", concurrency: 4, machine: "web-2")], "1");

        Assert.Equal(["environment.WEBSITE_DYNAMIC_CACHE", "environment.machineName", "parameters.concurrency"], comparison.Differences.Select(d => d.Field));
        Assert.Contains(comparison.Warnings, w => w.Contains("did not run on the same platform (environment.machineName)", StringComparison.Ordinal));
        Assert.Contains(comparison.Warnings, w => w.StartsWith("More than one thing differs", StringComparison.Ordinal));
    }

    [Fact]
    public void ARunOfAYoungProcessIsWarnedAboutAndItsAgeIsNotADifference()
    {
        var comparison = RunComparison.Build([Item(1, "0", uptimeMs: 2_000), Item(2, "0")], "1");

        Assert.Empty(comparison.Differences);
        Assert.Contains(comparison.Warnings, w => w.StartsWith("Started soon after its runner process did: #1 (2.0 s)", StringComparison.Ordinal));

        // Variants of one run took turns in the same young process: not warned about.
        var young = Item(1, "0", uptimeMs: 2_000);
        var variants = RunComparison.Build([young with { Key = "1/A", Series = "A" }, young with { Key = "1/B", Series = "B" }], "1/A");
        Assert.DoesNotContain(variants.Warnings, w => w.StartsWith("Started soon", StringComparison.Ordinal));
    }

    [Fact]
    public void SeedZerosTableAndAVerdictForEachItem()
    {
        // Seed 000: Dynamic Cache 2 ran at 72–75 % of the baseline's time. Identical earlier runs of each setting
        // landed within ~1 % of each other, so a 25 % difference is beyond run-to-run variation.
        IReadOnlyDictionary<int, IReadOnlyList<double>> History(double ms) => new Dictionary<int, IReadOnlyList<double>>
        {
            [500] = [ms * 1e6 * 0.995, ms * 1e6, ms * 1e6 * 1.005, ms * 1e6 * 1.01],
            [950] = [ms * 1.1e6 * 0.995, ms * 1.1e6, ms * 1.1e6 * 1.005, ms * 1.1e6 * 1.01],
        };
        var comparison = RunComparison.Build([Item(1, "0") with { History = History(10) }, Item(2, "1", latencyMs: 7.5) with { History = History(7.5) }, Item(3, "2", latencyMs: 7.3)], "1");

        Assert.Equal(["1", "2", "3"], comparison.Rows.Select(r => r.Name));
        Assert.InRange(comparison.Rows[1].PercentOfBaseline[ComparedMetric.Mean]!.Value, 70, 80);
        Assert.Equal(6, comparison.Verdicts.Count); // median, p95 and p99 for each non-baseline item
        var median = comparison.Verdicts.Single(v => v.ItemKey == "2" && v.Metric == "median");
        Assert.Equal((NoiseModel.RunHistory, VerdictCall.Faster), (median.Noise, median.Call));
        Assert.InRange(median.Change.Change, median.Change.Lower, median.Change.Upper);
        Assert.Matches(@"^1\.[23]\d× faster \(95 % CI 1\.\d\d× to 1\.\d\d×\)$", median.Text); // 7.5 of 10 ms: 1.33× faster
        Assert.Contains("earlier identical runs", median.Explanation);
        // Item 3 has no history of its own, but the baseline's tells how far apart identical runs land.
        Assert.Equal(NoiseModel.RunHistory, comparison.Verdicts.Single(v => v.ItemKey == "3" && v.Metric == "median").Noise);
    }

    [Fact]
    public void OneRunASideWithoutHistoryCallsNothingHoweverNarrowTheRequestsInterval()
    {
        var comparison = RunComparison.Build([Item(1, "0"), Item(2, "0", latencyMs: 7.5)], "1");

        var median = comparison.Verdicts.Single(v => v.ItemKey == "2" && v.Metric == "median");
        Assert.Equal((NoiseModel.RequestsOnly, VerdictCall.CannotTell), (median.Noise, median.Call));
        Assert.True(median.RequestsOnly!.IsSignificant); // the requests alone would have called it
        Assert.StartsWith("cannot tell from one run a side (requests alone: 1.", median.Text);
        Assert.Contains("no difference is called", median.Explanation);
    }

    [Fact]
    public void AHistoryWidensTheIntervalToTheSpreadOfIdenticalRuns()
    {
        // Identical runs whose medians spread by ~5 %: a 3 % difference between two single runs is within chance.
        var history = new Dictionary<int, IReadOnlyList<double>> { [500] = [9.5e6, 10e6, 10.5e6, 10.2e6, 9.7e6], [950] = [10.5e6, 11e6, 11.5e6, 11.2e6, 10.7e6] };
        var comparison = RunComparison.Build([Item(1, "0") with { History = history }, Item(2, "0", latencyMs: 10.3) with { History = history }], "1");

        var median = comparison.Verdicts.Single(v => v.ItemKey == "2" && v.Metric == "median");
        Assert.Equal((NoiseModel.RunHistory, VerdictCall.NoClearDifference), (median.Noise, median.Call));
        Assert.True(median.Change.Lower < median.RequestsOnly!.Lower && median.Change.Upper > median.RequestsOnly.Upper);
    }

    [Fact]
    public void VerdictsSayWhatTheirIntervalAllows()
    {
        QuantileChange C(double change, double lower, double upper) => new(500, 100, 100, change, lower, upper, 0.95, 2000, 1);
        string Say(QuantileChange c, NoiseModel noise = NoiseModel.Interleaved) => Verdicts.Describe(c, Verdicts.Call(c, noise, 0.02), 0.02);

        Assert.Equal("equivalent within ±2 % (95 % CI 0.99× to 1.01×)", Say(C(0.007, -0.006, 0.01))); // significant, yet inside the margin
        Assert.Equal("no clear difference (95 % CI 0.99× to 1.03×)", Say(C(0.01, -0.012, 0.031)));
        Assert.Equal("1.05× slower (95 % CI 1.02× to 1.08×)", Say(C(0.05, 0.02, 0.08)));
        Assert.Equal("26.0× slower (95 % CI 25.0× to 27.0×)", Say(C(25, 24, 26)));
        // A discrete percentile's point estimate can sit just outside its interval: the word follows the interval, the
        // ratio stays the estimate, the figure the compare table shows beside it.
        Assert.Equal("1.00× faster (95 % CI 1.01× to 1.03×)", Say(C(0, -0.03, -0.01)));
        Assert.Equal(VerdictCall.CannotTell, Verdicts.Call(C(0.05, 0.02, 0.08), NoiseModel.RequestsOnly, 0.02));
        Assert.Equal(VerdictCall.Slower, Verdicts.Call(C(0.05, 0.02, 0.08), NoiseModel.RunGroups, 0.02));
    }

    [Fact]
    public void GroupsOfSeparateRunsAreComparedRunByRun()
    {
        var a = new[] { Item(1, "0"), Item(3, "0", latencyMs: 10.4), Item(5, "0", latencyMs: 9.8) };
        var b = new[] { Item(2, "0", latencyMs: 12), Item(4, "0", latencyMs: 12.3), Item(6, "0", latencyMs: 11.8) };
        ComparedItem Group(string key, ComparedItem[] runs) => runs[0] with
        {
            Key = key, RunLatencies = runs.Select(r => r.SortedLatencies).ToList(), GroupRuns = runs.Select(r => r.Run).ToList(),
            SortedLatencies = runs.SelectMany(r => r.SortedLatencies).Order().ToArray(),
        };

        var comparison = RunComparison.Build([Group("1+3+5", a), Group("2+4+6", b)], "1+3+5");

        var median = comparison.Verdicts.Single(v => v.Metric == "median");
        Assert.Equal((NoiseModel.RunGroups, VerdictCall.Slower), (median.Noise, median.Call));
        Assert.Equal((3, 3), median.Change.Runs);
        Assert.InRange(median.Change.Change, 0.15, 0.25); // 12.03 vs 10.07 ms on average
    }

    [Fact]
    public void EachRowsRatioIsItsVerdictsEstimateForGroupsAndSingleRunsAlike()
    {
        var a = new[] { Item(1, "0"), Item(3, "0", latencyMs: 10.4), Item(5, "0", latencyMs: 9.8) };
        var b = new[] { Item(2, "0", latencyMs: 40), Item(4, "0", latencyMs: 44), Item(6, "0", latencyMs: 38) };
        ComparedItem Group(string key, ComparedItem[] runs) => runs[0] with
        {
            Key = key, RunLatencies = runs.Select(r => r.SortedLatencies).ToList(), GroupRuns = runs.Select(r => r.Run).ToList(),
            SortedLatencies = runs.SelectMany(r => r.SortedLatencies).Order().ToArray(),
        };
        var single = Item(7, "0", latencyMs: 20);

        var comparison = RunComparison.Build([Group("1+3+5", a), Group("2+4+6", b), single], "1+3+5");

        foreach (var (item, row) in comparison.Items.Zip(comparison.Rows).Where(p => !p.Second.IsBaseline))
            foreach (var (metric, name) in new[] { (ComparedMetric.Median, "median"), (ComparedMetric.P95, "p95"), (ComparedMetric.P99, "p99") })
            {
                var verdict = comparison.Verdicts.Single(v => v.ItemKey == item.Key && v.Metric == name);
                Assert.Equal(1 + verdict.Change.Change, row.PercentOfBaseline[metric]!.Value / 100, 12);
                Assert.True(verdict.Change.Change > 0, $"{item.Key} {name}"); // slower, as the table says
            }
    }

    [Theory]
    [InlineData("12", 12L, null)]
    [InlineData("12/read-miss", 12L, "read-miss")]
    public void ItemKeysNameARunOrOneOfItsSeries(string key, long run, string? series)
    {
        Assert.True(ComparedItem.TryParseKey(key, out var id, out var s));
        Assert.Equal((run, series), (id, s));
    }

    [Theory]
    [InlineData("x")]
    [InlineData("0")]
    [InlineData("12/")]
    public void OtherKeysAreRefused(string key) => Assert.False(ComparedItem.TryParseKey(key, out _, out _));
}
