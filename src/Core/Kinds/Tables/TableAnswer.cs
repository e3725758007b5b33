using System.Globalization;
using BenchDashboard.Core.Comparisons;
using BenchDashboard.Core.Reports;

namespace BenchDashboard.Core.Kinds.Tables;

/// <summary>The Table Storage answer as the rows a run's Markdown and text lead with: every variant per entity, against its operation's both-on variant.</summary>
public static class TableAnswer
{
    public static IReadOnlyList<AnswerTable> Of(IReadOnlyList<TableVariantFigures> figures)
    {
        var matrices = TableMatrix.From(figures);
        var byName = figures.ToDictionary(f => f.Series);
        var rows = matrices.SelectMany(m => m.All).Select(c =>
        {
            var f = byName[c.Series];
            return (IReadOnlyList<string>)
            [
                c.Series, f.EntitiesPerRequest.ToString(CultureInfo.InvariantCulture), Ms(f.P50PerEntityNs), Ms(f.P95PerEntityNs),
                f.EntitiesPerSecond is { } rate ? rate.ToString("N1", CultureInfo.InvariantCulture) : "–", c.RatioText, Call(c),
            ];
        }).ToList();
        if (rows.Count == 0) return [];
        return
        [
            new AnswerTable("Per variant, per entity",
                ["Variant", "Entities / request", "Median / entity (ms)", "p95 / entity (ms)", "Entities/s", "Median against both on", "Verdict"], rows,
                "Per entity: a request's time divided by the entities it carries, so single inserts and batches compare fairly. Each median is " +
                "against the same operation with Expect and Nagle on; the verdict calls a difference only when it stands above the variants' own noise (they took turns)."),
        ];
    }

    static string Call(TableCell c) => c.IsBaseline ? "baseline" : c.Call switch
    {
        VerdictCall.Faster => "faster",
        VerdictCall.Slower => "slower",
        VerdictCall.Equivalent => "equivalent",
        VerdictCall.NoClearDifference => "no clear difference",
        _ => "not judged",
    };

    static string Ms(double? ns) => ns is { } v ? (v / 1e6).ToString("F3", CultureInfo.InvariantCulture) : "–";
}
