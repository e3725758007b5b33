using BenchDashboard.Core.Agents;
using BenchDashboard.Core.Comparisons;
using BenchDashboard.Core.Reports;
using BenchDashboard.Core.Reports.Configurations;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Tests.Reports;

/// <summary>A run on each of several configurations: a row per configuration, each figure against the first's, the settings each recorded.</summary>
public class ConfigurationAnswerTests
{
    const long Ms = 1_000_000;

    /// <summary>
    /// Configurations that took turns as the on-each executor has them: in each round every configuration runs the whole
    /// workload alone, the leader rotating. A turn's latencies are 1..100 ms in a shuffled order times the configuration's
    /// factor, so its percentiles and mean are known exactly (nearest rank over the pooled turns: p50 = 50 ms, p90 = 90 ms,
    /// p99 = 99 ms, mean 50.5 ms for a factor of 1).
    /// </summary>
    public static List<Sample> TookTurns(string? phase, params (string Agent, double Factor)[] configurations) => TookTurns(phase, 3, configurations);

    public static List<Sample> TookTurns(string? phase, int rounds, params (string Agent, double Factor)[] configurations)
    {
        var random = new Random(1);
        var samples = new List<Sample>();
        long offset = 0;
        for (var round = 0; round < rounds; round++)
            for (var turn = 0; turn < configurations.Length; turn++)
            {
                var (agent, factor) = configurations[(round + turn) % configurations.Length];
                var order = Enumerable.Range(1, 100).ToArray();
                random.Shuffle(order);
                foreach (var ms in order)
                {
                    var latency = (long)(ms * Ms * factor);
                    samples.Add(new Sample { Index = samples.Count, OffsetNs = offset, LatencyNs = latency, Series = OnEach.SeriesOf(agent, phase), StatusCode = 200 });
                    offset += latency;
                }
            }
        return samples;
    }

    static IReadOnlyList<ConfigurationFigures> Figures(OnEach onEach, List<Sample> samples) =>
        ConfigurationFigures.From(onEach, SeriesStatistics.From(samples), samples);

    static EnvironmentSnapshot Environment(params (string Name, string Value)[] variables) => new()
    {
        MachineName = "host", OsDescription = "Linux", DotnetVersion = ".NET 10", ProcessorCount = 2,
        PlatformVariables = new SortedDictionary<string, string>(variables.ToDictionary(v => v.Name, v => v.Value), StringComparer.Ordinal),
    };

    static AgentShardRow Row(int shard, string agent, ShardStatus status, EnvironmentSnapshot? environment, string? reason = null) =>
        new(shard, agent, environment is null ? null : "host", 1, status, reason, null, null, 100, environment);

    [Fact]
    public void EachConfigurationIsAPercentageOfTheFirstWithItsVerdict()
    {
        var onEach = new OnEach(["cfg0", "cfg1", "cfg2"]);
        var figures = Figures(onEach, TookTurns(null, ("cfg0", 1), ("cfg1", 0.5), ("cfg2", 1)));

        Assert.Equal(["cfg0", "cfg1", "cfg2"], figures.Select(f => f.Agent));
        var (cfg0, cfg1, cfg2) = (figures[0], figures[1], figures[2]);
        Assert.True(cfg0.IsBaseline);
        Assert.Equal((300, 0), (cfg0.Count, cfg0.Errors));
        Assert.Equal((50.5 * Ms, 50 * Ms, 90 * Ms, 99 * Ms), (cfg0.Mean.Ns, cfg0.P50.Ns, cfg0.P90.Ns, cfg0.P99.Ns));
        Assert.Equal((25 * Ms, 45 * Ms, 49.5 * Ms), (cfg1.P50.Ns, cfg1.P90.Ns, cfg1.P99.Ns));
        Assert.All(new[] { cfg1.Mean, cfg1.P50, cfg1.P90, cfg1.P99 }, f => Assert.Equal(50.0, f.PercentOfBaseline!.Value, 9));
        Assert.All(new[] { cfg1.P50, cfg1.P90, cfg1.P99 }, f => Assert.Equal(VerdictCall.Faster, f.Call));
        // The same as the baseline: 100 %, and the spread of three turns a side cannot tell it from a few percent either way.
        Assert.All(new[] { cfg2.P50, cfg2.P90, cfg2.P99 }, f => Assert.Equal((100.0, VerdictCall.NoClearDifference), (f.PercentOfBaseline!.Value, f.Call)));
        Assert.Null(cfg1.Mean.Call); // the mean is shown as a percentage, never judged
        Assert.Null(cfg0.P50.PercentOfBaseline);

        var rows = new[] { Row(0, "cfg0", ShardStatus.Done, Environment()), Row(1, "cfg1", ShardStatus.Done, Environment()), Row(2, "cfg2", ShardStatus.Done, Environment()) };
        var table = Assert.Single(ConfigurationAnswer.Of(onEach, rows, figures));
        Assert.Equal(["Configuration", "Settings recorded", "Count", "Errors", "Mean", "p50", "p90", "p99", "Status"], table.Columns);
        Assert.Equal(["cfg0", "same as the others", "300", "0", "50.500 (baseline)", "50.000 (baseline)", "90.000 (baseline)", "99.000 (baseline)", "done"], table.Rows[0]);
        Assert.Equal(["cfg1", "same as the others", "300", "0", "25.250 (50.0 %)", "25.000 (50.0 %, 2.00× faster)", "45.000 (50.0 %, 2.00× faster)", "49.500 (50.0 %, 2.00× faster)", "done"], table.Rows[1]);
        Assert.Equal("50.000 (100.0 %, no clear difference)", table.Rows[2][5]);
        Assert.Equal("Each configuration (ms), against cfg0", table.Title);
    }

