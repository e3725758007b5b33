using System.Text.Json;
using System.Text.Json.Nodes;

namespace BenchDashboard.Web.Api;

/// <summary>
/// The fields of a run request that ask for several runs rather than describe one: <c>repeat</c> (2 to
/// <see cref="MaxTimes"/>), <c>separateRuns</c> and <c>pick</c> (how the comparison takes each group: "pooled" or
/// "best"). Taken off the body before the kind reads its parameters.
/// </summary>
public sealed record RepeatRequest(int Times, bool SeparateRuns, BenchDashboard.Core.Comparisons.GroupPick Pick = BenchDashboard.Core.Comparisons.GroupPick.Pooled)
{
    public const int MaxTimes = 20;

    public static bool TryTake(JsonObject body, out RepeatRequest? repeat, out Dictionary<string, string[]> errors)
    {
        repeat = null;
        errors = [];
        var times = body["repeat"];
        var separate = body["separateRuns"];
        var pickNode = body["pick"];
        body.Remove("repeat");
        body.Remove("separateRuns");
        body.Remove("pick");
        if (times is null && separate is null && pickNode is null) return true;
        if (times is null || times.GetValueKind() != JsonValueKind.Number || !times.AsValue().TryGetValue(out int n) || n < 2 || n > MaxTimes)
            errors["repeat"] = [$"repeat is a whole number of runs from 2 to {MaxTimes}."];
        if (separate is not null && separate.GetValueKind() is not (JsonValueKind.True or JsonValueKind.False))
            errors["separateRuns"] = ["separateRuns is true or false."];
        var pick = BenchDashboard.Core.Comparisons.GroupPick.Pooled;
        if (pickNode is not null && (pickNode.GetValueKind() != JsonValueKind.String || !BenchDashboard.Core.Comparisons.GroupPicks.TryParse(pickNode.GetValue<string>(), out pick)))
            errors["pick"] = [BenchDashboard.Core.Comparisons.GroupPicks.Message];
        if (errors.Count > 0) return false;
        repeat = new RepeatRequest((int)times!, separate?.GetValue<bool>() == true, pick);
        return true;
    }
}

/// <summary>Runs queued together; <c>groups</c> are their ids as compare items (one group per variant: "12+14+16"; per variant and phase for a cache run: "12/write+14/write"); <c>compare</c> their comparison's page.</summary>
public sealed record RepeatDto(IReadOnlyList<RunDto> Runs, IReadOnlyList<string> Groups, string Compare);
