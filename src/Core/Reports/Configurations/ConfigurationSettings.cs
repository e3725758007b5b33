using BenchDashboard.Core.Runs;

namespace BenchDashboard.Core.Reports.Configurations;

/// <summary>
/// What sets configurations apart, as their agents recorded it: the platform variables (WEBSITE_DYNAMIC_CACHE,
/// WEBSITE_LOCAL_CACHE_OPTION, WEBSITE_RUN_FROM_PACKAGE, REGION_NAME, WEBSITE_SKU, the slot ...) whose values differ
/// between them. What they share says nothing about the difference, and the table stays narrow.
/// </summary>
public static class ConfigurationSettings
{
    /// <summary>Per configuration, "NAME=value, NAME=value" of the differing variables (a missing one reads "(unset)"); "–" for one that recorded nothing.</summary>
    public static IReadOnlyList<string> Differing(IReadOnlyList<EnvironmentSnapshot?> environments)
    {
        var recorded = environments.OfType<EnvironmentSnapshot>().ToList();
        var names = recorded.SelectMany(e => e.PlatformVariables.Keys).Distinct(StringComparer.Ordinal).Order(StringComparer.Ordinal)
            .Where(name => recorded.Select(e => e.PlatformVariables.GetValueOrDefault(name)).Distinct().Count() > 1).ToList();
        return environments.Select(e => e is null ? "–"
            : names.Count == 0 ? "same as the others"
            : string.Join(", ", names.Select(n => $"{n}={e.PlatformVariables.GetValueOrDefault(n) ?? "(unset)"}"))).ToList();
    }
}
