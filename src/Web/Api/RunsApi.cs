using System.Globalization;
using System.Text;
using System.Text.Json;
using System.Text.Json.Nodes;
using BenchDashboard.Core;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Comparisons;
using BenchDashboard.Core.Reports;
using BenchDashboard.Core.Reports.Configurations;
using BenchDashboard.Core.Reports.Markdown;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Runs.Text;
using BenchDashboard.Core.Security;
using BenchDashboard.Core.Statistics;
using BenchDashboard.Core.Stores;
using BenchDashboard.Web.Security;
using Microsoft.AspNetCore.Http.HttpResults;

namespace BenchDashboard.Web.Api;

public static class RunsApi
{
    /// <summary>Parameter names are checked strictly so a typo ("concurency") is an error, not a silent default.</summary>
    static readonly JsonSerializerOptions StrictJson = new(Json.Options) { UnmappedMemberHandling = System.Text.Json.Serialization.JsonUnmappedMemberHandling.Disallow };

    public static RouteGroupBuilder MapRunsApi(this IEndpointRouteBuilder app)
    {
        var group = app.MapGroup("/api/runs").WithTags("Runs");
        // The body is read by ApiJson (strict, with field errors), not bound: its shape in the OpenAPI document comes from RunRequestSchema.
        group.MapPost("/", CreateAsync)
            .Produces<RunDto>(StatusCodes.Status201Created).ProducesValidationProblem();
        group.MapGet("/", ListAsync).CacheOutput(ViewerCache.Policy);
        group.MapGet("/{id:long}", GetAsync).CacheOutput(ViewerCache.Policy)
            .Produces<RunDto>().Produces(StatusCodes.Status200OK, typeof(string), "text/markdown", "text/plain").Produces(StatusCodes.Status404NotFound)
            .ProducesProblem(StatusCodes.Status409Conflict).ProducesValidationProblem();
        group.MapPost("/{id:long}/cancel", CancelAsync);
        group.MapGet("/{id:long}/samples", SamplesAsync);
        group.MapGet("/{id:long}/analysis", AnalysisAsync)
            .Produces<RunAnalysisDto>().Produces(StatusCodes.Status200OK, typeof(string), "text/markdown", "text/plain").ProducesValidationProblem();
        // Polled every second by each viewer of a running run: one answer a second serves them all.
        group.MapGet("/{id:long}/live", LiveAsync).CacheOutput(ViewerCache.Policy);
        group.MapGet("/{id:long}/histogram.hlog", HistogramLogApi.GetAsync)
            .Produces(StatusCodes.Status200OK, contentType: "text/plain").ProducesProblem(StatusCodes.Status409Conflict).ProducesValidationProblem();
        return group;
    }

    /// <summary>Secrets in parameters for this request's reader: in full for an identified administrator, else fingerprinted.</summary>
    internal static Func<string, string> Shown(HttpContext context, ParameterDisplay display) =>
        AdminGate.IsIdentifiedAdmin(context) ? json => json : display.Redact;

    /// <summary>How this request's reader sees a saved benchmark's secrets: its parameters (<see cref="Shown"/>) and its webhook URLs.</summary>
    public sealed record Reader(Func<string, string> Parameters, Func<string, string> WebhookUrl);

    internal static Reader ReaderOf(HttpContext context, ParameterDisplay display) => AdminGate.IsIdentifiedAdmin(context)
        ? new(json => json, url => url)
        : new(display.Redact, Core.Notifications.WebhookUrls.Redact);

