using BenchDashboard.Core.Agents;
using BenchDashboard.Core.Comparisons;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Reports.Configurations;

/// <summary>One figure of a configuration (a percentile, or the mean): its value, as a percentage of the baseline configuration's, and the verdict on it.</summary>
/// <param name="PercentOfBaseline">Value ÷ the baseline's × 100 (<see cref="BaselineComparison"/>); null for the baseline itself and where either is missing.</param>
/// <param name="Call">The verdict (<see cref="Verdicts.Call"/>); null for the mean, for the baseline, and where nothing can be judged.</param>
/// <param name="VerdictRatio">The ratio the verdict judged (the turns' percentiles averaged, this ÷ the baseline's); null without a verdict.</param>
public sealed record ConfigurationFigure(double? Ns, double? PercentOfBaseline, VerdictCall? Call, double? VerdictRatio = null);

/// <summary>
/// One configuration's figures in one of the kind's series (a phase; null for a kind of one series) in a run "on each"
/// agent (<see cref="OnEach"/>), against the first agent's in the same series, never another's. Computed once from the
/// samples when the run's digest is built. The figures pool all the configuration's turns. Each turn is the whole
/// workload, alone, at another moment than the baseline's, so a turn is judged as a separate run is: the verdict is
/// the compare page's for groups of runs (<see cref="HierarchicalBootstrap"/>, <see cref="NoiseModel.RunGroups"/>),
/// the turns resampled and then the requests in each, which keeps the machine's drift between turns in the interval
/// (pairing requests across turns, as interleaved variants are paired, called identical configurations different in
/// up to a third of simulated runs). Fewer than two turns a side are not judged.
/// </summary>
public sealed record ConfigurationFigures(
    string Agent, string? Phase, bool IsBaseline, int Count, int Errors,
    ConfigurationFigure Mean, ConfigurationFigure P50, ConfigurationFigure P90, ConfigurationFigure P99)
{
    /// <summary>The percentiles judged, each by its own verdict.</summary>
    static readonly (ComparedMetric Metric, int Permille)[] Judged = [(ComparedMetric.Median, 500), (ComparedMetric.P90, 900), (ComparedMetric.P99, 990)];

    /// <param name="series">The run's series ("cfg0", "cfg0/create"), in the order they began.</param>
    /// <param name="samples">All its samples, in the order they were measured, for the verdicts' turns.</param>
    /// <param name="turnStarts">The first sample index of every turn, as the agents' rows recorded them (<see cref="AgentShardRow.TurnStarts"/>); empty for runs before they were.</param>
    public static IReadOnlyList<ConfigurationFigures> From(OnEach onEach, IReadOnlyList<SeriesStatistics> series, IReadOnlyList<Sample> samples,
        IReadOnlySet<int>? turnStarts = null)
    {
        var baseline = onEach.Agents[0];
        var turns = Turns(samples, turnStarts ?? new HashSet<int>());
        var named = series.Select(s => (Split: OnEach.Split(s.Name), Series: s)).Where(x => onEach.Agents.Contains(x.Split.Agent)).ToList();
        var phases = named.Select(x => x.Split.KindSeries).Distinct().ToList();

        return phases.SelectMany(phase =>
        {
            // Configurations in the onEach order, so the table reads as it was asked.
            var inPhase = onEach.Agents.Select(a => named.FirstOrDefault(x => x.Split == (a, phase)).Series).OfType<SeriesStatistics>().ToList();
            var baseSeries = inPhase.FirstOrDefault(s => OnEach.Split(s.Name).Agent == baseline);
            var percents = baseSeries is null ? null
                : BaselineComparison.Compare(inPhase.Select(s => (s.Name, s.Statistics)).ToList(), baseSeries.Name).ToDictionary(r => r.Name);
            return inPhase.Select(s =>
            {
                var isBaseline = s == baseSeries;
                var values = BaselineComparison.ValuesOf(s.Statistics);
                var baseTurns = baseSeries is null || isBaseline ? [] : turns.GetValueOrDefault(baseSeries.Name) ?? [];
                var ownTurns = turns.GetValueOrDefault(s.Name) ?? [];
                ConfigurationFigure Figure(ComparedMetric m, int? permille)
                {
                    var percent = isBaseline ? null : percents?[s.Name].PercentOfBaseline[m];
                    if (permille is not { } p || baseTurns.Count < 2 || ownTurns.Count < 2
                        || HierarchicalBootstrap.Change(baseTurns, ownTurns, p) is not { } change)
                        return new ConfigurationFigure(values[m], percent, null);
                    return new ConfigurationFigure(values[m], percent, Verdicts.Call(change, NoiseModel.RunGroups, Verdicts.DefaultMargin), 1 + change.Change);
                }
                var judged = Judged.ToDictionary(j => j.Metric, j => Figure(j.Metric, j.Permille));
                return new ConfigurationFigures(OnEach.Split(s.Name).Agent, phase, isBaseline, s.Statistics.Count, s.Statistics.Errors,
                    Figure(ComparedMetric.Mean, null), judged[ComparedMetric.Median], judged[ComparedMetric.P90], judged[ComparedMetric.P99]);
            });
        }).ToList();
    }

    /// <summary>
    /// Each series' turns: the stretches of samples, in the order measured, that no other series' sample interrupts
    /// (one agent runs its whole workload alone in a turn, its phases one after another) and no recorded turn start
    /// divides (an agent that ends a round and leads the next takes two turns in a row); each turn's measured,
    /// answered latencies, sorted, as a run's are for the compare page's groups.
    /// </summary>
    static Dictionary<string, List<IReadOnlyList<long>>> Turns(IReadOnlyList<Sample> samples, IReadOnlySet<int> turnStarts)
    {
        var turns = new Dictionary<string, List<IReadOnlyList<long>>>();
        string? previous = null;
        List<long>? current = null;
        foreach (var sample in samples.Where(s => s.Series is not null).OrderBy(s => s.Index))
        {
            if (sample.Series != previous || turnStarts.Contains(sample.Index))
            {
                if (!turns.TryGetValue(sample.Series!, out var list)) turns[sample.Series!] = list = [];
                list.Add(current = []);
                previous = sample.Series;
            }
            if (!sample.IsWarmup && !sample.Error.IsTransportError()) current!.Add(sample.LatencyNs);
        }
        foreach (var list in turns.Values)
            foreach (var turn in list) ((List<long>)turn).Sort();
        return turns;
    }
}
