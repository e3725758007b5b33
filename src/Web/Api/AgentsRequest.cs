using System.Text.Json;
using System.Text.Json.Nodes;

namespace BenchDashboard.Web.Api;

/// <summary>
/// <c>agents</c> in a run request: spread the run over that many runner agents on other machines.
/// Taken off the body before the kind reads its parameters; whether the kind's load divides is the queue's check.
/// </summary>
public static class AgentsRequest
{
    public static bool TryTake(JsonObject body, out int? agents, out Dictionary<string, string[]> errors)
    {
        agents = null;
        errors = [];
        var node = body["agents"];
        body.Remove("agents");
        if (node is null) return true;
        if (node.GetValueKind() != JsonValueKind.Number || !node.AsValue().TryGetValue(out int n))
        {
            errors["agents"] = ["agents is a whole number of runner agents to spread the run over."];
            return false;
        }
        agents = n;
        return true;
    }
}
