namespace BenchDashboard.Web.Pages.Shared;

/// <summary>What the agents field shows: the value, and how many agents are linked now (its hint).</summary>
public sealed record AgentsFieldModel(int? Value, int Linked);
