using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Stores;
using BenchDashboard.Web.Pages.Kinds;
using BenchDashboard.Web.Pages.Shared;
using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.RazorPages;

namespace BenchDashboard.Web.Pages.Benchmarks;

/// <summary>Creates or edits a saved benchmark of any kind and its schedule and limits; invalid input stores nothing.</summary>
public sealed class EditModel(BenchmarkStore store, KindForms forms, Microsoft.Extensions.Options.IOptions<Core.Notifications.WebhookOptions> webhooks) : PageModel
{
    [BindProperty] public string? Name { get; set; } // nullable: an empty name is the store's message, not a binding error
    [BindProperty] public string? CronSchedule { get; set; }
    [BindProperty] public bool Enabled { get; set; } = true;

    /// <summary>The IANA zone the schedule is read in; empty means UTC.</summary>
    [BindProperty] public string? TimeZone { get; set; } = Core.Benchmarks.CronSchedules.DefaultTimeZone;

    /// <summary>Its runs spread over this many runner agents; empty: the dashboard's own runner.</summary>
    [BindProperty] public int? Agents { get; set; }

    /// <summary>Or its runs run the same workload on each of these agents in turn (checked and typed names; the first is the baseline).</summary>
    [BindProperty] public List<string?> OnEach { get; set; } = [];

    /// <summary>How many turns each agent of <see cref="OnEach"/> takes.</summary>
    [BindProperty] public int? Rounds { get; set; }

    /// <summary>The "On each agent" field as saved or posted.</summary>
    public OnEachFieldModel OnEachField => OnEachFieldModel.Of(OnEachFieldModel.From(OnEach, Rounds), Form);
    [BindProperty(SupportsGet = true)] public string? Kind { get; set; }

    /// <summary>Webhook URLs, one a line: where a run that fails, fails its limits or regresses is announced.</summary>
    [BindProperty] public string? WebhookUrls { get; set; }

    /// <summary>Without a signing key nothing is sent; the editor says so beside the field.</summary>
    public bool SigningKeySet => !string.IsNullOrEmpty(webhooks.Value.SigningKey);
    [BindProperty] public ThresholdsForm Limits { get; set; } = new();

    /// <summary>What was saved and when its schedule runs next, said on the benchmarks list after the redirect.</summary>
    [TempData] public string? SavedMessage { get; set; }
    public int? Id { get; private set; }

    /// <summary>The benchmark being edited, for its Delete form; null for a new one.</summary>
    public Benchmark? Saved { get; private set; }

    public IReadOnlyList<KindPage> Kinds => forms.All;
    public KindPage Current { get; private set; } = null!;
    public IKindForm Form { get; private set; } = null!;

    public async Task<IActionResult> OnGetAsync(int? id, CancellationToken ct)
    {
        Id = id;
        Current = forms.FindOrDefault(Kind);
        Form = Current.NewForm();
        Limits.Describe(Form, Current.Pages.Prefix);
        if (id is null) return Page();
        if (await store.FindAsync(id.Value, ct) is not { } benchmark) return NotFound();
        if (forms.Find(benchmark.Kind) is not { } page) return NotFound(); // a kind this build no longer has
        Saved = benchmark;
        Name = benchmark.Name;
        CronSchedule = benchmark.CronSchedule;
        TimeZone = benchmark.TimeZone;
        Enabled = benchmark.Enabled;
        Agents = benchmark.Agents;
        if (Core.Agents.OnEach.Parse(benchmark.OnEachJson) is { } onEach) (OnEach, Rounds) = ([.. onEach.Agents], onEach.Rounds);
        WebhookUrls = string.Join('\n', benchmark.WebhookUrls);
        Limits = ThresholdsForm.From(RunHistory.ThresholdsOf(benchmark));
        Current = page;
        Form = page.NewForm();
        Form.Load(page.Kind.Deserialize(benchmark.ParametersJson));
        Limits.Describe(Form, Current.Pages.Prefix);
        return Page();
    }

    public async Task<IActionResult> OnPostAsync(int? id, CancellationToken ct)
    {
        Id = id;
        Current = forms.FindOrDefault(Kind);
        Form = Current.NewForm();
        var prefix = Current.Pages.Prefix;
        await TryUpdateModelAsync(Form, Form.GetType(), prefix);
        ModelState.ForgetIgnoredFields(Form, prefix);
        ModelState.KeepCheckboxesRenderable(Form, prefix);
        ModelState.KeepCheckboxRenderable(nameof(Enabled));
        if (!ModelState.IsValidFor(prefix) || !ModelState.IsValidFor(nameof(Limits)) || !ModelState.IsValidFor(nameof(Rounds))) return Refused();
        var errors = new Dictionary<string, string[]>();
        var parameters = Form.ToParameters(errors);
        if (errors.Count == 0)
        {
            // Without a signing key the field is disabled, so a browser sends none: the stored addresses stay as they are.
            var webhookUrls = WebhookUrls is null && !SigningKeySet ? null
                : (WebhookUrls ?? "").Split('\n', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries);
            (var saved, errors) = await store.SaveAsync(id, Name ?? "", parameters, CronSchedule, Enabled, ct, Limits.ToThresholds(), Agents, TimeZone ?? "", webhookUrls,
                OnEachFieldModel.From(OnEach, Rounds));
            if (saved is not null)
            {
                SavedMessage = ScheduleWords.Saved(saved, DateTimeOffset.UtcNow);
                return Redirect("/benchmarks");
            }
        }
        ModelState.AddFieldErrors(errors, prefix, thresholdsPrefix: nameof(Limits));
        return Refused();
    }

    /// <summary>The form again with its errors beside the fields, as a 400: nothing was stored.</summary>
    PageResult Refused()
    {
        Limits.Describe(Form, Current.Pages.Prefix);
        var page = Page();
        page.StatusCode = StatusCodes.Status400BadRequest;
        return page;
    }
}
