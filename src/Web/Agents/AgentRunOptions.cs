using System.ComponentModel.DataAnnotations;

namespace BenchDashboard.Web.Agents;

/// <summary><c>Agents:*</c>: how the dashboard runs runs spread over runner agents.</summary>
public sealed class AgentRunOptions
{
    public const string Section = "Agents";

    /// <summary>How long a run waits for enough agents to link and say ready before it fails saying how many did.</summary>
    [Range(1, 600)] public int BarrierSeconds { get; set; } = 15;

    /// <summary>Plain ws:// for agents outside Development: only on a trusted network (keys cross it in clear).</summary>
    public bool AllowInsecure { get; set; }
}
