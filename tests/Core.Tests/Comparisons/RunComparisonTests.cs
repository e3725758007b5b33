using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Comparisons;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;
using BenchDashboard.Core.Benchmarks.Http;

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
    }

    [Fact]
    public void SeedZerosTableAndAVerdictForEachItem()
    {
        // Seed 000: Dynamic Cache 2 ran at 72–75 % of the baseline's time.
        var comparison = RunComparison.Build([Item(1, "0"), Item(2, "1", latencyMs: 7.5), Item(3, "2", latencyMs: 7.3)], "1");

        Assert.Equal(["1", "2", "3"], comparison.Rows.Select(r => r.Name));
        Assert.InRange(comparison.Rows[1].PercentOfBaseline[ComparedMetric.Mean]!.Value, 70, 80);
        Assert.Equal(4, comparison.Verdicts.Count); // median and p95 for each non-baseline item
        var median = comparison.Verdicts.Single(v => v.ItemKey == "2" && v.Metric == "median");
        Assert.True(median.Change.IsSignificant);
        Assert.InRange(median.Change.Change, median.Change.Lower, median.Change.Upper);
        Assert.Matches(@"^1\.[23]\d× faster \(95 % CI 1\.\d\d× to 1\.\d\d×\)$", median.Text); // 7.5 of 10 ms: 1.33× faster
    }

    [Fact]
    public void AVerdictWithoutSignificanceSaysSo()
    {
        var text = Verdicts.Describe(new QuantileChange(500, 100, 101, 0.01, -0.012, 0.031, 0.95, 2000, 1));
        Assert.Equal("no significant difference (95 % CI 0.99× to 1.03×)", text);
        Assert.Equal("1.05× slower (95 % CI 1.02× to 1.08×)", Verdicts.Describe(new QuantileChange(500, 100, 105, 0.05, 0.02, 0.08, 0.95, 2000, 1)));
        Assert.Equal("26.0× slower (95 % CI 25.0× to 27.0×)", Verdicts.Describe(new QuantileChange(500, 100, 2600, 25, 24, 26, 0.95, 2000, 1)));
        // A discrete percentile's point estimate can sit just outside its interval: the word follows the interval.
        Assert.Equal("1.01× faster (95 % CI 1.01× to 1.03×)", Verdicts.Describe(new QuantileChange(500, 100, 100, 0, -0.03, -0.01, 0.95, 2000, 1)));
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
