using System.Collections;
using System.Runtime.InteropServices;

namespace BenchDashboard.Core.Runs;

/// <summary>
/// Where a run executed. On App Service the WEBSITE_* variables carry the platform settings under test
/// (seed 000 compared WEBSITE_DYNAMIC_CACHE 0/1/2), so every one present is captured with the run.
/// </summary>
public sealed record EnvironmentSnapshot
{
    public required string MachineName { get; init; }
    public required string OsDescription { get; init; }
    public required string DotnetVersion { get; init; }
    public required int ProcessorCount { get; init; }
    public required SortedDictionary<string, string> PlatformVariables { get; init; }

    /// <summary>
    /// How long the runner's process had been running when the run started. A young process still runs
    /// tier-0 JIT code for several seconds (bench/README.md), so its first run measures slower than a warm
    /// one would; comparisons warn about it. Null for runs recorded before this was captured.
    /// </summary>
    public long? ProcessUptimeMs { get; init; }

    /// <summary>
    /// The process that measured: with runs on each of several agents on one machine, it tells which configuration's
    /// process measured which series. Null for runs recorded before this was captured.
    /// </summary>
    public int? ProcessId { get; init; }

    /// <summary>
    /// What the benchmark's client settled with its server on connecting, recorded by the kind when the run ends:
    /// a Redis cache run's <c>redisProtocol</c> (RESP2 or RESP3; <c>redisProtocol.A</c> for variant A), which
    /// changes the bytes on the wire and so the figures. Null for kinds that record nothing, and for older runs.
    /// </summary>
    public SortedDictionary<string, string>? Client { get; init; }

    public static EnvironmentSnapshot Capture()
    {
        var vars = new SortedDictionary<string, string>(StringComparer.Ordinal);
        foreach (DictionaryEntry e in Environment.GetEnvironmentVariables())
        {
            var name = (string)e.Key;
            if (IsPlatformVariable(name) && !LooksSecret(name)) vars[name] = Sanitize(name, e.Value as string ?? "");
        }
        return new EnvironmentSnapshot
        {
            MachineName = Environment.MachineName,
            OsDescription = RuntimeInformation.OSDescription,
            DotnetVersion = RuntimeInformation.FrameworkDescription,
            ProcessorCount = Environment.ProcessorCount,
            PlatformVariables = vars,
            ProcessId = Environment.ProcessId,
            ProcessUptimeMs = (long)(DateTime.UtcNow - System.Diagnostics.Process.GetCurrentProcess().StartTime.ToUniversalTime()).TotalMilliseconds,
        };
    }

    /// <summary>
    /// App Service sets no reliable variable naming the deployment slot, so deploy/ gives each slot a
    /// slot-sticky app setting of ours with its name.
    /// </summary>
    public const string SlotVariable = "BENCHDASHBOARD_SLOT";

    /// <summary>
    /// The platform variables recorded: the settings and placement a comparison needs, and nothing else. A
    /// catch-all WEBSITE_* would publish values such as WEBSITE_OWNER_NAME (the subscription) on public pages.
    /// </summary>
    public static readonly HashSet<string> RecordedVariables = new(StringComparer.OrdinalIgnoreCase)
    {
        "WEBSITE_SITE_NAME", "WEBSITE_INSTANCE_ID", "WEBSITE_SKU", "WEBSITE_HOSTNAME", "REGION_NAME", "WEBSITE_DYNAMIC_CACHE",
        "WEBSITE_LOCAL_CACHE_OPTION", "WEBSITE_LOCAL_CACHE_SIZEINMB", "WEBSITE_RUN_FROM_PACKAGE", "WEBSITE_PLATFORM_VERSION",
        "WEBSITE_CURRENT_STAMPNAME", "WEBSITE_HOME_STAMPNAME", "WEBSITE_OS", "WEBSITE_SLOT_NAME", SlotVariable,
    };

    static bool IsPlatformVariable(string name) => RecordedVariables.Contains(name);

    /// <summary>WEBSITE_RUN_FROM_PACKAGE may be a URL with a SAS token: record that it is a URL, not the URL.</summary>
    static string Sanitize(string name, string value) =>
        name.Equals("WEBSITE_RUN_FROM_PACKAGE", StringComparison.OrdinalIgnoreCase) && value.Contains("://", StringComparison.Ordinal) ? "(url)" : value;

    /// <summary>A field by the name the compare page and filters use: machineName, osDescription, dotnetVersion, processorCount, a variable, or a client setting.</summary>
    public string? Field(string name) => name switch
    {
        "machineName" => MachineName,
        "osDescription" => OsDescription,
        "dotnetVersion" => DotnetVersion,
        "processorCount" => ProcessorCount.ToString(),
        _ => PlatformVariables.GetValueOrDefault(name) ?? Client?.GetValueOrDefault(name),
    };

    // App Service also sets WEBSITE_AUTH_ENCRYPTION_KEY and similar; a snapshot must never carry a secret.
    static bool LooksSecret(string name) =>
        name.Contains("KEY", StringComparison.OrdinalIgnoreCase) || name.Contains("SECRET", StringComparison.OrdinalIgnoreCase)
        || name.Contains("PASSWORD", StringComparison.OrdinalIgnoreCase) || name.Contains("TOKEN", StringComparison.OrdinalIgnoreCase)
        || name.Contains("CONNECTION", StringComparison.OrdinalIgnoreCase);
}
