using System.Text.Json;
using BenchDashboard.Core.Runs;

namespace BenchDashboard.Core.Statistics;

/// <summary>A named set of chart points (one series of a run: a cache phase, a Table variant).</summary>
public sealed record NamedPoints(string Name, IReadOnlyList<SeriesPoint> Points);

/// <summary>An error sample on the sample-index chart; <paramref name="Series"/> is its variant or phase, so a chart of one shows only its own.</summary>
public readonly record struct ErrorPoint(int Index, long LatencyNs, ErrorKind Kind, int? Status, string? Series = null);

/// <summary>
/// The per-sample chart of a run, downsampled (bucket minimum and maximum, so spikes survive): measured and
/// warm-up samples, or one set per series, and the errors as their own marks.
/// </summary>
public sealed record SampleIndexChart(
    IReadOnlyList<SeriesPoint> Measured, IReadOnlyList<SeriesPoint> Warmup, IReadOnlyList<NamedPoints> Series,
    IReadOnlyList<ErrorPoint> Errors, int TotalSamples, int LastIndex)
{
    public const int MaxSeriesPoints = 4000;
    public const int MaxErrorPoints = 2000;

    public static SampleIndexChart From(IReadOnlyList<Sample> samples)
    {
        var table = SampleTable.Of(samples);
        return From(table, table.AllRows());
    }

    /// <summary>As <see cref="From(IReadOnlyList{Sample})"/>, over the rows <paramref name="rows"/> of a table, in their order.</summary>
    public static SampleIndexChart From(SampleTable t, int[] rows)
    {
        var answered = SampleTable.Where(rows, r => !t.Error(r).IsTransportError());
        var errors = SampleTable.Where(rows, r => t.Error(r) != ErrorKind.None);
        var hasSeries = rows.Any(r => t.SeriesId(r) >= 0);
        IReadOnlyList<SeriesPoint> Points(Func<int, bool> keep)
        {
            var kept = SampleTable.Where(answered, keep);
            return SeriesDownsampler.MinMax(new ListView<SeriesPoint>(kept.Length, i => new SeriesPoint(t.Index(kept[i]), t.LatencyNs(kept[i]))), MaxSeriesPoints).ToList();
        }
        var seriesIds = new List<int>(); // in the order first met, as grouping does
        foreach (var r in answered)
            if (t.SeriesId(r) is var id and >= 0 && !t.IsWarmup(r) && !seriesIds.Contains(id)) seriesIds.Add(id);
        var lastIndex = 0;
        if (rows.Length > 0) { lastIndex = int.MinValue; foreach (var r in rows) lastIndex = Math.Max(lastIndex, t.Index(r)); }
        return new SampleIndexChart(
            hasSeries ? [] : Points(r => !t.IsWarmup(r)),
            hasSeries ? [] : Points(t.IsWarmup),
            seriesIds.Select(id => new NamedPoints(t.SeriesNames[id], Points(r => t.SeriesId(r) == id && !t.IsWarmup(r)))).ToList(),
            Every(errors, MaxErrorPoints).Select(r => new ErrorPoint(t.Index(r), t.LatencyNs(r), t.Error(r), t.StatusCode(r), t.Series(r))).ToList(),
            rows.Length, lastIndex);
    }

    /// <summary>Evenly spaced picks when there are more than <paramref name="max"/> items.</summary>
    static IEnumerable<T> Every<T>(IReadOnlyList<T> items, int max) =>
        items.Count <= max ? items : Enumerable.Range(0, max).Select(i => items[(int)((long)i * items.Count / max)]);
}

/// <summary>
/// The shape of one item's ranked latencies (a whole run, or one of its series) for charts: by position in the
/// order the requests started (downsampled), HdrHistogram's percentile plot, and the CDF.
/// </summary>
public sealed record LatencyShape(int Count, IReadOnlyList<SeriesPoint> ByPosition, IReadOnlyList<DistributionPoint> Percentiles, IReadOnlyList<DistributionPoint> Cdf)
{
    public const int MaxPositionPoints = 2000;