    [Fact]
    public void AConfigurationThatNeverJoinedIsARowSayingWhy()
    {
        var onEach = new OnEach(["cfg0", "cfg1", "cfg2"]);
        var figures = Figures(onEach, TookTurns(null, ("cfg0", 1), ("cfg1", 2)));
        var rows = new[]
        {
            Row(0, "cfg0", ShardStatus.Done, Environment(("WEBSITE_DYNAMIC_CACHE", "0"), ("REGION_NAME", "japaneast"))),
            Row(1, "cfg1", ShardStatus.Done, Environment(("WEBSITE_DYNAMIC_CACHE", "1"), ("REGION_NAME", "japaneast"))),
            Row(2, "cfg2", ShardStatus.Failed, null, "did not join within 15 s"),
        };

        var table = Assert.Single(ConfigurationAnswer.Of(onEach, rows, figures));

        Assert.Equal(["cfg0", "cfg1", "cfg2"], table.Rows.Select(r => r[0]));
        Assert.Equal(["cfg2", "–", "–", "–", "–", "–", "–", "–", "failed: did not join within 15 s"], table.Rows[2]);
        // Only the setting that differs, as each agent recorded it: the shared region says nothing about the difference.
        Assert.Equal("WEBSITE_DYNAMIC_CACHE=0", table.Rows[0][1]);
        Assert.Equal("WEBSITE_DYNAMIC_CACHE=1", table.Rows[1][1]);
        Assert.Equal("100.000 (200.0 %, 2.00× slower)", table.Rows[1][5]);
    }

    [Fact]
    public void WithoutTheBaselineNoFigureIsAPercentageAndEveryConfigurationIsStillARow()
    {
        var onEach = new OnEach(["cfg0", "cfg1"]);
        var figures = Figures(onEach, TookTurns(null, ("cfg1", 1)));

        var table = Assert.Single(ConfigurationAnswer.Of(onEach, [Row(0, "cfg0", ShardStatus.Lost, Environment(), "its link ended"), Row(1, "cfg1", ShardStatus.Done, Environment())], figures));

        Assert.Equal("lost: its link ended", table.Rows[0][^1]);
        Assert.Equal("50.000", table.Rows[1][5]); // no baseline to be a percentage of
        Assert.All(ConfigurationAnswer.Of(onEach, [], []).Single().Rows, r => Assert.Equal("never started", r[^1])); // nothing recorded at all
    }

    [Fact]
    public void APhaseIsComparedOnlyWithTheSamePhaseOfTheFirstConfiguration()
    {
        var onEach = new OnEach(["cfg0", "cfg1"]);
        // create is a hundred times slower than delete everywhere; cfg1 is 3× slower at creating and as quick at deleting.
        var samples = TookTurns("create", ("cfg0", 100), ("cfg1", 300));
        var (firstIndex, firstOffset) = (samples.Count, samples[^1].OffsetNs + samples[^1].LatencyNs);
        foreach (var s in TookTurns("delete", ("cfg0", 1), ("cfg1", 1))) { s.Index += firstIndex; s.OffsetNs += firstOffset; samples.Add(s); }

        var tables = ConfigurationAnswer.Of(onEach, [Row(0, "cfg0", ShardStatus.Done, Environment()), Row(1, "cfg1", ShardStatus.Done, Environment())], Figures(onEach, samples));

        Assert.Equal(["Each configuration, create (ms), against cfg0", "Each configuration, delete (ms), against cfg0"], tables.Select(t => t.Title));
        Assert.Equal("15000.000 (300.0 %, 3.00× slower)", tables[0].Rows[1][5]);
        Assert.Equal("50.000 (100.0 %, no clear difference)", tables[1].Rows[1][5]);
    }

