using System.Text.Json;
using BenchDashboard.Core;
using BenchDashboard.Core.Agents;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Reports;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;
using BenchDashboard.Core.Stores;

namespace BenchDashboard.Web.Api;

/// <summary>Durations in the API are milliseconds as decimals (converted from ns, never rounded): names end in Ms.</summary>
static class Ms
{
    public static double Of(long ns) => ns / 1e6;
    public static double Of(double ns) => ns / 1e6;
}

public sealed record LadderDto(
    int Count, double MinMs, double MeanMs, double StdDevMs,
    double P50Ms, double P66Ms, double P75Ms, double P80Ms, double P90Ms, double P95Ms, double P98Ms, double P99Ms, double P999Ms,
    double MaxMs)
{
    public static LadderDto? From(LatencyLadder? l) => l is null ? null : new(
        l.Count, Ms.Of(l.MinNs), Ms.Of(l.MeanNs), Ms.Of(l.StdDevNs),
        Ms.Of(l.P50Ns), Ms.Of(l.P66Ns), Ms.Of(l.P75Ns), Ms.Of(l.P80Ns), Ms.Of(l.P90Ns), Ms.Of(l.P95Ns), Ms.Of(l.P98Ns), Ms.Of(l.P99Ns), Ms.Of(l.P999Ns),
        Ms.Of(l.MaxNs));
}

public sealed record ColdStartDto(double FirstMs, bool FirstWasWarmup, string FirstError, int? FirstStatusCode, LadderDto? WarmRest);

/// <summary>
/// The statistics of a run. The top-level latency fields (minMs … maxMs) describe total request time of
/// measured requests that got a response; count and errors account for every measured request. In an
/// open-model run that time is the corrected latency (from each request's intended start), and
/// <c>serviceTime</c> (from its actual start) and <c>lag</c> (actual − intended start) are beside it; both are
/// null in a closed run.
/// </summary>
public sealed record StatsDto(
    int Count, int Errors, IReadOnlyDictionary<string, int> ErrorsByKind, int WarmupCount,
    double ElapsedMs, double RequestsPerSecond, double SucceededPerSecond, double BytesPerSecond, long TotalBytes,
    double? MinMs, double? MeanMs, double? StdDevMs, double? P50Ms, double? P66Ms, double? P75Ms, double? P80Ms,
    double? P90Ms, double? P95Ms, double? P98Ms, double? P99Ms, double? P999Ms, double? MaxMs,
    LadderDto? Connect, LadderDto? Waiting, LadderDto? Processing,
    ResponseClasses ResponseClasses, ColdStartDto? Cold, string Model, LadderDto? ServiceTime, LadderDto? Lag)
{
    public static StatsDto From(RunStatistics s)
    {
        var l = LadderDto.From(s.Latency);
        return new StatsDto(
            s.Count, s.Errors, s.ErrorsByKind.ToDictionary(e => JsonNamingPolicy.CamelCase.ConvertName(e.Key.ToString()), e => e.Value), s.WarmupCount,
            Ms.Of(s.ElapsedNs), s.RequestsPerSecond, s.SucceededPerSecond, s.BytesPerSecond, s.TotalBytes,
            l?.MinMs, l?.MeanMs, l?.StdDevMs, l?.P50Ms, l?.P66Ms, l?.P75Ms, l?.P80Ms, l?.P90Ms, l?.P95Ms, l?.P98Ms, l?.P99Ms, l?.P999Ms, l?.MaxMs,
            LadderDto.From(s.Connect), LadderDto.From(s.Waiting), LadderDto.From(s.Processing),
            s.Classes,
            s.Cold is { } c ? new ColdStartDto(Ms.Of(c.First.LatencyNs), c.First.IsWarmup, JsonNamingPolicy.CamelCase.ConvertName(c.First.Error.ToString()), c.First.StatusCode, LadderDto.From(c.WarmRest)) : null,
            s.IsOpenModel ? "open" : "closed", LadderDto.From(s.ServiceTime), LadderDto.From(s.Lag));
    }
}

