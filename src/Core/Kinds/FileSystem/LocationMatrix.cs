using BenchDashboard.Core.Comparisons;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Kinds.FileSystem;

/// <summary>One location's median in one phase, and how it compares with the first location in that phase.</summary>
public sealed record LocationCell(LocationFigures Figures)
{
    /// <summary>Coloured, and its ratio read as a finding, only when the verdict calls a difference.</summary>
    public bool StandsOut => Figures.MedianCall is VerdictCall.Faster or VerdictCall.Slower;

    /// <summary>"baseline", "2.81× slower", "no clear difference", "equivalent", or the ratio that was not judged.</summary>
    public string RatioText
    {
        get
        {
            if (Figures.IsBaseline) return "baseline";
            return Figures.Ratio is { } r ? Verdicts.RatioWords(r, Figures.MedianCall) : "–";
        }
    }
}

/// <summary>A location's row: its cell per phase (null where the phase did not run there).</summary>
public sealed record LocationRow(string Location, IReadOnlyList<LocationCell?> Cells);

/// <summary>
/// The file-storage answer: the locations side by side, the median operation per phase (one large write's block ≈ a
/// download's, creating a small file ≈ an extraction's step; deleting them is its <c>rm -rf</c>), each against the
/// first location in the same phase, so "up to ~20× slower on the share" reads straight off the table once the
/// verdict calls it.
/// </summary>
public sealed record LocationMatrix(string? Baseline, IReadOnlyList<string> Phases, IReadOnlyList<LocationRow> Rows)
{
    /// <summary>A download, an extraction and its deletion first, then the other phases.</summary>
    public static readonly string[] PhaseOrder =
        [FileSystemPhases.LargeWrite, FileSystemPhases.Create, FileSystemPhases.Delete, FileSystemPhases.Read, FileSystemPhases.Stat, FileSystemPhases.LargeRead];

    /// <summary>What a user would call the step a phase stands for; null for phases without one.</summary>
    public static string? Step(string phase) => phase switch
    {
        FileSystemPhases.LargeWrite => "download",
        FileSystemPhases.Create => "extract",
        _ => null,
    };

    public static LocationMatrix From(IReadOnlyList<LocationFigures> figures)
    {
        var locations = figures.Select(f => f.Location).Distinct().ToList();
        var phases = PhaseOrder.Where(p => figures.Any(f => f.Phase == p)).ToList();
        var rows = locations.Select(location => new LocationRow(location, phases.Select(phase =>
            figures.FirstOrDefault(f => f.Location == location && f.Phase == phase) is { } f ? new LocationCell(f) : null).ToList())).ToList();
        return new LocationMatrix(figures.FirstOrDefault(f => f.IsBaseline)?.Location, phases, rows);
    }
}
