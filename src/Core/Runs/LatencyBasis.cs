using System.Text.Json.Serialization;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Runs;

/// <summary>
/// Which latency a figure ranks. In the closed model the two are the same. In the open model a sample's
/// latency is corrected (from its intended start on the schedule, so a stall counts for everyone who arrived
/// during it) and its service time is from its actual start (what the target took once asked).
/// </summary>
public enum LatencyBasis
{
    [JsonStringEnumMemberName("corrected")] Corrected,
    [JsonStringEnumMemberName("service")] Service,
}
