using System.Text.Json.Serialization;
using BenchDashboard.Core.Stores;

namespace BenchDashboard.Core.Comparisons;

/// <summary>Which variation a verdict's interval includes: what decides whether it may call a difference.</summary>
[JsonConverter(typeof(JsonStringEnumConverter<NoiseModel>))]
public enum NoiseModel
{
    /// <summary>Variants interleaved in one run: a paired block bootstrap over consecutive rounds (<see cref="Statistics.BlockBootstrap"/>).</summary>
    [JsonStringEnumMemberName("interleaved")] Interleaved,

    /// <summary>Several separate runs a side: runs resampled, then requests within them (<see cref="Statistics.HierarchicalBootstrap"/>).</summary>
    [JsonStringEnumMemberName("runGroups")] RunGroups,

    /// <summary>One run a side, widened to the spread of the benchmark's identical earlier runs (<see cref="Statistics.RunToRunSpread"/>).</summary>
    [JsonStringEnumMemberName("runHistory")] RunHistory,

    /// <summary>One run a side and no history: requests alone, which leave out run-to-run variation, so no difference is called.</summary>
    [JsonStringEnumMemberName("requestsOnly")] RequestsOnly,
}

/// <summary>What a verdict says.</summary>
[JsonConverter(typeof(JsonStringEnumConverter<VerdictCall>))]
public enum VerdictCall
{
    [JsonStringEnumMemberName("faster")] Faster,
    [JsonStringEnumMemberName("slower")] Slower,
    /// <summary>The interval lies inside ± the equivalence margin.</summary>
    [JsonStringEnumMemberName("equivalent")] Equivalent,
    /// <summary>The interval includes no change but reaches beyond the margin.</summary>
    [JsonStringEnumMemberName("noClearDifference")] NoClearDifference,
    /// <summary>The noise model leaves out variation that matters (one run a side, no history): nothing is called.</summary>
    [JsonStringEnumMemberName("cannotTell")] CannotTell,
}
