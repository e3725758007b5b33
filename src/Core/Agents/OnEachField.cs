using BenchDashboard.Core.Benchmarks;

namespace BenchDashboard.Core.Agents;

/// <summary>
/// The <c>onEach</c> and <c>rounds</c> fields of a run or a saved benchmark: 2 to 8 distinct agent names, 1 to 20
/// rounds. Every kind may run this way (each agent runs the whole workload, nothing is divided), so unlike
/// <see cref="AgentsField"/> the parameters are not asked whether they divide; but one run cannot both divide a load
/// and repeat it, and the repeats together must fit the run's sample budget.
/// </summary>
public static class OnEachField
{
    public static void Validate(Dictionary<string, string[]> errors, OnEach? onEach, int? agents, IBenchmarkKind kind, object parameters, RunLimits limits)
    {
        if (onEach is null) return;
        if (agents is not null)
            errors.TryAdd("onEach", ["Give agents (one load divided between that many agents) or onEach (the same workload on each named agent in turn), not both."]);
        var names = onEach.Agents ?? [];
        if (names.Count is < OnEach.MinAgents or > OnEach.MaxAgents)
            errors.TryAdd("onEach", [$"onEach names {OnEach.MinAgents} to {OnEach.MaxAgents} agents (it names {names.Count})."]);
        for (var i = 0; i < names.Count; i++)
        {
            if (!AgentProtocol.IsValidName(names[i]))
                errors.TryAdd($"onEach[{i}]", ["An agent's name is 1 to 64 letters, digits, '-', '_' or '.', as it links (Runner:AgentName)."]);
            else if (names.Take(i).Contains(names[i], StringComparer.Ordinal))
                errors.TryAdd($"onEach[{i}]", [$"'{names[i]}' is named twice: each agent runs the workload once a round."]);
        }
        if (onEach.Rounds is < 1 or > OnEach.MaxRounds)
            errors.TryAdd("rounds", [$"rounds is a whole number from 1 to {OnEach.MaxRounds}: how many turns each agent takes."]);
        // Asked only of otherwise valid parameters (the plan reads them). A run that would pass the budget stops there,
        // and the agents whose turns come later would measure nothing: refused now instead.
        else if (errors.Count == 0 && kind.Planned(parameters)?.Operations is { } operations
            && operations * names.Count * onEach.Rounds is var total && total > limits.MaxSamplesPerRun)
            errors["rounds"] = [$"{operations:N0} operations on each of {names.Count} agents {onEach.Rounds} times is {total:N0} samples; a run stores at most "
                + $"{limits.MaxSamplesPerRun:N0} (RunLimits:MaxSamplesPerRun): ask for fewer rounds, agents or operations."];
    }
}
