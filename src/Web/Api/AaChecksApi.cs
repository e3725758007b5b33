using System.Globalization;
using BenchDashboard.Core;
using BenchDashboard.Core.Calibration;
using BenchDashboard.Core.Stores;
using Microsoft.AspNetCore.Http.HttpResults;

namespace BenchDashboard.Web.Api;

/// <summary>A/A checks of saved benchmarks: start one, read its false-call rates and detectable difference.</summary>
public static class AaChecksApi
{
    public static void MapAaChecksApi(this IEndpointRouteBuilder app)
    {
        app.MapPost("/api/benchmarks/{id:int}/aa-checks", StartAsync).WithTags("Benchmarks");
        app.MapGet("/api/aa-checks/{id:int}", GetAsync).WithTags("Benchmarks");
    }

    /// <summary>Queues an A/A check of the benchmark: <c>?rounds=</c> rounds (default 5) of an interleaved A/A run and two separate runs.</summary>
    static async Task<Results<Created<AaCheckDto>, NotFound, ValidationProblem>> StartAsync(int id, string? rounds, AaChecks checks, CancellationToken ct)
    {
        var count = AaChecks.DefaultRounds;
        if (rounds is not null && !int.TryParse(rounds, NumberStyles.None, CultureInfo.InvariantCulture, out count))
            return TypedResults.ValidationProblem(new Dictionary<string, string[]> { ["rounds"] = [$"Rounds is a whole number from {AaChecks.MinRounds} to {AaChecks.MaxRounds}."] });
        var (check, errors) = await checks.StartAsync(id, count, ct);
        if (check is null) return errors.ContainsKey("benchmark") ? TypedResults.NotFound() : TypedResults.ValidationProblem(errors);
        return TypedResults.Created($"/api/aa-checks/{check.Id}", AaCheckDto.From((await checks.ReportAsync(check.Id, ct))!));
    }

    static async Task<Results<Ok<AaCheckDto>, NotFound>> GetAsync(int id, AaChecks checks, CancellationToken ct) =>
        await checks.ReportAsync(id, ct) is { } report ? TypedResults.Ok(AaCheckDto.From(report)) : TypedResults.NotFound();
}

/// <summary>An A/A check: its runs, whether they have all ended, and per design what the compare page called (rates and changes as fractions).</summary>
public sealed record AaCheckDto(int Id, int BenchmarkId, string Benchmark, int Rounds, int Runs, int RunsEnded, bool Finished, string Page, AaDesignDto? Interleaved, AaDesignDto Separate)
{
    public static AaCheckDto From(AaCheckReport r) => new(r.Check.Id, r.Check.BenchmarkId, r.Check.BenchmarkName, r.Check.Rounds, r.Runs, r.RunsEnded, r.Finished,
        $"/benchmarks/{r.Check.BenchmarkId}/aa-check?check={r.Check.Id}", r.Interleaved is null ? null : AaDesignDto.From(r.Interleaved), AaDesignDto.From(r.Separate));
}

public sealed record AaDesignDto(int Experiments, int Judged, int Pending, int NotCompleted, int FalseCalls, int Equivalent, int NoClearDifference, int CannotTell,
    double? FalseCallRate, double? DetectableChange, IReadOnlyList<AaExperimentDto> Items)
{
    public static AaDesignDto From(AaDesign d) => new(d.Experiments.Count, d.Judged, d.Pending, d.NotCompleted, d.FalseCalls, d.Equivalent, d.NoClearDifference, d.CannotTell,
        d.FalseCallRate, d.DetectableChange, d.Experiments.Select(e => new AaExperimentDto(string.Join(",", e.Keys), Json.Serialize(e.Outcome).Trim('"'),
            e.Median is null ? null : Json.Serialize(e.Median.Call).Trim('"'), e.Median?.Text)).ToList());
}

/// <summary>One experiment: its compare items (baseline first), <c>pending</c>/<c>notCompleted</c>/<c>judged</c>, and the median verdict's call and text.</summary>
public sealed record AaExperimentDto(string Items, string Outcome, string? Call, string? Text);
