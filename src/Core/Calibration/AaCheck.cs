namespace BenchDashboard.Core.Calibration;

/// <summary>
/// An A/A check of a saved benchmark: runs of the very same settings compared with each other, to
/// learn how often this setup calls a difference where there is none and how small a real one it can see.
/// Its runs are ordinary runs (ad hoc, not the benchmark's, so its trend is not touched); the check remembers
/// which they are. A run deleted later is left out of the report.
/// </summary>
public sealed class AaCheck
{
    public int Id { get; set; }
    public int BenchmarkId { get; set; }

    /// <summary>The benchmark's name when the check started, for a check that outlives it.</summary>
    public required string BenchmarkName { get; set; }
    public long CreatedUtcMs { get; set; }

    /// <summary>Experiments of each design: interleaved A/A runs, and pairs of separate runs.</summary>
    public int Rounds { get; set; }

    /// <summary>Ids of the interleaved A/A runs (variants A and B identical), as a JSON array; empty for a kind without variants.</summary>
    public required string InterleavedRunIdsJson { get; set; }

    /// <summary>Ids of the separate runs, as a JSON array: pairs in order (first, second, first, second …).</summary>
    public required string SeparateRunIdsJson { get; set; }
}
