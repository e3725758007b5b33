using System.Text.Json;
using BenchDashboard.Core.Comparisons;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Web.Api;

public sealed record ComparedItemDto(string Key, string Label, long RunId, string? Series, string Status, bool IsBaseline,
    StatsDto Stats, IReadOnlyDictionary<string, double?> PercentOfBaseline);

/// <summary>
/// Change is candidate ÷ baseline − 1 of the percentile (−0.12 = 12 % faster); lower/upper bound its interval under
/// <c>noise</c> (interleaved, runGroups, runHistory, requestsOnly), which decides the <c>call</c> (faster, slower,
/// equivalent, noClearDifference, cannotTell). <c>requestsOnly</c> is the interval with requests resampled as if
/// independent, shown for contrast: it leaves out the variation between runs.
/// </summary>
public sealed record VerdictDto(string Item, string Metric, double BaselineMs, double ItemMs, double Change, double Lower, double Upper,
    double ConfidenceLevel, bool Significant, string Text, NoiseModel Noise, VerdictCall Call, string Explanation, int Resamples,
    int? BlockLength, int? BaselineRuns, int? ItemRuns, IntervalDto? RequestsOnly);

public sealed record IntervalDto(double Lower, double Upper);

/// <param name="MarginPercent">Within ± this, an interval that lies inside it is called equivalent.</param>
public sealed record ComparisonDto(string Baseline, int Seed, double MarginPercent, IReadOnlyList<ComparedItemDto> Items, IReadOnlyList<VerdictDto> Verdicts,
    IReadOnlyList<FieldDifference> Differences, IReadOnlyList<string> Warnings)
{
    public static ComparisonDto From(RunComparison c) => new(
        c.BaselineKey, c.Seed, c.Margin * 100,
        c.Items.Zip(c.Rows, (item, row) => new ComparedItemDto(item.Key, item.Label, item.Run.Id, item.Series, item.Run.Status.ToApiName(), row.IsBaseline,
            StatsDto.From(item.Statistics), row.PercentOfBaseline.ToDictionary(p => JsonNamingPolicy.CamelCase.ConvertName(p.Key.ToString()), p => p.Value))).ToList(),
        c.Verdicts.Select(v => new VerdictDto(v.ItemKey, v.Metric, Ms.Of(v.Change.BaselineNs), Ms.Of(v.Change.CandidateNs), v.Change.Change, v.Change.Lower, v.Change.Upper,
            v.Change.ConfidenceLevel, v.Call is VerdictCall.Faster or VerdictCall.Slower, v.Text, v.Noise, v.Call, v.Explanation, v.Change.Resamples,
            v.Change.BlockLength, v.Change.Runs?.Baseline, v.Change.Runs?.Candidate,
            v.RequestsOnly is { } r ? new IntervalDto(r.Lower, r.Upper) : null)).ToList(),
        c.Differences, c.Warnings);
}