    [Fact]
    public void OneTurnEachIsShownButNotJudged()
    {
        var onEach = new OnEach(["cfg0", "cfg1"], Rounds: 1);
        var figures = Figures(onEach, TookTurns(null, rounds: 1, ("cfg0", 1), ("cfg1", 0.5)));

        Assert.All(new[] { figures[1].P50, figures[1].P90, figures[1].P99 }, f => Assert.Equal((50.0, (VerdictCall?)null), (f.PercentOfBaseline!.Value, f.Call)));
        var table = ConfigurationAnswer.Of(onEach, [Row(0, "cfg0", ShardStatus.Done, Environment()), Row(1, "cfg1", ShardStatus.Done, Environment())], figures).Single();
        Assert.Equal("25.000 (50.0 %, 2.00× faster, not judged)", table.Rows[1][5]);
    }

    [Fact]
    public void AnAgentThatEndsARoundAndLeadsTheNextHasTwoTurnsByTheirRecordedStarts()
    {
        // Round 0: cfg0 then cfg1; round 1 led by cfg1: cfg1 again at once, then cfg0. Its samples run on unbroken.
        var onEach = new OnEach(["cfg0", "cfg1"], Rounds: 2);
        var samples = TookTurns(null, rounds: 1, ("cfg0", 1), ("cfg1", 0.5));
        var firstOfRound1 = samples.Count;
        foreach (var s in TookTurns(null, rounds: 1, ("cfg1", 0.5), ("cfg0", 1))) { s.Index += firstOfRound1; s.OffsetNs += samples[^1].OffsetNs + Ms; samples.Add(s); }
        IReadOnlySet<int> starts = new HashSet<int> { 0, 100, firstOfRound1, firstOfRound1 + 100 };

        var merged = ConfigurationFigures.From(onEach, SeriesStatistics.From(samples), samples);
        var recorded = ConfigurationFigures.From(onEach, SeriesStatistics.From(samples), samples, starts);

        Assert.Null(merged[1].P50.Call); // its two turns read as one: fewer than two a side, not judged
        Assert.NotNull(recorded[1].P50.Call);
        Assert.Equal(50.0, recorded[1].P50.PercentOfBaseline);
    }
}

/// <summary>
/// Identical configurations, each turn the whole workload and the machine a little different in every turn (a drift the
/// other configuration's turn does not share): the bar is at most one false call in twenty.
/// </summary>
public class ConfigurationFalseCallTests(Xunit.Abstractions.ITestOutputHelper output)
{
    static double Gaussian(Random random) => Math.Sqrt(-2 * Math.Log(1 - random.NextDouble())) * Math.Cos(2 * Math.PI * random.NextDouble());

    [Theory]
    [InlineData(3, 0.00)]
    [InlineData(3, 0.05)]
    [InlineData(5, 0.05)]
    [InlineData(3, 0.15)]
    public void IdenticalConfigurationsAreCalledDifferentAtMostOnceInTwenty(int rounds, double turnDrift)
    {
        var onEach = new OnEach(["cfg0", "cfg1"], rounds);
        var calls = 0;
        var judged = 0;
        for (var seed = 0; seed < 40; seed++)
        {
            var random = new Random(seed);
            var samples = new List<Sample>();
            long offset = 0;
            for (var round = 0; round < rounds; round++)
                foreach (var agent in random.Next(2) == 0 ? new[] { "cfg0", "cfg1" } : ["cfg1", "cfg0"])
                {
                    var turn = Math.Exp(turnDrift * Gaussian(random));
                    for (var i = 0; i < 100; i++)
                    {
                        var latency = (long)(1_000_000 * turn * Math.Exp(0.3 * Gaussian(random)));
                        samples.Add(new Sample { Index = samples.Count, OffsetNs = offset, LatencyNs = latency, Series = agent, StatusCode = 200 });
                        offset += latency;
                    }
                }
            var cfg1 = ConfigurationFigures.From(onEach, SeriesStatistics.From(samples), samples).Single(f => f.Agent == "cfg1");
            foreach (var f in new[] { cfg1.P50, cfg1.P90, cfg1.P99 })
            {
                if (f.Call is not null) judged++;
                if (f.Call is VerdictCall.Faster or VerdictCall.Slower) calls++;
            }
        }
        output.WriteLine($"rounds {rounds}, drift between turns {turnDrift}: {calls} of {judged} judged percentiles called faster or slower");
        Assert.Equal(120, judged);
        Assert.True(calls * 20 <= judged, $"{calls} of {judged} percentiles of identical configurations were called faster or slower");
    }
}