    /// <summary>
    /// Queues a run. Body: the kind's name and its parameters, <c>{"kind":"http","url":…,"requests":…}</c>,
    /// <c>{"kind":"table","connection":"tables",…}</c>; invalid input queues nothing.
    /// </summary>
    static async Task<IResult> CreateAsync(HttpRequest request, RunQueue queue, BenchmarkKinds kinds, ParameterDisplay display, CancellationToken ct)
    {
        var (body, invalid, status) = await ApiJson.ReadObjectAsync(request, ct);
        if (body is null) return TypedResults.Problem(new HttpValidationProblemDetails(invalid) { Status = status, Title = "The request body was refused." });
        var name = body["kind"]?.GetValueKind() == JsonValueKind.String ? body["kind"]!.GetValue<string>() : null;
        if (kinds.Find(name) is not { } kind)
            return TypedResults.ValidationProblem(new Dictionary<string, string[]> { ["kind"] = [$"Supported kinds: {string.Join(", ", kinds.All.Select(k => $"\"{k.Name}\""))}."] });
        body.Remove("kind");
        if (!RepeatRequest.TryTake(body, out var repeat, out var refused)) return TypedResults.ValidationProblem(refused);
        if (!AgentsRequest.TryTake(body, out var agents, out var badAgents)) return TypedResults.ValidationProblem(badAgents);
        if (!OnEachRequest.TryTake(body, out var onEach, out var badOnEach)) return TypedResults.ValidationProblem(badOnEach);
        try
        {
            if (repeat is not null) return await RepeatAsync(request, queue, kind, kind.Deserialize(body.ToJsonString(), StrictJson), repeat, agents, onEach, display, ct);
            var result = await queue.EnqueueAsync(kind.Deserialize(body.ToJsonString(), StrictJson), benchmarkId: null, ct, agents, onEach);
            if (!result.IsValid) return TypedResults.ValidationProblem(result.Errors);
            return TypedResults.Created($"/api/runs/{result.Run!.Id}", RunDto.From(result.Run, Shown(request.HttpContext, display)) with { Notices = result.Notices is { Count: > 0 } n ? n : null });
        }
        catch (JsonException ex)
        {
            return TypedResults.ValidationProblem(new Dictionary<string, string[]> { [ex.Path?.TrimStart('$', '.') is { Length: > 0 } path ? path : "body"] = [ex.Message] });
        }
    }

    /// <summary>
    /// <c>repeat</c>: that many runs of the same parameters, queued together; with <c>separateRuns</c>, that many
    /// rounds of one plain run per variant, A B A B … Answers the runs, their groups and their compare page.
    /// </summary>
    static async Task<IResult> RepeatAsync(HttpRequest request, RunQueue queue, IBenchmarkKind kind, object parameters, RepeatRequest repeat, int? agents, Core.Agents.OnEach? onEach, ParameterDisplay display, CancellationToken ct)
    {
        var (queued, errors) = await RepeatedRuns.QueueAsync(queue, kind, parameters, repeat, agents, ct, onEach);
        if (queued is null) return TypedResults.ValidationProblem(errors);
        var shown = Shown(request.HttpContext, display);
        return TypedResults.Created($"/api/runs/{queued.Runs[0].Id}", new RepeatDto(queued.Runs.Select(r => RunDto.From(r, shown)).ToList(), queued.Groups, queued.Compare));
    }

    /// <summary>Runs, newest first; <c>?env=WEBSITE_DYNAMIC_CACHE&amp;envValue=2</c> filters by an environment field.</summary>
    static async Task<Results<Ok<List<RunDto>>, ValidationProblem>> ListAsync(RunQueries queries, ParameterDisplay display, HttpContext context, int? benchmarkId, string? status, string? env, string? envValue, CancellationToken ct)
    {
        RunStatus? parsed = null;
        if (status is not null)
        {
            if (!Enum.TryParse<RunStatus>(status, ignoreCase: true, out var s) || int.TryParse(status, out _))
                return TypedResults.ValidationProblem(new Dictionary<string, string[]> { ["status"] = ["Unknown status."] });
            parsed = s;
        }
        var runs = await queries.ListAsync(new RunFilter(benchmarkId, parsed, EnvField: string.IsNullOrWhiteSpace(env) ? null : env.Trim(), EnvValue: envValue), ct);
        var shown = Shown(context, display);
        return TypedResults.Ok(runs.Select(r => RunDto.From(r, shown)).ToList());
    }