/// <summary>
/// One series of a run (a cache phase) with its statistics; hits and misses count measured reads that got
/// an answer. <see cref="PercentOfFirst"/> is the percentage table: each figure as a percentage of the first series', per
/// entity for a Table run (as its page), empty where the series are no percentages of one another (file phases).
/// </summary>
public sealed record SeriesDto(string Name, int Hits, int Misses, StatsDto Stats, IReadOnlyDictionary<string, double?> PercentOfFirst);

public sealed record RunDto(
    long Id, int? BenchmarkId, string? BenchmarkName, string Kind, string Status,
    DateTimeOffset QueuedUtc, DateTimeOffset? StartedUtc, DateTimeOffset? EndedUtc, int CompletedRequests,
    JsonElement Parameters, string? Error, EnvironmentSnapshot? Environment, CachingEvidence? CachingEvidence, RunNotes? Notes,
    StatsDto? Stats, IReadOnlyList<SeriesDto>? Series, ThresholdResult? Thresholds = null, RegressionDto? Regression = null, object? Figures = null,
    OpenLoadDto? Load = null, LiveDto? Live = null, IReadOnlyList<string>? Notices = null, int? AgentsAsked = null, IReadOnlyList<RunAgentDto>? Agents = null,
    OutcomeDto? Outcome = null, string? WaitingFor = null, bool? ThresholdsRecorded = null, ThresholdResult? ThresholdsToday = null, string? ThresholdsRemark = null,
    IReadOnlyList<AnswerTable>? Answer = null, bool? Blended = null, OnEachDto? OnEach = null, int? Iterations = null)
{
    // Answer: the kind's answer as rows of text (what the Markdown and text lead with); Blended: false when the series
    // are unlike operations, so that no figure of the run in all (its median, its ladder) describes any of them.
    // Iterations: a journey's measured iterations; its stats count requests (its steps), never the iterations with them.

    /// <summary>
    /// With its statistics, its kind's own figures (Table: per variant in entities; durations in ns, as the
    /// names say) and, for a completed run of a saved benchmark, its pass/fail result and its place in the history.
    /// <see cref="Thresholds"/> is the verdict of the limits set when the run ended (<see cref="ThresholdsRecorded"/>
    /// false: limits were not recorded then, and it is today's); <see cref="ThresholdsToday"/> is today's limits'
    /// verdict when they have changed since, and <see cref="ThresholdsRemark"/> says so in words.
    /// </summary>
    /// <param name="basis">How the run's kind compares its series (<see cref="SeriesBasis"/>): per entity for Table runs; none for file phases.</param>
    public static RunDto From(RunReport report, Func<string, string> shownParameters, HistoryPoint? point, object? figures, SeriesBasis? basis = null) =>
        From(report, shownParameters, basis) with
        {
            Thresholds = point?.Thresholds, Regression = RegressionDto.From(point?.History), Figures = figures,
            ThresholdsRecorded = point?.Limits?.Recorded, ThresholdsToday = point?.Limits?.Today, ThresholdsRemark = point?.Limits?.Remark,
        };

    /// <param name="basis">
    /// Each series' <c>percentOfFirst</c> is on the run page's basis: per unit when the kind has one (a Table run: per
    /// entity), and empty when its series are no percentages of one another (file phases).
    /// </param>
    public static RunDto From(RunReport report, Func<string, string> shownParameters, SeriesBasis? basis = null)
    {
        var series = report.Series;
        basis ??= SeriesBasis.Alike;
        var compared = series.Count == 0 || !basis.Percentages ? []
            : BaselineComparison.Compare(series.Select(s => (s.Name, s.Statistics)).ToList(), series[0].Name, basis.Unit is null ? null : basis.UnitsOf);
        if (!report.Run.Status.IsFinal()) return From(report.Run, shownParameters); // figures come when it ends; until then, live
        return From(report.Run, shownParameters, report.Statistics, series.Select((s, i) => new SeriesDto(s.Name, s.Hits, s.Misses, StatsDto.From(s.Statistics),
            compared.Count == 0 ? new Dictionary<string, double?>() : compared[i].PercentOfBaseline.ToDictionary(p => JsonNamingPolicy.CamelCase.ConvertName(p.Key.ToString()), p => p.Value))).ToList())
            with { Load = OpenLoadDto.From(report.Digest.Load), Agents = RunAgentDto.List(report.Run, report.Digest), Iterations = report.Digest.Iterations };
    }

    /// <param name="shownParameters">The parameters JSON as the reader may see it (<see cref="BenchDashboard.Core.Security.ParameterDisplay"/>).</param>
    public static RunDto From(Run run, Func<string, string> shownParameters, RunStatistics? stats = null, IReadOnlyList<SeriesDto>? series = null) => new(
        run.Id, run.BenchmarkId, run.Benchmark?.Name ?? run.BenchmarkName, run.Kind, run.Status.ToApiName(),
        FromMs(run.QueuedUtcMs), run.StartedUtcMs is { } s ? FromMs(s) : null, run.EndedUtcMs is { } e ? FromMs(e) : null,
        run.CompletedRequests,
        JsonSerializer.Deserialize<JsonElement>(shownParameters(run.ParametersJson)),
        run.Error,
        run.EnvironmentJson is null ? null : Json.Deserialize<EnvironmentSnapshot>(run.EnvironmentJson),
        run.CachingEvidenceJson is null ? null : Json.Deserialize<CachingEvidence>(run.CachingEvidenceJson),
        run.NotesJson is null ? null : Json.Deserialize<RunNotes>(run.NotesJson),
        stats is null ? null : StatsDto.From(stats),
        series, Live: run.Status.IsFinal() ? null : LiveDto.From(run.LiveJson), AgentsAsked: run.Agents, Agents: RunAgentDto.List(run, null),
        WaitingFor: run.Status == RunStatus.Queued ? run.WaitingFor : null, OnEach: OnEachDto.From(run));

    static DateTimeOffset FromMs(long ms) => DateTimeOffset.FromUnixTimeMilliseconds(ms);
}

