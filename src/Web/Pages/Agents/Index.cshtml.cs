using BenchDashboard.Web.Agents;
using Microsoft.AspNetCore.Mvc.RazorPages;

namespace BenchDashboard.Web.Pages.Agents;

/// <summary>Runner agents linked to this dashboard, and those lost in the last hour.</summary>
public sealed class IndexModel(AgentRegistry registry, AgentKeys keys) : PageModel
{
    public IReadOnlyList<AgentState> Linked { get; private set; } = [];
    public IReadOnlyList<AgentState> Lost { get; private set; } = [];

    /// <summary>Agent names with a key on this dashboard; the command to link one uses the first (or "agent1" when none has).</summary>
    public IReadOnlyList<string> KeyNames { get; private set; } = [];

    /// <summary>This dashboard's address as the visitor reached it: where an agent dials.</summary>
    public string Coordinator => $"{Request.Scheme}://{Request.Host}{Request.PathBase}";

    public string AgentName => KeyNames.FirstOrDefault() ?? "agent1";

    /// <summary>What to run on the agent's machine, in a clone of the repository (docs/agents.md).</summary>
    public string Command =>
        $"Runner__Mode=agent Runner__Coordinator={Coordinator} Runner__AgentName={AgentName} Runner__AgentKey=<its key> \\\n  dotnet run --project src/Runner -c Release";

    public void OnGet()
    {
        Linked = registry.Linked;
        Lost = registry.Lost;
        KeyNames = keys.Names;
    }
}
