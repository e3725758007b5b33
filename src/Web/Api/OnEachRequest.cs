using System.Text.Json;
using System.Text.Json.Nodes;
using BenchDashboard.Core.Agents;

namespace BenchDashboard.Web.Api;

/// <summary>
/// <c>onEach</c> (agent names) and <c>rounds</c> in a run request or a benchmark: the same workload on each named
/// agent in turn. Only their shapes are read here; the names, counts and the clash with <c>agents</c> are
/// <see cref="OnEachField"/>'s, so the API, the form and a stored benchmark are held to one rule.
/// </summary>
public static class OnEachRequest
{
    /// <summary>Reads the two fields through <paramref name="get"/> (null when absent or null); errors keyed by the field.</summary>
    public static OnEach? Read(Func<string, JsonNode?> get, Dictionary<string, string[]> errors)
    {
        var list = get("onEach");
        var rounds = get("rounds");
        int? count = null;
        if (rounds is not null)
        {
            if (rounds.GetValueKind() == JsonValueKind.Number && rounds.AsValue().TryGetValue(out int n)) count = n;
            else errors["rounds"] = ["rounds is a whole number of turns each agent takes."];
        }
        if (list is null)
        {
            if (rounds is not null) errors.TryAdd("rounds", ["rounds goes with onEach: how many turns each named agent takes."]);
            return null;
        }
        if (list is not JsonArray names)
        {
            errors["onEach"] = ["onEach is a list of agent names: [\"cfg0\", \"cfg1\"]."];
            return null;
        }
        var agents = new List<string>();
        for (var i = 0; i < names.Count; i++)
        {
            if (names[i]?.GetValueKind() == JsonValueKind.String) agents.Add(names[i]!.GetValue<string>());
            else errors[$"onEach[{i}]"] = ["An agent's name is text."];
        }
        return new OnEach(agents, count ?? OnEach.DefaultRounds);
    }

    /// <summary>Takes the fields off a run request's body (the rest is the kind's parameters).</summary>
    public static bool TryTake(JsonObject body, out OnEach? onEach, out Dictionary<string, string[]> errors)
    {
        errors = [];
        onEach = Read(field => body[field], errors);
        body.Remove("onEach");
        body.Remove("rounds");
        return errors.Count == 0;
    }
}
