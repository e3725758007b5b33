using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Data;

/// <summary>A run's <see cref="RunDigest"/> as stored, one per latency basis (an open-model run has two).</summary>
public sealed class StoredDigest
{
    public long RunId { get; set; }
    public LatencyBasis Basis { get; set; }

    /// <summary><see cref="RunDigest.CurrentVersion"/> when it was built; an older one is built again.</summary>
    public int Version { get; set; }

    public required string Json { get; set; }
}

/// <summary>
/// One item's sorted answered latencies (<see cref="SortedLatencies"/>): the whole run (<see cref="RunDigest.WholeRun"/>)
/// or one series, for comparisons to resample without reading the samples.
/// </summary>
public sealed class StoredLatencies
{
    public long RunId { get; set; }
    public LatencyBasis Basis { get; set; }
    public required string Series { get; set; }
    public int Count { get; set; }
    public required byte[] Data { get; set; }
}
