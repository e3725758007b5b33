using BenchDashboard.Core.Benchmarks;

namespace BenchDashboard.Core.Agents;

/// <summary>
/// The <c>agents</c> field of a run or a saved benchmark: 1 to <see cref="RunLimits.MaxAgentsPerRun"/>, and a
/// load the kind can divide between that many agents. Whether it divides is asked only of otherwise valid
/// parameters (the split reads them).
/// </summary>
public static class AgentsField
{
    public static void Validate(Dictionary<string, string[]> errors, IBenchmarkKind kind, object parameters, int? agents, RunLimits limits)
    {
        if (agents is not { } n) return;
        if (n < 1 || n > limits.MaxAgentsPerRun) errors.TryAdd("agents", [$"agents is a whole number from 1 to {limits.MaxAgentsPerRun} (RunLimits:MaxAgentsPerRun)."]);
        else if (errors.Count == 0 && kind.Split(parameters, n).Refusal is { } refused) errors["agents"] = [refused];
    }
}
