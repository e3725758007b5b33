namespace BenchDashboard.Web.Pages.Shared;

/// <summary>The agents field's value, boxed: a partial given a null model is handed its page's model instead.</summary>
public sealed record AgentsFieldModel(int? Value);
