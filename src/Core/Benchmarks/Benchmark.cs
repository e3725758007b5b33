namespace BenchDashboard.Core.Benchmarks;

/// <summary>A named, reusable benchmark definition; each execution of it is a <see cref="Runs.Run"/>.</summary>
public sealed class Benchmark
{
    public int Id { get; set; }
    public required string Name { get; set; }
    /// <summary>The <see cref="IBenchmarkKind.Name"/> of its kind ("http", "table", …).</summary>
    public required string Kind { get; set; }

    /// <summary>The kind's parameters record as JSON.</summary>
    public required string ParametersJson { get; set; }

    /// <summary>Optional cron expression of 5 fields, or 6 with seconds first (<see cref="CronSchedules"/>); null means "on demand only".</summary>
    public string? CronSchedule { get; set; }

    /// <summary>The IANA time zone its schedule is read in (daylight saving included); runs are stored in UTC all the same.</summary>
    public string TimeZone { get; set; } = CronSchedules.DefaultTimeZone;
    public bool Enabled { get; set; } = true;

    /// <summary>Pass/fail limits and the change rule's settings (<see cref="Thresholds"/>) as JSON; null for the defaults.</summary>
    public string? ThresholdsJson { get; set; }
    public long CreatedUtcMs { get; set; }

    /// <summary>Its runs are spread over this many runner agents (<see cref="Runs.Run.Agents"/>); null: the dashboard's own runner.</summary>
    public int? Agents { get; set; }

    /// <summary>Its runs measure the same workload on each of these agents in turn (<see cref="Agents.OnEach"/>) as JSON; null otherwise.</summary>
    public string? OnEachJson { get; set; }

    /// <summary>
    /// Where a run that fails, fails its limits or regresses is announced (<see cref="BenchDashboard.Core.Stores.RunNotifications"/>);
    /// stored as a JSON array, checked by <see cref="Notifications.WebhookUrls"/>.
    /// </summary>
    public List<string> WebhookUrls { get; set; } = [];

    /// <summary>The schedule slot last turned into a run; guards against enqueuing the same slot twice.</summary>
    public long? LastScheduledUtcMs { get; set; }
}
