using BenchDashboard.Core.Runs;
using BenchDashboard.Web.Pages.Kinds;
using BenchDashboard.Web.Pages.Shared;
using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.RazorPages;

namespace BenchDashboard.Web.Pages.Runs;

/// <summary>Starts an ad-hoc run of any kind (<c>?kind=table</c>). Invalid input is shown beside its field and nothing is queued.</summary>
public sealed class NewModel(RunQueue queue, KindForms forms) : PageModel
{
    [BindProperty(SupportsGet = true)] public string? Kind { get; set; }

    /// <summary>Spread the run over this many runner agents (issue 16); empty: this dashboard's own runner.</summary>
    [BindProperty] public int? Agents { get; set; }

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
    }

    public async Task<IActionResult> OnPostAsync(CancellationToken ct)
    {
        Current = forms.FindOrDefault(Kind);
        Form = Current.NewForm();
        await TryUpdateModelAsync(Form, Form.GetType(), Current.Pages.Prefix);
        ModelState.ForgetIgnoredFields(Form, Current.Pages.Prefix);
        if (!ModelState.IsValidFor(Current.Pages.Prefix) || !ModelState.IsValidFor(nameof(Agents)))
        {
            ModelState.KeepCheckboxesRenderable(Form, Current.Pages.Prefix);
            return Page();
        }
        var errors = new Dictionary<string, string[]>();
        var parameters = Form.ToParameters(errors);
        if (errors.Count == 0)
        {
            var result = await queue.EnqueueAsync(parameters, benchmarkId: null, ct, Agents);
            if (result.IsValid) return Redirect($"/runs/{result.Run!.Id}");
            errors = result.Errors.ToDictionary();
        }
        ModelState.AddFieldErrors(errors, Current.Pages.Prefix);
        return Page();
    }
}