    /// <param name="ranked">The answered measured latencies in request order.</param>
    /// <param name="sorted">The same, sorted.</param>
    public static LatencyShape From(long[] ranked, long[] sorted) => From(ranked, ranked.Length, sorted);

    /// <param name="ranked">Holds the ranked latencies in its first <paramref name="count"/> items (a scratch buffer).</param>
    internal static LatencyShape From(long[] ranked, int count, long[] sorted) => new(
        count,
        SeriesDownsampler.MinMax(new ListView<SeriesPoint>(count, i => new SeriesPoint(i, ranked[i])), MaxPositionPoints).ToList(),
        Distribution.Percentiles(sorted), Distribution.Cdf(sorted));
}

/// <summary>
/// Everything the pages and the API show of a finished run, computed once from all its samples when the run
/// ends and stored (<see cref="BenchDashboard.Core.Stores.RunDigests"/>), so that no view reads the samples again and a view of a run
/// of a million samples costs what a view of ten thousand does. Figures are exact, as computed from the samples:
/// nearest-rank ladders, windows for every offered length, the warm-up and episodes, downsampled charts. The
/// sorted latencies that comparisons resample are stored beside it, compactly (<see cref="SortedLatencies"/>).
/// An open-model run has a digest per <see cref="LatencyBasis"/>.
/// </summary>
public sealed record RunDigest(
    int Version, LatencyBasis Basis, RunStatistics Statistics, IReadOnlyList<SeriesStatistics> Series, OpenLoadReport? Load,
    IReadOnlyList<SeriesAnalysis> Analyses, SampleIndexChart Chart, IReadOnlyDictionary<string, LatencyShape> Shapes,
    LogHistogram Histogram, JsonElement? Figures, IReadOnlyList<ShardStatistics>? Shards = null, JsonElement? Configurations = null,
    int? Iterations = null)
{
    /// <summary>Raised whenever what a digest holds changes: older stored digests are then built again.</summary>
    public const int CurrentVersion = 9; // 4: last windows end with the run, short runs' fine windows; 5: file-system figures (each phase across locations, with verdicts); 6: figures per configuration of a run on each agent; 7: their turns split where recorded; 8: a turn is an agent's stretch, its series interleaved or not; 9: a journey's run figures count its requests, its iterations apart

    /// <summary>The key of the whole run among <see cref="Shapes"/> and the stored latencies.</summary>
    public const string WholeRun = "";

    /// <param name="samples">All the run's samples as the basis sees them (<see cref="LatencyBases.Apply(LatencyBasis, IReadOnlyList{Sample})"/>).</param>
    /// <param name="figures">The kind's own figures (<see cref="Benchmarks.IBenchmarkKind.Figures"/>).</param>
    /// <param name="configurations">A run on each of several agents: its figures per configuration (Reports.Configurations), which need the samples too.</param>
    /// <param name="isIterations">
    /// A series of whole iterations of other series' requests (a journey's "iteration"): left out of the run's statistics,
    /// whole-run latencies and agents' figures, which count requests (each agent's stored samples still count them all);
    /// its measured samples are <see cref="Iterations"/>.
    /// </param>
    /// <returns>The digest, and the sorted answered latencies of the whole run and of each series.</returns>
    public static (RunDigest Digest, IReadOnlyDictionary<string, long[]> Sorted) Build(
        IReadOnlyList<Sample> samples, LatencyBasis basis, Func<IReadOnlyList<SeriesStatistics>, IReadOnlyList<Sample>, object?> figures,
        Func<IReadOnlyList<SeriesStatistics>, IReadOnlyList<Sample>, object?>? configurations = null, Func<string, bool>? isIterations = null) =>
        Build(SampleTable.Of(samples), basis, figures, configurations, isIterations);

    /// <summary>
    /// As <see cref="Build(IReadOnlyList{Sample}, LatencyBasis, Func{IReadOnlyList{SeriesStatistics}, IReadOnlyList{Sample}, object?}, Func{IReadOnlyList{SeriesStatistics}, IReadOnlyList{Sample}, object?}?, Func{string, bool}?)"/>
    /// from the samples as columns (<see cref="SampleTable"/>): what a run's digest is built from, so a million samples
    /// are never a million objects. The kind's figures and the configurations get the table as a list of samples,
    /// made one at a time as they read them.
    /// </summary>
    public static (RunDigest Digest, IReadOnlyDictionary<string, long[]> Sorted) Build(
        SampleTable samples, LatencyBasis basis, Func<IReadOnlyList<SeriesStatistics>, IReadOnlyList<Sample>, object?> figures,
        Func<IReadOnlyList<SeriesStatistics>, IReadOnlyList<Sample>, object?>? configurations = null, Func<string, bool>? isIterations = null)
    {
        var t = samples;
        var all = t.AllRows();
        var bySeries = SeriesStatistics.RowsBySeries(t, all);
        var series = SeriesStatistics.From(t, bySeries);
        // Each series' rows in the order of the samples, as filtering the run's list gives them.
        var seriesRows = series.ToDictionary(s => s.Name, s => bySeries.First(g => g.Name == s.Name).Rows.Order().ToArray());
        var requests = isIterations is null ? all : SampleTable.Where(all, r => t.Series(r) is not { } name || !isIterations(name));
        int? iterations = isIterations is null ? null : all.Count(r => !t.IsWarmup(r) && t.Series(r) is { } name && isIterations(name));
        var sorted = new Dictionary<string, long[]> { [WholeRun] = Sorted(Ranked(t, requests)) };
        foreach (var s in series) sorted[s.Name] = Sorted(Ranked(t, seriesRows[s.Name]));

        // A run of several series is analysed one series at a time: phases and variants differ by design.
        var analyses = series.Count == 0
            ? [SeriesAnalysis.From(null, t, all)]
            : series.Select(s => SeriesAnalysis.From(s.Name, t, seriesRows[s.Name])).ToList();
        var histogramKeys = series.Count == 0 ? [WholeRun] : series.Select(s => s.Name).ToList();
        var kindFigures = figures(series, t);
        var configured = configurations?.Invoke(series, t);

        // The shapes one at a time, each from its ranked latencies made again in the table's scratch (not kept).
        LatencyShape Shape(string key, int[] rows)
        {
            var ranked = t.ScratchValues(RankedRows(t, rows), _ => true, t.LatencyNs);
            return LatencyShape.From(t.Scratch, ranked.Length, sorted[key]);
        }
        var shapes = new Dictionary<string, LatencyShape> { [WholeRun] = Shape(WholeRun, requests) };
        foreach (var s in series) shapes[s.Name] = Shape(s.Name, seriesRows[s.Name]);

        var digest = new RunDigest(
            CurrentVersion, basis, RunStatistics.From(t, requests), series, OpenLoadReport.From(t, all), analyses,
            SampleIndexChart.From(t, all),
            shapes,
            LogHistogram.Build(histogramKeys.Select(k => (IReadOnlyList<long>)sorted[k]).ToList()),
            kindFigures is null ? null : JsonSerializer.SerializeToElement(kindFigures, kindFigures.GetType(), Json.Options),
            ShardStatistics.From(t, all, isIterations),
            configured is null ? null : JsonSerializer.SerializeToElement(configured, configured.GetType(), Json.Options),
            iterations);
        return (digest, sorted);
    }

    /// <summary>The analysis of a series (or of the whole run when it has none); the first series' when the name is unknown or null.</summary>
    public SeriesAnalysis AnalysisOf(string? series) => Analyses.FirstOrDefault(a => a.Series == series) ?? Analyses[0];

    /// <summary>Latencies the percentiles rank: measured requests that got an answer, in the order they started.</summary>
    static long[] Ranked(SampleTable t, int[] rows) => SampleTable.Values(RankedRows(t, rows), _ => true, t.LatencyNs);

    static int[] RankedRows(SampleTable t, int[] rows) => t.ByIndex(SampleTable.Where(rows, r => !t.IsWarmup(r) && !t.Error(r).IsTransportError()));

    static long[] Sorted(long[] ranked)
    {
        Array.Sort(ranked);
        return ranked;
    }
}
