using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Web.Api;

public sealed record TimeWindowDto(int Number, double StartSeconds, double EndSeconds, int Count, int Errors, double PerSecond, double ErrorsPerSecond,
    double? MeanMs, double? MinMs, double? P50Ms, double? P80Ms, double? P90Ms, double? P95Ms, double? P99Ms, double? MaxMs)
{
    public static TimeWindowDto From(TimeWindow w) => new(w.Number, w.StartNs / 1e9, w.EndNs / 1e9, w.Count, w.Errors, w.PerSecond, w.ErrorsPerSecond,
        w.MeanNs / 1e6, w.MinNs / 1e6, w.P50Ns / 1e6, w.P80Ns / 1e6, w.P90Ns / 1e6, w.P95Ns / 1e6, w.P99Ns / 1e6, w.MaxNs / 1e6);
}

/// <summary>Samples: how many answered requests MSER-5 drops; Reliable: false when no steady state was found.</summary>
public sealed record WarmupDto(int Samples, int Count, bool Reliable, int? SteadyFromIndex, double SteadyMeanMs);

public sealed record EpisodeDto(int StartIndex, int EndIndex, int Length, double StartSeconds, double EndSeconds, double MeanRatio, double PeakRatio);

public sealed record DegradationDto(double SteadyMedianMs, double ThresholdMs, IReadOnlyList<EpisodeDto> Episodes, double? PeriodSamples, double? PeriodSeconds);

/// <summary>The analysis of one run or one series: time windows, warm-up (MSER-5) and degradation episodes.</summary>
public sealed record RunAnalysisDto(string? Series, int WindowSeconds, IReadOnlyList<TimeWindowDto> Windows, WarmupDto? Warmup,
    LadderDto? All, LadderDto? AfterWarmup, DegradationDto? Degradation)
{
    public static RunAnalysisDto From(RunAnalysis a, string? series) => new(
        series, a.WindowSeconds, a.Windows.Select(TimeWindowDto.From).ToList(),
        a.Warmup is { } w ? new WarmupDto(w.Samples, w.Count, w.IsReliable, a.SteadyFromIndex, Ms.Of(w.SteadyMeanNs)) : null,
        LadderDto.From(a.All), LadderDto.From(a.AfterWarmup),
        a.Degradation is { } d ? new DegradationDto(Ms.Of(d.SteadyMedianNs), Ms.Of(d.ThresholdNs),
            d.Episodes.Select(e => new EpisodeDto(e.StartIndex, e.EndIndex, e.Length, e.StartOffsetNs / 1e9, e.EndOffsetNs / 1e9, e.MeanRatio, e.PeakRatio)).ToList(),
            d.PeriodSamples, d.PeriodSeconds) : null);
}
