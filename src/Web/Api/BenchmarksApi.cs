using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Security;
using BenchDashboard.Core.Stores;
using Microsoft.AspNetCore.Http.HttpResults;

namespace BenchDashboard.Web.Api;

/// <summary>
/// Saved benchmarks as whole definitions: read, created, replaced and deleted, each answer with an <c>ETag</c>;
/// a replace or delete with an <c>If-Match</c> that is no longer current is a 412 and changes nothing.
/// Mutations need the administrator's key (<see cref="Security.AdminGate"/>).
/// </summary>
public static class BenchmarksApi
{
    public const int MaxTrendRuns = 500;

    public static RouteGroupBuilder MapBenchmarksApi(this IEndpointRouteBuilder app)
    {
        var group = app.MapGroup("/api/benchmarks").WithTags("Benchmarks");
        // Bodies are read by ApiJson and BenchmarkBody (strict, with field errors); BenchmarkSchema types them per kind.
        group.MapGet("/", ListAsync);
        group.MapGet("/{id:int}", GetAsync).Produces<BenchmarkDto>().Produces(StatusCodes.Status404NotFound);
        group.MapPost("/", CreateAsync).Produces<BenchmarkDto>(StatusCodes.Status201Created).ProducesValidationProblem();
        group.MapPut("/{id:int}", ReplaceAsync).Produces<BenchmarkDto>().ProducesValidationProblem()
            .Produces(StatusCodes.Status404NotFound).ProducesProblem(StatusCodes.Status412PreconditionFailed);
        group.MapDelete("/{id:int}", DeleteAsync).Produces(StatusCodes.Status204NoContent).Produces(StatusCodes.Status404NotFound)
            .ProducesProblem(StatusCodes.Status412PreconditionFailed);
        group.MapPost("/{id:int}/runs", RunAsync).Produces<RunDto>(StatusCodes.Status201Created).ProducesValidationProblem().Produces(StatusCodes.Status404NotFound);
        group.MapGet("/{id:int}/trend", TrendAsync);
        group.MapGet("/{id:int}/changes", ChangesAsync);
        group.MapBenchmarkFiles();
        return group;
    }

    static async Task<Ok<List<BenchmarkDto>>> ListAsync(BenchmarkStore store, ParameterDisplay display, HttpContext context, CancellationToken ct)
    {
        var shown = RunsApi.ReaderOf(context, display);
        return TypedResults.Ok((await store.ListAsync(ct)).Select(b => BenchmarkDto.From(b, shown)).ToList());
    }

    static async Task<IResult> GetAsync(int id, BenchmarkStore store, BenchmarkDefinitions definitions, ParameterDisplay display, HttpContext context, CancellationToken ct)
    {
        if (await store.FindAsync(id, ct) is not { } benchmark) return TypedResults.NotFound();
        context.Response.Headers.ETag = definitions.ETagOf(benchmark);
        return TypedResults.Ok(BenchmarkDto.From(benchmark, RunsApi.ReaderOf(context, display)));
    }

    static async Task<IResult> CreateAsync(HttpRequest request, BenchmarkKinds kinds, BenchmarkDefinitions definitions, ParameterDisplay display, CancellationToken ct)
    {
        var (input, refused) = await ReadAsync(request, kinds, null, ct);
        if (input is null) return refused!;
        var write = await definitions.CreateAsync(input, ct);
        if (write.Outcome != DefinitionOutcome.Done) return Answer(write);
        request.HttpContext.Response.Headers.ETag = definitions.ETagOf(write.Benchmark!);
        return TypedResults.Created($"/api/benchmarks/{write.Benchmark!.Id}", BenchmarkDto.From(write.Benchmark, RunsApi.ReaderOf(request.HttpContext, display)));
    }

    /// <summary>Replaces the whole definition: what the body leaves out takes its default. Its kind cannot change.</summary>
    static async Task<IResult> ReplaceAsync(int id, HttpRequest request, BenchmarkKinds kinds, BenchmarkDefinitions definitions, ParameterDisplay display, CancellationToken ct)
    {
        var (input, refused) = await ReadAsync(request, kinds, id, ct);
        if (input is null) return refused!;
        var write = await definitions.ReplaceAsync(id, input, IfMatch(request), ct);
        if (write.Outcome != DefinitionOutcome.Done) return Answer(write);
        request.HttpContext.Response.Headers.ETag = definitions.ETagOf(write.Benchmark!);
        return TypedResults.Ok(BenchmarkDto.From(write.Benchmark!, RunsApi.ReaderOf(request.HttpContext, display)));
    }

