using BenchDashboard.Core.Runs;

namespace BenchDashboard.Core.Statistics;

/// <summary>
/// Seed 003's reading of one run (or one series of it): a table per time window, where the series reaches
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
        var measured = samples.Where(s => !s.IsWarmup).ToList();
        var answered = measured.Where(s => !s.Error.IsTransportError()).OrderBy(s => s.Index).ToList();
        var elapsed = measured.Count == 0 ? 0 : measured.Max(s => s.OffsetNs) - measured.Min(s => s.OffsetNs);
        var length = windowSeconds ?? TimeWindows.DefaultLengthSeconds(elapsed);
        var windows = TimeWindows.Build(measured, length * 1_000_000_000L);

        var latencies = answered.Select(s => s.LatencyNs).ToList();
        var warmup = WarmupDetector.Detect(latencies);
        var cut = warmup is { IsReliable: true } ? warmup.Samples : 0;
        var steady = answered.Skip(cut).ToList();
        return new RunAnalysis(
            length, windows, warmup,
            SteadyFromIndex: warmup is { IsReliable: true } && cut < answered.Count ? answered[cut].Index : null,
            All: LatencyLadder.From(latencies),
            AfterWarmup: LatencyLadder.From(steady.Select(s => s.LatencyNs)),
            Degradation: DegradationDetector.Detect(steady.Select(s => new SeriesSample(s.Index, s.OffsetNs, s.LatencyNs)).ToList()));
    }
}
