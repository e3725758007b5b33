using System.Globalization;
using BenchDashboard.Core.Reports;

namespace BenchDashboard.Core.Kinds.FileSystem;

/// <summary>The file-storage answer as the rows a run's Markdown and text lead with: per phase, each location's median against the first location's.</summary>
public static class LocationAnswer
{
    public static IReadOnlyList<AnswerTable> Of(IReadOnlyList<LocationFigures> figures)
    {
        var matrix = LocationMatrix.From(figures);
        if (matrix.Rows.Count == 0) return [];
        var rows = matrix.Rows.Select(row => (IReadOnlyList<string>)
            [row.Location, .. row.Cells.Select(c => c is null ? "not run" : $"{Ms(c.Figures.MedianNs)} ({c.RatioText})")]).ToList();
        return
        [
            new AnswerTable("Median operation per phase (ms), each location against " + matrix.Baseline,
                ["Location", .. matrix.Phases.Select(p => LocationMatrix.Step(p) is { } step ? $"{p} ({step})" : p)], rows,
                "Each phase against the same phase at the first location, never another phase. The locations took turns, the leader of each round drawn; " +
                "a ratio is called faster or slower only when it stands above the locations' own noise."),
        ];
    }

    static string Ms(double? ns) => ns is { } v ? (v / 1e6).ToString("F3", CultureInfo.InvariantCulture) : "–";
}
