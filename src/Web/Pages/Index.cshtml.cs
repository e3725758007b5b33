using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Reports;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Stores;
using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.RazorPages;

namespace BenchDashboard.Web.Pages;

/// <summary>The runs list, newest first, filterable by benchmark and status; one answer a second for all viewers.</summary>
[Microsoft.AspNetCore.OutputCaching.OutputCache(PolicyName = ViewerCache.Policy)]
public sealed class IndexModel(RunQueries runs, BenchmarkStore benchmarks, RunHistory history, Microsoft.Extensions.Options.IOptions<RunsOptions> options) : PageModel
{
    /// <summary>A row's figures: from the run's stored summary once it has ended, from its live figures while it runs.</summary>
    public sealed record RunRow(Run Run, RunSummary? Summary, RunOutcome Outcome, int? Measured);

    public IReadOnlyList<RunRow> Rows { get; private set; } = [];

    [BindProperty(SupportsGet = true)] public int? BenchmarkId { get; set; }
    [BindProperty(SupportsGet = true)] public RunStatus? Status { get; set; }
    [BindProperty(SupportsGet = true)] public string? Env { get; set; }
    [BindProperty(SupportsGet = true)] public string? EnvValue { get; set; }

    public IReadOnlyList<Run> Runs { get; private set; } = [];
    public IReadOnlyList<Benchmark> Benchmarks { get; private set; } = [];

    /// <summary>Stored history judgements and pass/fail of the listed completed runs of saved benchmarks, by run id.</summary>
    public Dictionary<long, HistoryPoint> Flags { get; private set; } = [];

    /// <summary>How many runs there are in all, counted only when a filter matched none (to say so, not "No runs yet").</summary>
    public int? TotalRuns { get; private set; }

    public bool IsFiltered => BenchmarkId is not null || Status is not null || Env is not null;

    /// <summary>The filter in words for "No failed runs of Demo X with WEBSITE_DYNAMIC_CACHE = 1".</summary>
    public string NoMatch()
    {
        var words = $"No {(Status is { } s ? s.ToApiName() + " " : "")}runs";
        if (BenchmarkId is { } id) words += $" of {Benchmarks.FirstOrDefault(b => b.Id == id)?.Name ?? $"benchmark {id}"}";
        if (Env is not null) words += EnvValue is null ? $" that recorded {Env}" : $" with {Env} = {EnvValue}";
        return words;
    }

    public async Task OnGetAsync(CancellationToken ct)
    {
        Env = string.IsNullOrWhiteSpace(Env) ? null : Env.Trim();
        EnvValue = string.IsNullOrEmpty(EnvValue) ? null : EnvValue;
        Runs = await runs.ListAsync(new RunFilter(BenchmarkId, Status, EnvField: Env, EnvValue: EnvValue), ct);
        Benchmarks = await benchmarks.ListAsync(ct);
        if (Runs.Count == 0 && IsFiltered) TotalRuns = await runs.CountAsync(ct);
        foreach (var benchmark in Benchmarks.Where(b => Runs.Any(r => r.BenchmarkId == b.Id)))
            foreach (var point in await history.TrendAsync(benchmark, Runs.Count(r => r.BenchmarkId == benchmark.Id), ct, storedOnly: true))
                Flags[point.Run.Id] = point;
        Rows = Runs.Select(run =>
        {
            var summary = run.SummaryJson is null ? null : Core.Json.Deserialize<RunSummary>(run.SummaryJson);
            var flags = Flags.GetValueOrDefault(run.Id);
            int? measured = summary?.Count ?? (run.LiveJson is { } live ? Core.Json.Deserialize<LiveSnapshot>(live).Measured : null);
            return new RunRow(run, summary, RunOutcome.Judge(run, summary, options.Value, flags?.Thresholds, flags?.History), measured);
        }).ToList();
    }
}