    /// <summary>Deletes the benchmark; its runs stay and keep its name.</summary>
    static async Task<IResult> DeleteAsync(int id, HttpRequest request, BenchmarkDefinitions definitions, CancellationToken ct) =>
        Answer(new DefinitionWrite(await definitions.DeleteAsync(id, IfMatch(request), ct)));

    /// <summary>Queues a run of the saved benchmark, as its page's "Run now" does, checked again against today's limits and target policy.</summary>
    static async Task<IResult> RunAsync(int id, BenchmarkStore store, RunQueue queue, ParameterDisplay display, HttpContext context, CancellationToken ct)
    {
        if (await store.FindAsync(id, ct) is not { } benchmark) return TypedResults.NotFound();
        var result = await queue.EnqueueAsync(benchmark, ct);
        if (!result.IsValid) return TypedResults.ValidationProblem(result.Errors.ToDictionary(e => BenchmarkDefinitions.ApiField(e.Key), e => e.Value));
        return TypedResults.Created($"/api/runs/{result.Run!.Id}", RunDto.From(result.Run, RunsApi.Shown(context, display)));
    }

    /// <summary>The last <c>take</c> (default 100) completed runs of a benchmark, oldest first, each with its place in the history and pass/fail.</summary>
    static async Task<Results<Ok<TrendDto>, NotFound, ValidationProblem>> TrendAsync(int id, BenchmarkStore store, RunHistory history, CancellationToken ct, int take = 100)
    {
        if (take is < 1 or > MaxTrendRuns)
            return TypedResults.ValidationProblem(new Dictionary<string, string[]> { ["take"] = [$"Take 1 to {MaxTrendRuns} runs."] });
        if (await store.FindAsync(id, ct) is not { } benchmark) return TypedResults.NotFound();
        var points = await history.TrendAsync(benchmark, take, ct);
        return TypedResults.Ok(new TrendDto(benchmark.Id, benchmark.Name, RunHistory.ThresholdsOf(benchmark), points.Select(TrendPointDto.From).ToList()));
    }

    /// <summary>
    /// The changes found over the last <c>take</c> (default and at most 500) completed runs of a benchmark: confirmed
    /// ones newest first, a possible one pending, the levels between them, outlying runs and parameter changes.
    /// </summary>
    static async Task<Results<Ok<ChangesDto>, NotFound, ValidationProblem>> ChangesAsync(int id, BenchmarkStore store, RunHistory history, CancellationToken ct, int take = MaxTrendRuns)
    {
        if (take is < 1 or > MaxTrendRuns)
            return TypedResults.ValidationProblem(new Dictionary<string, string[]> { ["take"] = [$"Take 1 to {MaxTrendRuns} runs."] });
        if (await store.FindAsync(id, ct) is not { } benchmark) return TypedResults.NotFound();
        var (points, view) = await history.ViewAsync(benchmark, take, ct);
        return TypedResults.Ok(ChangesDto.From(benchmark, RunHistory.ThresholdsOf(benchmark), points.Count, view));
    }

    /// <summary>The body as a definition, or the answer refusing it (400 naming fields, 413, 415).</summary>
    static async Task<(BenchmarkInput? Input, IResult? Refused)> ReadAsync(HttpRequest request, BenchmarkKinds kinds, int? id, CancellationToken ct)
    {
        var (body, invalid, status) = await ApiJson.ReadObjectAsync(request, ct);
        if (body is null) return (null, TypedResults.Problem(new HttpValidationProblemDetails(invalid) { Status = status, Title = "The request body was refused." }));
        var errors = new Dictionary<string, string[]>();
        var input = BenchmarkBody.Read(body, kinds, errors, id);
        return input is null ? (null, TypedResults.ValidationProblem(errors)) : (input, null);
    }

    /// <summary>The tags of an If-Match header (weak ones never match: a write compares strongly); null without one.</summary>
    static IReadOnlyCollection<string>? IfMatch(HttpRequest request) =>
        request.Headers.IfMatch.Count == 0 ? null : request.GetTypedHeaders().IfMatch.Where(t => !t.IsWeak).Select(t => t.Tag.Value!).ToList();

    static IResult Answer(DefinitionWrite write) => write.Outcome switch
    {
        DefinitionOutcome.Done => TypedResults.NoContent(),
        DefinitionOutcome.NotFound => TypedResults.NotFound(),
        DefinitionOutcome.Stale => TypedResults.Problem(statusCode: StatusCodes.Status412PreconditionFailed, title: "The benchmark has changed since it was read",
            detail: "Nothing was changed. Read it again (GET) and send its current ETag in If-Match."),
        _ => TypedResults.ValidationProblem(write.Errors!.ToDictionary()),
    };
}
