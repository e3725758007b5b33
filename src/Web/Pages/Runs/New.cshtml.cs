using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Stores;
using BenchDashboard.Web.Pages.Kinds;
using BenchDashboard.Web.Pages.Shared;
using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.RazorPages;

namespace BenchDashboard.Web.Pages.Runs;

/// <summary>Starts an ad-hoc run of any kind (<c>?kind=table</c>). Invalid input is shown beside its field and nothing is queued.</summary>
public sealed class NewModel(RunQueue queue, KindForms forms) : PageModel
{
    [BindProperty(SupportsGet = true)] public string? Kind { get; set; }

    /// <summary>Spread the run over this many runner agents; empty: this dashboard's own runner.</summary>
    [BindProperty] public int? Agents { get; set; }

    /// <summary>Or the same workload on each of these agents in turn (checked and typed names; the first is the baseline).</summary>
    [BindProperty] public List<string?> OnEach { get; set; } = [];

    /// <summary>How many turns each agent of <see cref="OnEach"/> takes.</summary>
    [BindProperty] public int? Rounds { get; set; }

    /// <summary>The "On each agent" field as posted.</summary>
    public OnEachFieldModel OnEachField => OnEachFieldModel.Of(OnEachFieldModel.From(OnEach, Rounds), Form);

    /// <summary>Queue the run several times and open their comparison; also filled from the address.</summary>
    [BindProperty(SupportsGet = true)] public RepeatFields Repeat { get; set; } = new();

    public IReadOnlyList<KindPage> Kinds => forms.All;
    public KindPage Current { get; private set; } = null!;
    public IKindForm Form { get; private set; } = null!;

    /// <summary>The fields may be filled from the address too (<c>/runs/new?Http.Url=…</c>), e.g. from a link.</summary>
    public async Task OnGetAsync()
    {
        Current = forms.FindOrDefault(Kind);
        Form = Current.NewForm();
        await TryUpdateModelAsync(Form, Form.GetType(), Current.Pages.Prefix);
        ModelState.Clear(); // a half-filled link is a start, not an error
        Repeat.Describe(Current.Kind, Form, $"{Request.Scheme}://{Request.Host}");
    }

    public async Task<IActionResult> OnPostAsync(CancellationToken ct)
    {
        Current = forms.FindOrDefault(Kind);
        Form = Current.NewForm();
        await TryUpdateModelAsync(Form, Form.GetType(), Current.Pages.Prefix);
        ModelState.ForgetIgnoredFields(Form, Current.Pages.Prefix);
        Repeat.Describe(Current.Kind, Form, $"{Request.Scheme}://{Request.Host}");
        if (!ModelState.IsValidFor(Current.Pages.Prefix) || !ModelState.IsValidFor(nameof(Agents)) || !ModelState.IsValidFor(nameof(Repeat)) || !ModelState.IsValidFor(nameof(Rounds)))
        {
            ModelState.KeepCheckboxesRenderable(Form, Current.Pages.Prefix);
            return Page();
        }
        var errors = new Dictionary<string, string[]>();
        var parameters = Form.ToParameters(errors);
        var repeat = Repeat.ToRequest(errors);
        var onEach = OnEachFieldModel.From(OnEach, Rounds);
        if (errors.Count == 0 && repeat is not null)
        {
            var (queued, refused) = await BenchDashboard.Web.Api.RepeatedRuns.QueueAsync(queue, Current.Kind, parameters, repeat, Agents, ct, onEach);
            if (queued is not null) return Redirect(queued.Compare);
            errors = refused.ToDictionary(e => e.Key == "separateRuns" ? "Repeat.Times" : e.Key, e => e.Value);
        }
        else if (errors.Count == 0)
        {
            var result = await queue.EnqueueAsync(parameters, benchmarkId: null, ct, Agents, onEach);
            if (result.IsValid) return Redirect($"/runs/{result.Run!.Id}");
            errors = result.Errors.ToDictionary();
        }
        ModelState.AddFieldErrors(errors, Current.Pages.Prefix);
        return Page();
    }
}
