using System.Text.Json.Serialization;
using MathNet.Numerics.Distributions;
using Perfolizer.Mathematics.OutlierDetection;

namespace BenchDashboard.Core.Statistics.Changes;

/// <summary>What a tested change says of latency.</summary>
[JsonConverter(typeof(JsonStringEnumConverter<ChangeDirection>))]
public enum ChangeDirection
{
    /// <summary>The interval reaches inside the practical margin: no change called.</summary>
    [JsonStringEnumMemberName("none")] None,

    /// <summary>Slower by more than the margin, the whole interval beyond it.</summary>
    [JsonStringEnumMemberName("regression")] Regression,

    /// <summary>Faster by more than the margin, the whole interval beyond it.</summary>
    [JsonStringEnumMemberName("improvement")] Improvement,
}

/// <summary>
/// One percentile after a candidate change against before it: each side's typical run (the geometric mean of
/// its runs' percentiles), the relative change (after ÷ before − 1) and the runs' interval; and, when that
/// interval calls a change, the stored requests' interval (<paramref name="SamplesLower"/> to <paramref name="SamplesUpper"/>).
/// </summary>
public sealed record MetricChange(
    string Metric, long BeforeNs, long AfterNs, double Change, double Lower, double Upper, ChangeDirection Call,
    double? SamplesLower = null, double? SamplesUpper = null);

/// <summary>A candidate change tested: the runs on each side and each percentile's change.</summary>
/// <param name="ConfidenceLevel">Of the runs' interval.</param>
/// <param name="SamplesConfidenceLevel">Of the stored requests' interval.</param>
public sealed record ChangeEvidence(
    int BeforeRuns, int AfterRuns, double ConfidenceLevel, double SamplesConfidenceLevel, double Margin, IReadOnlyList<MetricChange> Metrics)
{
    /// <summary>A regression when any percentile regressed (a slower tail is a regression even if the median improved).</summary>
    [JsonIgnore]
    public ChangeDirection Call =>
        Metrics.Any(m => m.Call == ChangeDirection.Regression) ? ChangeDirection.Regression
        : Metrics.Any(m => m.Call == ChangeDirection.Improvement) ? ChangeDirection.Improvement
        : ChangeDirection.None;

    /// <summary>The percentile that says it most: among those called the way the change is, the one that moved furthest.</summary>
    [JsonIgnore]
    public MetricChange Headline =>
        Metrics.Where(m => m.Call == Call).MaxBy(m => Math.Abs(Math.Log(1 + m.Change))) ?? Metrics[0];
}

/// <summary>
/// Tests a candidate change: per percentile, the runs after it against the runs before it. Two intervals must
/// both lie beyond the practical margin, the same way, and the median run after must have moved beyond it from the
/// median run before, for a change to be called, so that neither a noisy stretch, nor one run far off, nor a real
/// but negligible shift is announced:
/// <list type="bullet">
/// <item>the runs' interval: Student's t over the log of each run's percentile, with the spread pooled from both
/// sides (the run-to-run spread the compare page learns from a history: a few runs after a change say little
/// of their own spread, the level before says much), the level's far-out runs left out of it. A history is tested at every run, at every place a detector
/// points to, so this interval is at <see cref="ChangeSettings.ConfidenceLevel"/> (99.9 %), not 95 %: at 95 %
/// identical runs with 20 % noise were called changed 2.6 times per 100 runs (bench/README.md);</item>
/// <item>the stored requests' interval: the hierarchical bootstrap the compare page uses for groups of runs (runs
/// resampled, then each run's requests) at its 95 %, run only when the first calls a change.</item>
/// </list>
/// </summary>
public static class ChangeTest
{
    /// <summary>The stored requests' interval is the compare page's.</summary>
    public const double SamplesConfidenceLevel = 0.95;