    /// <summary>
    /// A run with its statistics and, for a completed run of a saved benchmark, <c>thresholds</c> (pass/fail,
    /// for a CI gate) and <c>regression</c>; <c>?includeStats=false</c> skips all that (cheap polling of progress).
    /// <c>?format=markdown</c> answers a finished run's summary as Markdown tables for a post (go-wrk/ab layout,
    /// percentile ladder, per-window tables of <c>?window=</c> seconds); <c>?format=text</c> as go-wrk and ab print
    /// it (what benchdash prints); JSON is the default.
    /// </summary>
    static async Task<IResult> GetAsync(long id, RunQueries queries, RunHistory history, BenchmarkKinds kinds, ParameterDisplay display,
        Microsoft.Extensions.Options.IOptions<RunsOptions> runsOptions, HttpContext context, CancellationToken ct, bool includeStats = true, string? format = null, int? window = null)
    {
        var shown = Shown(context, display);
        if (!AnswerFormats.TryParse(format, csv: false, out var answer)) return AnswerFormats.Refused(csv: false);
        if (answer == AnswerFormat.Markdown) return await MarkdownAsync(id, queries, kinds, shown, window, ct);
        if (answer == AnswerFormat.Text && await queries.FindAsync(id, ct) is { } found && !found.Status.IsFinal()) return NotFinished(found);
        if (!includeStats && answer == AnswerFormat.Json)
            return await queries.FindAsync(id, ct) is { } run ? TypedResults.Ok(RunDto.From(run, shown)) : TypedResults.NotFound();
        if (await queries.ReportAsync(id, ct) is not { } report) return TypedResults.NotFound();
        var point = await history.PointAsync(report.Run, ct, report.Statistics);
        // Judged as its page judges it, so a pipeline gating on the API cannot pass a run the page shows red.
        var summary = report.Run.Status.IsFinal() ? point?.Summary ?? RunSummary.From(report.Statistics) : null;
        var outcome = RunOutcome.Judge(report.Run, summary, runsOptions.Value, point?.Thresholds, point?.History);
        var (lead, blended) = Framing(kinds, report);
        var dto = RunDto.From(report, shown, point, report.Digest.Figures, kinds.SeriesBasis(report.Run)) with { Outcome = OutcomeDto.From(outcome), Answer = lead.Count > 0 ? lead : null, Blended = blended };
        if (answer == AnswerFormat.Json) return TypedResults.Ok(dto);
        // Laid out from the JSON answer itself, as benchdash lays out what it reads: both print the same.
        var json = context.RequestServices.GetRequiredService<Microsoft.Extensions.Options.IOptions<Microsoft.AspNetCore.Http.Json.JsonOptions>>().Value.SerializerOptions;
        return AnswerFormats.Body(RunText.Format(JsonSerializer.SerializeToElement(dto, json)), AnswerFormat.Text);
    }

    /// <summary>
    /// The kind's answer from the run's stored figures, which its Markdown and text lead with, and whether its series
    /// may be blended into one summary (not when they are unlike operations: single inserts and batches).
    /// </summary>
    static (IReadOnlyList<AnswerTable> Answer, bool Blended) Framing(BenchmarkKinds kinds, RunReport report)
    {
        IReadOnlyList<AnswerTable> answer = [];
        try
        {
            // A run on each of several agents answers with its table per configuration, and the kind's own answer only when
            // that sets no series against another by a verdict of its own (locations, variants), which would judge turns as
            // interleaved requests and could call a difference the configuration table rightly does not.
            answer = ConfigurationAnswer.Of(report.Run, report.Digest);
            if ((answer.Count == 0 || kinds.Find(report.Run.Kind) is IKindFigures { AnswerJudgesSeries: false })
                && report.Digest.Figures is { } figures && kinds.Find(report.Run.Kind) is IKindFigures own)
                answer = [.. answer, .. own.Answer(figures)];
        }
        catch (JsonException)
        {
            // Figures of another shape (a kind's figures before they changed): the Markdown and text go without the answer.
        }
        return (answer, report.Series.Count == 0 || kinds.SeriesBasis(report.Run).Blended);
    }

    static IResult NotFinished(Run run) => TypedResults.Problem(title: "The run has not finished.",
        detail: $"Run {run.Id} is {run.Status.ToApiName()}: its summary tables come when it ends.", statusCode: StatusCodes.Status409Conflict);

    /// <summary>A finished run's Markdown (<see cref="RunMarkdown"/>), from its digest: as cheap as its page, whatever its size.</summary>
    static async Task<IResult> MarkdownAsync(long id, RunQueries queries, BenchmarkKinds kinds, Func<string, string> shown, int? window, CancellationToken ct)
    {
        if (await queries.FindAsync(id, ct) is not { } run) return TypedResults.NotFound();
        if (!run.Status.IsFinal()) return NotFinished(run);
        if (await queries.ReportAsync(id, ct) is not { } report) return TypedResults.NotFound();
        try
        {
            var (lead, blended) = Framing(kinds, report);
            return AnswerFormats.Body(RunMarkdown.Of(report.Run, report.Digest, shown(report.Run.ParametersJson), window, lead, blended), AnswerFormat.Markdown);
        }
        catch (ArgumentException ex)
        {
            return TypedResults.ValidationProblem(new Dictionary<string, string[]> { ["window"] = [ex.Message] });
        }
    }

    /// <summary>
    /// A run's progress for a live view: its status and, while it runs, its runner's live figures (<c>live</c>);
    /// cheap (one row, never the samples) and cached for a second.
    /// </summary>
    static async Task<Results<Ok<RunDto>, NotFound>> LiveAsync(long id, RunQueries queries, ParameterDisplay display, HttpContext context, CancellationToken ct) =>
        await queries.FindAsync(id, ct) is { } run ? TypedResults.Ok(RunDto.From(run, Shown(context, display))) : TypedResults.NotFound();

