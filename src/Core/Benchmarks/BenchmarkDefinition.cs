namespace BenchDashboard.Core.Benchmarks;

/// <summary>
/// What a saved benchmark is, as stored: everything its owner chose and nothing the dashboard keeps for itself
/// (id, creation time, the last schedule slot). Two benchmarks with equal definitions run the same way.
/// </summary>
public sealed record BenchmarkDefinition(
    string Name, string Kind, string ParametersJson, string? Schedule, string TimeZone, bool Enabled, string? ThresholdsJson, int? Agents,
    IReadOnlyList<string> WebhookUrls, string? OnEachJson = null)
{
    public static BenchmarkDefinition Of(Benchmark b) =>
        new(b.Name, b.Kind, b.ParametersJson, b.CronSchedule, b.TimeZone, b.Enabled, b.ThresholdsJson, b.Agents, b.WebhookUrls.ToList(), b.OnEachJson);

    /// <summary>Equal when every field is, the webhook URLs compared in order (a record alone would compare the lists' references).</summary>
    public bool Equals(BenchmarkDefinition? other) =>
        other is not null && (Name, Kind, ParametersJson, Schedule, TimeZone, Enabled, ThresholdsJson, Agents, OnEachJson)
            == (other.Name, other.Kind, other.ParametersJson, other.Schedule, other.TimeZone, other.Enabled, other.ThresholdsJson, other.Agents, other.OnEachJson)
        && WebhookUrls.SequenceEqual(other.WebhookUrls);

    public override int GetHashCode() => HashCode.Combine(Name, Kind, ParametersJson, Schedule, TimeZone, Enabled, ThresholdsJson, HashCode.Combine(Agents, OnEachJson));

    /// <summary>
    /// A strong entity tag: a hash of the stored definition, so any change to it (by the API, the form or an
    /// import) makes a client's copy stale without a version column. Keyed (<see cref="Security.ParameterDisplay.Keyed"/>):
    /// a reader who is shown fingerprints must not be able to confirm a guessed secret by hashing it.
    /// </summary>
    public string ETag(Security.ParameterDisplay display) => $"\"{display.Keyed(Json.Serialize(this))[..32]}\"";
}

/// <summary>
/// A benchmark as the API or a definition file gives it: <paramref name="Parameters"/> is a registered kind's
/// parameters record (the kind follows from its type). A replace, not a patch: what is left out takes its default.
/// </summary>
/// <param name="TimeZone">Null or empty: UTC.</param>
/// <param name="Thresholds">Null: the default change rule and no limits.</param>
/// <param name="Webhooks">The URLs told when a run fails, fails a limit or regresses; null: none.</param>
/// <param name="OnEach">Its runs run the whole workload on each of these agents in turn; null: not so.</param>
public sealed record BenchmarkInput(string? Name, object Parameters, string? Schedule, string? TimeZone, bool Enabled, Thresholds? Thresholds, int? Agents,
    IReadOnlyList<string>? Webhooks = null, Agents.OnEach? OnEach = null);
