using BenchDashboard.Web.Agents;
using Microsoft.AspNetCore.Mvc.RazorPages;

namespace BenchDashboard.Web.Pages.Agents;

/// <summary>Runner agents linked to this dashboard, and those lost in the last hour.</summary>
public sealed class IndexModel(AgentRegistry registry) : PageModel
{
    public IReadOnlyList<AgentState> Linked { get; private set; } = [];
    public IReadOnlyList<AgentState> Lost { get; private set; } = [];

    public void OnGet()
    {
        Linked = registry.Linked;
        Lost = registry.Lost;
    }
}