public sealed record LiveSecondDto(int Second, int Count, int Errors, double? P50Ms, double? P95Ms, double? P99Ms);

/// <summary>
/// A run under way, from its runner's in-memory figures (approximate percentiles, within 0.1 %): elapsed time,
/// measured operations and errors, the latest seconds (<c>seconds</c>: by completion, at most 120) and every
/// k-th sample for a live chart (<c>points</c>: index, latency ms, error), the open model's late starts so far
/// (<c>late</c>) and, for a run of variants or phases, each one's own figures (<c>series</c>). A journey's figures are of
/// its requests; its whole iterations are counted apart (<c>iterations</c>, and the <c>iteration</c> row of <c>series</c>).
/// Null before the first heartbeat.
/// </summary>
public sealed record LiveDto(
    double ElapsedSeconds, int Measured, int Warmup, int Errors, IReadOnlyDictionary<string, int> ErrorsByKind,
    double? P50Ms, double? P95Ms, double? P99Ms, double? MaxMs, IReadOnlyList<LiveSecondDto> Seconds, IReadOnlyList<double[]> Points,
    int Late, IReadOnlyList<LiveSeriesDto>? Series, int? Iterations)
{
    public static LiveDto? From(string? liveJson)
    {
        if (liveJson is null) return null;
        var l = Json.Deserialize<LiveSnapshot>(liveJson);
        return new LiveDto(l.ElapsedNs / 1e9, l.Measured, l.Warmup, l.Errors,
            l.ErrorsByKind.ToDictionary(e => JsonNamingPolicy.CamelCase.ConvertName(e.Key.ToString()), e => e.Value),
            l.P50Ns / 1e6, l.P95Ns / 1e6, l.P99Ns / 1e6, l.MaxNs / 1e6,
            l.Seconds.Select(s => new LiveSecondDto(s.Second, s.Count, s.Errors, s.P50Ns / 1e6, s.P95Ns / 1e6, s.P99Ns / 1e6)).ToList(),
            l.Points.Select(p => new[] { p.Index, p.LatencyNs / 1e6, p.Error ? 1 : 0 }).ToList(),
            l.Late, l.Series?.Select(s => new LiveSeriesDto(s.Name, s.Measured, s.Errors, s.P50Ns / 1e6, s.P95Ns / 1e6, s.P99Ns / 1e6)).ToList(), l.Iterations);
    }
}