    /// <param name="before">The runs of the level before the candidate.</param>
    /// <param name="after">The runs from the candidate on.</param>
    /// <param name="latencies">A run's answered latencies, sorted ascending.</param>
    public static async Task<ChangeEvidence?> TestAsync(
        IReadOnlyList<HistoryRun> before, IReadOnlyList<HistoryRun> after, ChangeSettings settings, Func<long, Task<IReadOnlyList<long>>> latencies)
    {
        if (before.Count + after.Count < 3 || before.Count == 0 || after.Count == 0) return null;
        var margin = Math.Log(1 + settings.Margin);
        var read = new Dictionary<long, IReadOnlyList<long>>();
        async Task<List<IReadOnlyList<long>>> SortedAsync(IEnumerable<HistoryRun> runs)
        {
            var sorted = new List<IReadOnlyList<long>>();
            foreach (var run in runs)
            {
                if (!read.TryGetValue(run.RunId, out var values)) read[run.RunId] = values = await latencies(run.RunId);
                sorted.Add(values);
            }
            return sorted;
        }

        var metrics = new List<MetricChange>();
        foreach (var metric in ChangeMetric.All)
        {
            var level = Settled(before, metric);
            var a = level.Select(r => Log(r.Of(metric))).ToList();
            var b = after.Select(r => Log(r.Of(metric))).ToList();
            var (meanA, meanB) = (a.Average(), b.Average());
            var squares = a.Sum(x => (x - meanA) * (x - meanA)) + b.Sum(x => (x - meanB) * (x - meanB));
            var t = StudentT.InvCDF(0, 1, a.Count + b.Count - 2, 1 - (1 - settings.ConfidenceLevel) / 2);
            var half = t * Math.Sqrt(squares / (a.Count + b.Count - 2)) * Math.Sqrt(1.0 / a.Count + 1.0 / b.Count);
            var difference = meanB - meanA;
            // Most runs after must have moved too: one run far off would otherwise carry a mean of three.
            var typical = Middle(b) - Middle(a);
            var runs = Call(difference - half, difference + half, margin);
            if (runs != Call(typical, typical, margin)) runs = ChangeDirection.None;
            var change = new MetricChange(metric.Name, (long)Math.Round(Math.Exp(meanA)), (long)Math.Round(Math.Exp(meanB)),
                Math.Exp(difference) - 1, Math.Exp(difference - half) - 1, Math.Exp(difference + half) - 1, ChangeDirection.None);
            if (runs != ChangeDirection.None
                && HierarchicalBootstrap.Change(await SortedAsync(level), await SortedAsync(after), metric.Permille, confidenceLevel: SamplesConfidenceLevel) is { } requests)
            {
                var samples = Call(Math.Log(1 + requests.Lower), Math.Log(1 + requests.Upper), margin);
                change = change with { Call = samples == runs ? runs : ChangeDirection.None, SamplesLower = requests.Lower, SamplesUpper = requests.Upper };
            }
            metrics.Add(change);
        }
        return new ChangeEvidence(before.Count, after.Count, settings.ConfidenceLevel, SamplesConfidenceLevel, settings.Margin, metrics);
    }

    /// <summary>
    /// The level's runs without those far outside it on this percentile (five interquartile ranges beyond its quartiles):
    /// a cold first run or a hiccup would otherwise widen the spread enough to hide a doubling. Tukey's far-out three
    /// left out enough ordinary runs of short levels to raise the false calls by half (bench/README.md).
    /// </summary>
    static List<HistoryRun> Settled(IReadOnlyList<HistoryRun> level, ChangeMetric metric)
    {
        if (level.Count < FarOutMinimum) return [.. level];
        var fences = TukeyOutlierDetector.Create(level.Select(r => Log(r.Of(metric))).ToList(), FarOut);
        return level.Where(r => !fences.IsLowerOutlier(Log(r.Of(metric))) && !fences.IsUpperOutlier(Log(r.Of(metric)))).ToList();
    }

    const int FarOutMinimum = 5;
    const double FarOut = 5;

    static ChangeDirection Call(double lower, double upper, double margin) =>
        lower > margin ? ChangeDirection.Regression : upper < -margin ? ChangeDirection.Improvement : ChangeDirection.None;

    static double Log(long ns) => Math.Log(Math.Max(1, ns));

    static double Middle(List<double> values)
    {
        var sorted = values.Order().ToList();
        return sorted.Count % 2 == 1 ? sorted[sorted.Count / 2] : (sorted[sorted.Count / 2 - 1] + sorted[sorted.Count / 2]) / 2;
    }
}
