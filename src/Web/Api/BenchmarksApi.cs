using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Runs;
using Microsoft.AspNetCore.Http.HttpResults;

namespace BenchDashboard.Web.Api;

public static class BenchmarksApi
{
    public const int MaxTrendRuns = 500;

    public static RouteGroupBuilder MapBenchmarksApi(this IEndpointRouteBuilder app)
    {
        var group = app.MapGroup("/api/benchmarks").WithTags("Benchmarks");
        group.MapGet("/{id:int}/trend", TrendAsync);
        return group;
    }

    /// <summary>The last <c>take</c> (default 100) completed runs of a benchmark, oldest first, with regression flags and pass/fail.</summary>
    static async Task<Results<Ok<TrendDto>, NotFound, ValidationProblem>> TrendAsync(int id, BenchmarkStore store, RunHistory history, CancellationToken ct, int take = 100)
    {
        if (take is < 1 or > MaxTrendRuns)
            return TypedResults.ValidationProblem(new Dictionary<string, string[]> { ["take"] = [$"Take 1 to {MaxTrendRuns} runs."] });
        if (await store.FindAsync(id, ct) is not { } benchmark) return TypedResults.NotFound();
        var points = await history.TrendAsync(benchmark, take, ct);
        return TypedResults.Ok(new TrendDto(benchmark.Id, benchmark.Name, RunHistory.ThresholdsOf(benchmark), points.Select(TrendPointDto.From).ToList()));
    }
}
