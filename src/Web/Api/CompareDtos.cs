using System.Text.Json;
using BenchDashboard.Core.Comparisons;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Web.Api;

public sealed record ComparedItemDto(string Key, string Label, long RunId, string? Series, string Status, bool IsBaseline,
    StatsDto Stats, IReadOnlyDictionary<string, double?> PercentOfBaseline);

/// <summary>Change is candidate ÷ baseline − 1 of the percentile (−0.12 = 12 % faster); lower/upper bound its interval.</summary>
public sealed record VerdictDto(string Item, string Metric, double BaselineMs, double ItemMs, double Change, double Lower, double Upper,
    double ConfidenceLevel, bool Significant, string Text);

public sealed record ComparisonDto(string Baseline, int Seed, int Resamples, IReadOnlyList<ComparedItemDto> Items, IReadOnlyList<VerdictDto> Verdicts,
    IReadOnlyList<FieldDifference> Differences, IReadOnlyList<string> Warnings)
{
    public static ComparisonDto From(RunComparison c) => new(
        c.BaselineKey, c.Seed, Bootstrap.DefaultResamples,
        c.Items.Zip(c.Rows, (item, row) => new ComparedItemDto(item.Key, item.Label, item.Run.Id, item.Series, item.Run.Status.ToApiName(), row.IsBaseline,
            StatsDto.From(item.Statistics), row.PercentOfBaseline.ToDictionary(p => JsonNamingPolicy.CamelCase.ConvertName(p.Key.ToString()), p => p.Value))).ToList(),
        c.Verdicts.Select(v => new VerdictDto(v.ItemKey, v.Metric, Ms.Of(v.Change.BaselineNs), Ms.Of(v.Change.CandidateNs), v.Change.Change, v.Change.Lower, v.Change.Upper,
            v.Change.ConfidenceLevel, v.Change.IsSignificant, v.Text)).ToList(),
        c.Differences, c.Warnings);
}
