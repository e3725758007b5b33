using BenchDashboard.Core.Agents;

namespace BenchDashboard.Web.Pages.Shared;

/// <summary>
/// The "On each agent" choice of the new-run form and the benchmark editor, the form's side of the API's <c>onEach</c>
/// and <c>rounds</c>: the pages bind <c>OnEach</c> (every checked agent and every typed name, in the order posted; the
/// first is the baseline) and <c>Rounds</c>.
/// </summary>
/// <param name="Chosen">The names chosen (posted, or saved with the benchmark), kept checked even when their agents are not linked now.</param>
/// <param name="FillsVariants">The kind's form has variant rows (HTTP): the agents' base addresses can fill them, to measure each from here.</param>
public sealed record OnEachFieldModel(IReadOnlyList<string> Chosen, int? Rounds, bool FillsVariants)
{
    /// <summary>The run's <see cref="OnEach"/> from what was posted; null when no agent was named (rounds alone mean nothing).</summary>
    /// <param name="posted">Checkbox values and typed text; typed text may hold several names, separated by commas or spaces.</param>
    public static OnEach? From(IEnumerable<string?>? posted, int? rounds)
    {
        var names = (posted ?? []).SelectMany(p => (p ?? "").Split([',', ' ', '\t', '\n', '\r'], StringSplitOptions.RemoveEmptyEntries)).ToList();
        return names.Count == 0 ? null : new OnEach(names, rounds ?? OnEach.DefaultRounds);
    }

    /// <summary>The field for a page: what is chosen, and whether the kind's form has URL variants to fill (HTTP's alone).</summary>
    public static OnEachFieldModel Of(OnEach? onEach, Kinds.IKindForm form) => new(onEach?.Agents ?? [], onEach?.Rounds, form is Kinds.Http.HttpForm);
}
