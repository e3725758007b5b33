using BenchDashboard.Core.Benchmarks;

namespace BenchDashboard.Processing.Claiming;

/// <summary>
/// Whether this runner can run a queued run: every named connection its parameters need is configured here. With
/// several runners on one database, one without the connection leaves the run to one that has it, rather than
/// claiming it only to fail it.
/// </summary>
public sealed class RunRequirements(BenchmarkKinds kinds, NamedConnections connections)
{
    /// <summary>What the run waits for, in words for its page; null when this runner can run it.</summary>
    public string? Missing(string kindName, string parametersJson, string runnerName)
    {
        if (kinds.Find(kindName) is not { } kind) return null; // an unknown kind fails as it always has, with its reason
        object parameters;
        try
        {
            parameters = kind.Deserialize(parametersJson);
        }
        catch (System.Text.Json.JsonException)
        {
            return null;
        }
        var missing = kind.Connections(parameters).Where(name => !connections.Exists(name)).ToList();
        return missing.Count == 0 ? null
            : $"a runner with the connection string{(missing.Count > 1 ? "s" : "")} {string.Join(", ", missing.Select(m => $"'{m}'"))} (ConnectionStrings:{missing[0]}); runner {runnerName} has none";
    }
}
