using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Comparisons;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Kinds.FileSystem;

/// <summary>One location's time in one phase and how it compares with the fastest location in that phase.</summary>
/// <param name="TimesFastest">Seconds ÷ the fastest location's seconds (1 for the fastest).</param>
public sealed record LocationCell(double Seconds, double? TimesFastest, bool IsFastest);

/// <summary>A location's row: its cell per phase (null where the phase did not run there).</summary>
public sealed record LocationRow(string Location, IReadOnlyList<LocationCell?> Cells);

/// <summary>
/// The file-storage answer: the locations side by side, wall time per phase (one large write ≈ its download,
/// creating many small files ≈ its extraction; deleting them is its <c>rm -rf</c>), each as a ratio to the
/// fastest location in that phase, so "up to ~20× slower on the share" reads straight off the table.
/// </summary>
public sealed record LocationMatrix(IReadOnlyList<string> Phases, IReadOnlyList<LocationRow> Rows)
{
    /// <summary>The seed's three steps first, then the phases it did not have.</summary>
    public static readonly string[] PhaseOrder =
        [FileSystemPhases.LargeWrite, FileSystemPhases.Create, FileSystemPhases.Delete, FileSystemPhases.Read, FileSystemPhases.Stat, FileSystemPhases.LargeRead];

    /// <summary>What the seed called the step a phase stands for; null for phases it did not time.</summary>
    public static string? SeedStep(string phase) => phase switch
    {
        FileSystemPhases.LargeWrite => "download",
        FileSystemPhases.Create => "extract",
        _ => null,
    };

    /// <param name="series">A file-system run's series, named "location/phase".</param>
    public static LocationMatrix From(IReadOnlyList<SeriesStatistics> series)
    {
        var seconds = new Dictionary<(string Location, string Phase), double>();
        var locations = new List<string>();
        foreach (var s in series)
        {
            var slash = s.Name.LastIndexOf('/');
            if (slash <= 0) continue;
            var (location, phase) = (s.Name[..slash], s.Name[(slash + 1)..]);
            if (!locations.Contains(location)) locations.Add(location);
            seconds[(location, phase)] = s.Statistics.ElapsedNs / 1e9;
        }
        var phases = PhaseOrder.Where(p => locations.Any(l => seconds.ContainsKey((l, p)))).ToList();
        var fastest = phases.ToDictionary(p => p, p => locations.Where(l => seconds.ContainsKey((l, p))).Min(l => seconds[(l, p)]));
        var rows = locations.Select(location => new LocationRow(location, phases.Select(phase =>
            seconds.TryGetValue((location, phase), out var s)
                ? new LocationCell(s, fastest[phase] > 0 ? s / fastest[phase] : null, s == fastest[phase])
                : null).ToList())).ToList();
        return new LocationMatrix(phases, rows);
    }
}
