using BenchDashboard.Core.Comparisons;
using BenchDashboard.Web.Api;

namespace BenchDashboard.Web.Pages.Shared;

/// <summary>
/// The new-run form's repeat: queue the run several times and open their comparison, the form's
/// side of the API's <c>repeat</c>, <c>separateRuns</c> and <c>pick</c>. Bound with the prefix "Repeat".
/// </summary>
public sealed class RepeatFields
{
    /// <summary>Runs to queue; empty or 1 is one run, as before.</summary>
    public int? Times { get; set; }

    /// <summary>Each variant as runs of its own (A B C A B C …) rather than variants taking turns inside each run.</summary>
    public bool SeparateRuns { get; set; }

    /// <summary>"pooled" or "best", as the API's <c>pick</c>: accepted from old links; a comparison takes all of a setting's runs either way.</summary>
    public string? Pick { get; set; }

    /// <summary>A link that fills the form with the Dynamic Cache comparison's job for this dashboard (HTTP only); not bound.</summary>
    public string? ExampleLink { get; set; }

    /// <summary>Whether the kind's form has variant rows at all; not bound. Without, the choices per variant are not offered.</summary>
    [Microsoft.AspNetCore.Mvc.ModelBinding.BindNever] public bool VariantsPossible { get; set; }

    /// <summary>
    /// Whether the form as filled has variants, by the rule the API applies (<see cref="RepeatedRuns"/>: the kind's
    /// separate variants); not bound. Until then the choices per variant are hidden, and disabled so none is sent.
    /// </summary>
    [Microsoft.AspNetCore.Mvc.ModelBinding.BindNever] public bool HasVariants { get; set; }

    /// <summary>What the form may offer, from the kind and the form as filled.</summary>
    public void Describe(Core.Benchmarks.IBenchmarkKind kind, Kinds.IKindForm form, string dashboard)
    {
        ExampleLink = form.RepeatExample(dashboard);
        VariantsPossible = form.HasVariantRows;
        HasVariants = VariantsPossible && kind.SeparateVariants(form.ToParameters([])).Count > 0;
    }

    /// <summary>Null for a single run; else the repeat, or errors keyed by field ("Repeat.Times").</summary>
    public RepeatRequest? ToRequest(Dictionary<string, string[]> errors)
    {
        if (Times is null or 1)
        {
            if (SeparateRuns) errors["Repeat.Times"] = ["Runs of their own for each setting are a repeat: give the number of runs (2 or more)."];
            return null;
        }
        if (Times < 2 || Times > RepeatRequest.MaxTimes) errors["Repeat.Times"] = [$"Repeat is a number of runs from 2 to {RepeatRequest.MaxTimes} (empty: one run)."];
        if (!GroupPicks.TryParse(Pick, out var pick)) errors["Repeat.Pick"] = [GroupPicks.Message];
        return errors.Count > 0 ? null : new RepeatRequest(Times.Value, SeparateRuns, pick);
    }
}