public sealed record LiveSeriesDto(string Name, int Measured, int Errors, double? P50Ms, double? P95Ms, double? P99Ms);

/// <summary>One sample; in an open-model run offsetMs is its intended start, latencyMs is corrected and lagMs is how late it started.</summary>
public sealed record SampleDto(
    int Index, bool IsWarmup, int Connection, double OffsetMs, double LatencyMs, double? HeadersMs, double? ConnectMs,
    int? StatusCode, long Bytes, string Error, string? Series, bool? Hit, double? LagMs, int? Shard)
{
    public static SampleDto From(Sample s) => new(
        s.Index, s.IsWarmup, s.Connection, Ms.Of(s.OffsetNs), Ms.Of(s.LatencyNs),
        s.HeadersNs is { } h ? Ms.Of(h) : null, s.ConnectNs is { } c ? Ms.Of(c) : null,
        s.StatusCode, s.Bytes, JsonNamingPolicy.CamelCase.ConvertName(s.Error.ToString()), s.Series, s.Hit,
        s.LagNs is { } lag ? Ms.Of(lag) : null, s.Shard);
}

/// <summary>
/// An open-model run's generator: per second from the first intended start, operations due (the target rate)
/// and started (achieved); how many started more than <c>lateThresholdMs</c> late. The lag ladder is in stats.
/// </summary>
public sealed record OpenLoadDto(IReadOnlyList<SecondRate> PerSecond, int Late, double LateThresholdMs)
{
    public static OpenLoadDto? From(OpenLoadReport? report) =>
        report is null ? null : new(report.PerSecond, report.Late, Ms.Of(OpenLoadReport.LateNs));
}

/// <summary>
/// One agent's shard of a run spread over agents (<c>agents</c>): who ran it, on what machine and how many
/// connections, its start skew against the planned start (± the clock's error), how it ended, the samples it
/// measured (said when its load ended), the dashboard received so far and stored, and, once the run has ended,
/// its rate and nearest-rank p50/p99 over its own samples.
/// </summary>
public sealed record RunAgentDto(
    int Shard, string? Agent, string? Machine, int Connections, string Status, string? Reason, double? StartSkewMs, double? ClockErrorMs,
    long SamplesMeasured, long SamplesReceived, int? SamplesStored, double? RequestsPerSecond, double? P50Ms, double? P99Ms, EnvironmentSnapshot? Environment,
    int? Turns = null)
{
    public static IReadOnlyList<RunAgentDto>? List(Run run, RunDigest? digest) => run.AgentsJson is null ? null :
        AgentRunRow.Of(run, digest).Select(r => new RunAgentDto(r.Shard.Shard, r.Shard.Agent, r.Shard.Machine, r.Shard.Connections,
            JsonNamingPolicy.CamelCase.ConvertName(r.Shard.Status.ToString()), r.Shard.Reason, r.Shard.StartSkewMs, r.Shard.ClockErrorMs, r.Shard.Samples,
            r.Shard.Received, r.Figures?.Samples, r.Figures?.RequestsPerSecond, r.Figures?.P50Ns / 1e6, r.Figures?.P99Ns / 1e6, r.Shard.Environment, r.Shard.Turns)).ToList();
}

/// <summary>A run of the same workload on each named agent in turn: the agents (the first the baseline) and the turns each was to take.</summary>
public sealed record OnEachDto(IReadOnlyList<string> Agents, int Rounds)
{
    public static OnEachDto? From(Run run) => Core.Agents.OnEach.Parse(run.OnEachJson) is { } o ? new(o.Agents, o.Rounds) : null;
}

/// <summary>
/// A run judged as its page shows it: <c>level</c> good, warning, bad or neutral; <c>label</c> ("completed", "errors",
/// "nothing measured", "limits failed", "regression", …) and the reason in words.
/// </summary>
public sealed record OutcomeDto(string Level, string Label, string? Reason)
{
    public static OutcomeDto From(RunOutcome o) => new(JsonNamingPolicy.CamelCase.ConvertName(o.Level.ToString()), o.Label, o.Reason);
}
