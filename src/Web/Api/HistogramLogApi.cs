using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;
using BenchDashboard.Core.Stores;

namespace BenchDashboard.Web.Api;

/// <summary>
/// <c>GET /api/runs/{id}/histogram.hlog</c>: a finished run's latencies as an HdrHistogram interval log
/// (<see cref="LatencyIntervalLog"/>), for HdrHistogram's own tools. <c>?series=read-miss</c> for one series,
/// <c>?latency=service</c> for an open-model run's service time (default: corrected latency), as the analysis.
/// </summary>
public static class HistogramLogApi
{
    public static async Task<IResult> GetAsync(long id, string? series, string? latency, RunQueries queries, CancellationToken ct)
    {
        if (!LatencyBasisQuery.TryParse(latency, out var basis))
            return TypedResults.ValidationProblem(new Dictionary<string, string[]> { ["latency"] = [LatencyBasisQuery.Message] });
        if (await queries.FindAsync(id, ct) is not { } run) return TypedResults.NotFound();
        // A log of a run under way would be cut at an arbitrary second and read as if complete.
        if (!run.Status.IsFinal())
            return TypedResults.Problem($"Run {id} is {run.Status.ToApiName()}: its log can be had once it has ended.", statusCode: StatusCodes.Status409Conflict, title: "The run has not ended.");
        // The log is the latencies in the order they started, which only the samples hold.
        if (run.SamplesDroppedUtcMs is { } dropped) return RunsApi.SamplesDropped(id, dropped);
        if (series is not null && !await queries.HasSeriesAsync(id, series, ct))
            return TypedResults.ValidationProblem(new Dictionary<string, string[]> { ["series"] = [$"Run {id} has no series '{series}'."] });

        // A closed run has no schedule to correct against: its latency is one figure, not a "corrected" one.
        var openModel = (await queries.ReportAsync(id, ct))?.Statistics.IsOpenModel == true;
        var which = openModel ? $"{basis.ToString().ToLowerInvariant()} latency" : "latency";
        string[] comments =
        [
            $"BenchDashboard run {id}{(series is null ? "" : $", series {series}")}: {which} of each measured operation with a response",
            "Values are nanoseconds (3 significant digits); Interval_Max is in milliseconds (HistogramLogProcessor's default outputValueUnitRatio 1e6)",
            "One interval per second of the run, by when each operation started (was due, in the open model); warm-up and failures without a response (refused, reset, timed out) left out",
        ];
        var startUtc = DateTimeOffset.FromUnixTimeMilliseconds(run.StartedUtcMs ?? run.QueuedUtcMs).UtcDateTime;
        return new LogResult(id, output => LatencyIntervalLog.WriteAsync(output, startUtc, queries.StreamRankedLatencies(id, series, basis, ct), comments, ct));
    }

    sealed class LogResult(long id, Func<Stream, Task> write) : IResult
    {
        public async Task ExecuteAsync(HttpContext context)
        {
            context.Response.ContentType = "text/plain; charset=utf-8";
            context.Response.Headers.ContentDisposition = $"attachment; filename=run-{id}.hlog";
            await write(context.Response.Body);
        }
    }
}
