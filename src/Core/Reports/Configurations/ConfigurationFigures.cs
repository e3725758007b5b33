using BenchDashboard.Core.Agents;
using BenchDashboard.Core.Comparisons;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Reports.Configurations;

/// <summary>One figure of a configuration (a percentile, or the mean): its value, as a percentage of the baseline configuration's, and the verdict on it.</summary>
/// <param name="PercentOfBaseline">Value ÷ the baseline's × 100 (<see cref="BaselineComparison"/>); null for the baseline itself and where either is missing.</param>
/// <param name="Call">The verdict (<see cref="Verdicts.Call"/>); null for the mean, for the baseline, and where nothing can be judged.</param>
public sealed record ConfigurationFigure(double? Ns, double? PercentOfBaseline, VerdictCall? Call);

/// <summary>
/// One configuration's figures in one of the kind's series (a phase; null for a kind of one series) in a run "on each"
/// agent (<see cref="OnEach"/>), against the first agent's in the same series, never another's. Computed once from the
/// samples when the run's digest is built: the verdicts pair the two series' turns by a block bootstrap
/// (<see cref="BlockBootstrap"/>, as the file-system locations' are), so a difference is called only when it stands
/// above the configurations' own noise, and only for series that took turns (a run of one round did not).
/// </summary>
public sealed record ConfigurationFigures(
    string Agent, string? Phase, bool IsBaseline, int Count, int Errors,
    ConfigurationFigure Mean, ConfigurationFigure P50, ConfigurationFigure P90, ConfigurationFigure P99)
{
    /// <summary>The percentiles judged, each by its own verdict.</summary>
    static readonly (ComparedMetric Metric, int Permille)[] Judged = [(ComparedMetric.Median, 500), (ComparedMetric.P90, 900), (ComparedMetric.P99, 990)];

    /// <param name="series">The run's series ("cfg0", "cfg0/create"), in the order they began.</param>
    /// <param name="samples">All its samples, for the verdicts' paired resampling.</param>
    public static IReadOnlyList<ConfigurationFigures> From(OnEach onEach, IReadOnlyList<SeriesStatistics> series, IReadOnlyList<Sample> samples)
    {
        var baseline = onEach.Agents[0];
        var answered = samples.Where(s => !s.IsWarmup && s.Series is not null && s.Error == ErrorKind.None)
            .GroupBy(s => s.Series!).ToDictionary(g => g.Key, g => g.OrderBy(s => s.Index).Select(s => s.LatencyNs).ToList());
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
                double? Percent(ComparedMetric m) => isBaseline ? null : percents?[s.Name].PercentOfBaseline[m];
                var tookTurns = baseSeries is not null && !isBaseline && s.TookTurnsWith?.Contains(baseSeries.Name) == true;
                ConfigurationFigure Figure(ComparedMetric m, int? permille)
                {
                    VerdictCall? call = null;
                    if (tookTurns && permille is { } p
                        && BlockBootstrap.Change(answered.GetValueOrDefault(baseSeries!.Name) ?? [], answered.GetValueOrDefault(s.Name) ?? [], p) is { } change)
                        call = Verdicts.Call(change, NoiseModel.Interleaved, Verdicts.DefaultMargin);
                    return new ConfigurationFigure(values[m], Percent(m), call);
                }
                var judged = Judged.ToDictionary(j => j.Metric, j => Figure(j.Metric, j.Permille));
                return new ConfigurationFigures(OnEach.Split(s.Name).Agent, phase, isBaseline, s.Statistics.Count, s.Statistics.Errors,
                    Figure(ComparedMetric.Mean, null), judged[ComparedMetric.Median], judged[ComparedMetric.P90], judged[ComparedMetric.P99]);
            });
        }).ToList();
    }
}
