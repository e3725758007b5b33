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
    /// Configurations that took turns: in each round every configuration answers once, the leader rotating. The baseline's
    /// latencies are 1..100 ms in a shuffled order; a configuration's are the same times its factor, so its percentiles
    /// and its mean are known exactly (nearest rank: p50 = 50 ms, p90 = 90 ms, p99 = 99 ms, mean 50.5 ms for the baseline).
    /// </summary>
    public static List<Sample> TookTurns(string? phase, params (string Agent, double Factor)[] configurations) => TookTurns(phase, rounds: true, configurations);

    public static List<Sample> TookTurns(string? phase, bool rounds, params (string Agent, double Factor)[] configurations)
    {
        var order = Enumerable.Range(1, 100).OrderBy(_ => 0).ToArray();
        new Random(1).Shuffle(order);
        var samples = new List<Sample>();
        long offset = 0;
        void Add(string agent, double factor, int ms)
        {
            var latency = (long)(ms * Ms * factor);
            samples.Add(new Sample { Index = samples.Count, OffsetNs = offset, LatencyNs = latency, Series = OnEach.SeriesOf(agent, phase), StatusCode = 200 });
            offset += latency;
        }
        if (rounds)
            for (var round = 0; round < order.Length; round++)
                for (var turn = 0; turn < configurations.Length; turn++)
                {
                    var (agent, factor) = configurations[(round + turn) % configurations.Length];
                    Add(agent, factor, order[round]);
                }
        else
            foreach (var (agent, factor) in configurations)
                foreach (var ms in order) Add(agent, factor, ms);
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
        var figures = Figures(onEach, TookTurns(null, ("cfg0", 1), ("cfg1", 0.75), ("cfg2", 1)));

        Assert.Equal(["cfg0", "cfg1", "cfg2"], figures.Select(f => f.Agent));
        var (cfg0, cfg1, cfg2) = (figures[0], figures[1], figures[2]);
        Assert.True(cfg0.IsBaseline);
        Assert.Equal((100, 0), (cfg0.Count, cfg0.Errors));
        Assert.Equal((50.5 * Ms, 50 * Ms, 90 * Ms, 99 * Ms), (cfg0.Mean.Ns, cfg0.P50.Ns, cfg0.P90.Ns, cfg0.P99.Ns));
        Assert.Equal((37.5 * Ms, 67.5 * Ms, 74.25 * Ms), (cfg1.P50.Ns, cfg1.P90.Ns, cfg1.P99.Ns));
        Assert.All(new[] { cfg1.Mean, cfg1.P50, cfg1.P90, cfg1.P99 }, f => Assert.Equal(75.0, f.PercentOfBaseline!.Value, 9));
        Assert.All(new[] { cfg1.P50, cfg1.P90, cfg1.P99 }, f => Assert.Equal(VerdictCall.Faster, f.Call));
        Assert.All(new[] { cfg2.P50, cfg2.P90, cfg2.P99 }, f => Assert.Equal((100.0, VerdictCall.Equivalent), (f.PercentOfBaseline!.Value, f.Call)));
        Assert.Null(cfg1.Mean.Call); // the mean is shown as a percentage, never judged
        Assert.Null(cfg0.P50.PercentOfBaseline);

        var rows = new[] { Row(0, "cfg0", ShardStatus.Done, Environment()), Row(1, "cfg1", ShardStatus.Done, Environment()), Row(2, "cfg2", ShardStatus.Done, Environment()) };
        var table = Assert.Single(ConfigurationAnswer.Of(onEach, rows, figures));
        Assert.Equal(["Configuration", "Settings recorded", "Count", "Errors", "Mean", "p50", "p90", "p99", "Status"], table.Columns);
        Assert.Equal(["cfg0", "same as the others", "100", "0", "50.500 (baseline)", "50.000 (baseline)", "90.000 (baseline)", "99.000 (baseline)", "done"], table.Rows[0]);
        Assert.Equal(["cfg1", "same as the others", "100", "0", "37.875 (75.0 %)", "37.500 (75.0 %, 1.33× faster)", "67.500 (75.0 %, 1.33× faster)", "74.250 (75.0 %, 1.33× faster)", "done"], table.Rows[1]);
        Assert.Equal("50.000 (100.0 %, equivalent (within ±2 %))", table.Rows[2][5]);
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
        foreach (var s in TookTurns("delete", ("cfg0", 1), ("cfg1", 1))) { s.Index += samples.Count; s.OffsetNs += samples[^1].OffsetNs + samples[^1].LatencyNs; samples.Add(s); }

        var tables = ConfigurationAnswer.Of(onEach, [Row(0, "cfg0", ShardStatus.Done, Environment()), Row(1, "cfg1", ShardStatus.Done, Environment())], Figures(onEach, samples));

        Assert.Equal(["Each configuration, create (ms), against cfg0", "Each configuration, delete (ms), against cfg0"], tables.Select(t => t.Title));
        Assert.Equal("15000.000 (300.0 %, 3.00× slower)", tables[0].Rows[1][5]);
        Assert.Equal("50.000 (100.0 %, equivalent (within ±2 %))", tables[1].Rows[1][5]);
    }

    [Fact]
    public void ConfigurationsThatRanOneAfterAnotherAreShownButNotJudged()
    {
        var onEach = new OnEach(["cfg0", "cfg1"], Rounds: 1);
        var figures = Figures(onEach, TookTurns(null, rounds: false, ("cfg0", 1), ("cfg1", 0.5)));

        Assert.All(new[] { figures[1].P50, figures[1].P90, figures[1].P99 }, f => Assert.Equal((50.0, (VerdictCall?)null), (f.PercentOfBaseline!.Value, f.Call)));
        var table = ConfigurationAnswer.Of(onEach, [Row(0, "cfg0", ShardStatus.Done, Environment()), Row(1, "cfg1", ShardStatus.Done, Environment())], figures).Single();
        Assert.Equal("25.000 (50.0 %, 2.00× faster, not judged)", table.Rows[1][5]);
    }
}
