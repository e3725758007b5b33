using BenchDashboard.Core.Runs;

namespace BenchDashboard.Core.Statistics;

/// <summary>
/// The time-window reading of one run (or one series of it): a table per time window, where the series reaches
/// steady state (MSER-5) with the figures with and without the warm-up part, and the degradation episodes
/// after it. All from the measured requests that got an answer, in the order they started.
/// </summary>
public sealed record RunAnalysis(
    int WindowSeconds, IReadOnlyList<TimeWindow> Windows,
    WarmupEstimate? Warmup, int? SteadyFromIndex, LatencyLadder? All, LatencyLadder? AfterWarmup,
    DegradationReport? Degradation)
{
    public static RunAnalysis Analyze(IReadOnlyList<Sample> samples, int? windowSeconds = null)
    {
        var t = SampleTable.Of(samples);
        var measured = SampleTable.Where(t.AllRows(), r => !t.IsWarmup(r));
        var length = windowSeconds ?? TimeWindows.DefaultLengthSeconds(ElapsedNs(t, measured));
        return Steady(t, measured) with { WindowSeconds = length, Windows = TimeWindows.Build(t, measured, length * 1_000_000_000L, t.Scratch) };
    }

    /// <summary>The span of the measured samples' starts, which the window lengths divide.</summary>
    internal static long ElapsedNs(SampleTable t, int[] measured) =>
        measured.Length == 0 ? 0 : measured.Max(t.OffsetNs) - measured.Min(t.OffsetNs);

    /// <summary>Everything but the windows: warm-up, the ladders with and without it, and the episodes after it.</summary>
    internal static RunAnalysis Steady(SampleTable t, int[] measured)
    {
        // Stored samples come in index order; others are put in it (a stable sort, where the old one was not: indexes are unique in a run).
        var answered = t.ByIndex(SampleTable.Where(measured, r => !t.Error(r).IsTransportError()));
        // The latencies in the table's scratch: read in order by the warm-up's detection, then sorted for the ladders.
        var latencies = t.ScratchValues(answered, _ => true, t.LatencyNs);
        var warmup = WarmupDetector.Detect(new ArraySegment<long>(t.Scratch, 0, latencies.Length));
        var cut = warmup is { IsReliable: true } ? warmup.Samples : 0;
        var afterWarmup = LatencyLadder.FromUnsorted(latencies[cut..]);
        var steady = new ArraySegment<int>(answered, cut, answered.Length - cut);
        var steadySamples = new ListView<SeriesSample>(steady.Count, i => new SeriesSample(t.Index(steady[i]), t.OffsetNs(steady[i]), t.LatencyNs(steady[i])));
        var degradation = DegradationDetector.Detect(steadySamples, latencies[cut..]); // sorted by the ladder; overwritten
        var all = LatencyLadder.FromUnsorted(t.ScratchValues(answered, _ => true, t.LatencyNs));
        return new RunAnalysis(
            0, [], warmup,
            SteadyFromIndex: warmup is { IsReliable: true } && cut < answered.Length ? t.Index(answered[cut]) : null,
            All: all,
            AfterWarmup: afterWarmup,
            Degradation: degradation);
    }
}

/// <summary>
/// The analysis of one run or series computed once, when the run has ended, for every window length a reader
/// can pick (<see cref="TimeWindows.LengthsSeconds"/> that give at most <see cref="TimeWindows.MaxWindows"/>
/// windows), so a page never reads the samples again. <see cref="Series"/> is null for the whole run.
/// Windows count from the series' own first measured start, <see cref="OriginNs"/> into the run: a chart of
/// phases that follow one another places each where it ran.
/// </summary>
public sealed record SeriesAnalysis(
    string? Series, int DefaultWindowSeconds, IReadOnlyDictionary<int, IReadOnlyList<TimeWindow>> WindowsByLength,
    WarmupEstimate? Warmup, int? SteadyFromIndex, LatencyLadder? All, LatencyLadder? AfterWarmup, DegradationReport? Degradation,
    long? FineWindowNs = null, IReadOnlyList<TimeWindow>? FineWindows = null, long OriginNs = 0)
{
    public static SeriesAnalysis From(string? series, IReadOnlyList<Sample> samples)
    {
        var table = SampleTable.Of(samples);
        return From(series, table, table.AllRows());
    }

    /// <summary>As <see cref="From(string?, IReadOnlyList{Sample})"/>, over the rows <paramref name="rows"/> of a table.</summary>
    public static SeriesAnalysis From(string? series, SampleTable t, int[] rows)
    {
        var measured = SampleTable.Where(rows, r => !t.IsWarmup(r));
        var elapsed = RunAnalysis.ElapsedNs(t, measured);
        var lengths = TimeWindows.LengthsSeconds
            .Where(l => elapsed / (l * 1_000_000_000L) < TimeWindows.MaxWindows && l * 1_000_000_000L < 2 * Math.Max(elapsed, 1))
            .Append(TimeWindows.DefaultLengthSeconds(elapsed)).Distinct().Order();
        var steady = RunAnalysis.Steady(t, measured);
        var scratch = t.Scratch;
        // A short run's charts get sub-second windows (the table keeps whole seconds, which a reader can pick).
        var fine = TimeWindows.FineLengthNs(elapsed);
        return new SeriesAnalysis(series, TimeWindows.DefaultLengthSeconds(elapsed),
            lengths.ToDictionary(l => l, l => TimeWindows.Build(t, measured, l * 1_000_000_000L, scratch)),
            steady.Warmup, steady.SteadyFromIndex, steady.All, steady.AfterWarmup, steady.Degradation,
            fine, fine is { } f ? TimeWindows.Build(t, measured, f, scratch) : null,
            measured.Length == 0 ? 0 : measured.Min(t.OffsetNs));
    }

    /// <summary>The windows the over-time charts draw at <paramref name="windowSeconds"/>: the sub-second ones of a short run, else those of the table.</summary>
    public (double Seconds, IReadOnlyList<TimeWindow> Windows) ChartWindows(int windowSeconds) =>
        FineWindows is { } fine && windowSeconds == Lengths.First()
            ? (FineWindowNs!.Value / 1e9, fine)
            : (windowSeconds, WindowsByLength.TryGetValue(windowSeconds, out var w) ? w : WindowsByLength[DefaultWindowSeconds]);

    /// <summary>The window lengths a reader can pick, shortest first.</summary>
    public IEnumerable<int> Lengths => WindowsByLength.Keys.Order();

    /// <summary>The analysis with windows of <paramref name="windowSeconds"/> (the default when null).</summary>
    /// <exception cref="ArgumentException">A length that was not computed: the message lists those that were.</exception>
    public RunAnalysis At(int? windowSeconds)
    {
        var length = windowSeconds ?? DefaultWindowSeconds;
        if (!WindowsByLength.TryGetValue(length, out var windows))
            throw new ArgumentException($"Choose a window of {string.Join(", ", Lengths)} seconds.");
        return new RunAnalysis(length, windows, Warmup, SteadyFromIndex, All, AfterWarmup, Degradation);
    }
}