    static async Task<Results<Accepted, NotFound, Conflict<string>>> CancelAsync(long id, RunQueue queue, CancellationToken ct) =>
        await queue.CancelAsync(id, ct) switch
        {
            CancelOutcome.NotFound => TypedResults.NotFound(),
            CancelOutcome.AlreadyFinished => TypedResults.Conflict("The run has already finished."),
            _ => TypedResults.Accepted($"/api/runs/{id}"),
        };

    /// <summary>
    /// The time-window reading of a run: <c>?window=10</c> (seconds per time window; default: a length that gives
    /// at least 6 windows), <c>?series=read-miss</c> for one phase of a cache run, <c>?latency=service</c> for the
    /// service time of an open-model run (default: corrected latency). <c>?format=markdown</c> or <c>text</c>: its
    /// table per time window alone, the one the run page's copy buttons copy.
    /// </summary>
    static async Task<IResult> AnalysisAsync(long id, int? window, string? series, string? latency, string? format, RunQueries queries, CancellationToken ct)
    {
        if (!AnswerFormats.TryParse(format, csv: false, out var answer)) return AnswerFormats.Refused(csv: false);
        if (!LatencyBasisQuery.TryParse(latency, out var basis))
            return TypedResults.ValidationProblem(new Dictionary<string, string[]> { ["latency"] = [LatencyBasisQuery.Message] });
        if (await queries.ReportAsync(id, ct, basis) is not { } report) return TypedResults.NotFound();
        if (series is not null && report.Series.All(s => s.Name != series))
            return TypedResults.ValidationProblem(new Dictionary<string, string[]> { ["series"] = [$"Run {id} has no series '{series}'."] });
        try
        {
            var at = report.Digest.AnalysisOf(series).At(window);
            if (answer == AnswerFormat.Json) return TypedResults.Ok(RunAnalysisDto.From(at, series));
            var title = RunMarkdown.WindowsTitle(at.WindowSeconds, series) + (basis == LatencyBasis.Service ? ", service time" : "");
            var table = RunMarkdown.WindowTable(at.Windows);
            var body = new StringBuilder();
            if (answer == AnswerFormat.Markdown) table.WriteTo(body.Append("#### ").Append(MarkdownTable.Escape(title)).Append("\n\n"));
            else table.WriteTextTo(body.Append(title).Append('\n'));
            return AnswerFormats.Body(body.ToString(), answer);
        }
        catch (ArgumentException ex)
        {
            return TypedResults.ValidationProblem(new Dictionary<string, string[]> { ["window"] = [ex.Message] });
        }
    }

    /// <summary>
    /// Every sample of a run, as JSON or (with <c>?format=csv</c> or <c>Accept: text/csv</c>) as CSV, streamed
    /// as it is read: a run of a million samples never sits in memory whole.
    /// </summary>
    static async Task<IResult> SamplesAsync(long id, string? format, HttpRequest request, RunQueries queries, CancellationToken ct)
    {
        if (await queries.FindAsync(id, ct) is not { } run) return TypedResults.NotFound();
        if (run.SamplesDroppedUtcMs is { } dropped) return SamplesDropped(id, dropped);
        var csv = string.Equals(format, "csv", StringComparison.OrdinalIgnoreCase) || request.Headers.Accept.ToString().Contains("text/csv");
        if (!csv) return TypedResults.Ok(queries.StreamSamples(id).Select(SampleDto.From));
        return new SamplesCsv(queries.StreamSamples(id), $"run-{id}-samples.csv");
    }

    /// <summary>What an answer made of a run's samples says once <c>Runs:KeepSamplesDays</c> has dropped them.</summary>
    public static IResult SamplesDropped(long id, long droppedUtcMs) =>
        TypedResults.Problem($"Run {id}'s samples were dropped on {DateTimeOffset.FromUnixTimeMilliseconds(droppedUtcMs):yyyy-MM-dd HH:mm} UTC (Runs:KeepSamplesDays); its figures, windows and charts are kept.",
            statusCode: StatusCodes.Status410Gone, title: "Samples dropped");

    /// <summary>The samples as CSV, written to the response row by row.</summary>
    sealed class SamplesCsv(IAsyncEnumerable<Sample> samples, string fileName) : IResult
    {
        public async Task ExecuteAsync(HttpContext context)
        {
            context.Response.ContentType = "text/csv";
            context.Response.Headers.ContentDisposition = $"attachment; filename={fileName}";
            await using var writer = new StreamWriter(context.Response.Body, new UTF8Encoding(false), bufferSize: 64 * 1024);
            await writer.WriteAsync(SampleColumns.CsvHeader);
            await foreach (var s in samples.WithCancellation(context.RequestAborted))
                await writer.WriteAsync(SampleColumns.CsvLine(s));
        }
    }
}
