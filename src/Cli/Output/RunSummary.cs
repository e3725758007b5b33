using System.Globalization;
using System.Text;
using System.Text.Json;

namespace BenchDashboard.Cli.Output;

/// <summary>
/// An ended run as text in the layout the seeds' tools print: go-wrk's BENCHMARK / TIMINGS / DATA / RESPONSES
/// blocks, then ab's connection times and percentage ladder, then the run's limits and regression check.
/// Durations keep two decimals (ab rounds to whole ms, which hides a 0.8 ms warm answer).
/// </summary>
public static class RunSummary
{
    static readonly (string Label, string Field)[] Ladder =
        [("50%", "p50Ms"), ("66%", "p66Ms"), ("75%", "p75Ms"), ("80%", "p80Ms"), ("90%", "p90Ms"), ("95%", "p95Ms"), ("98%", "p98Ms"), ("99%", "p99Ms"), ("99.9%", "p999Ms")];

    public static string Format(JsonElement run, Uri dashboard)
    {
        var text = new StringBuilder();
        var parameters = run.Field("parameters") ?? default;
        var stats = run.Field("stats");

        Banner(text, "BENCHMARK");
        Line(text, "Run:", $"{run.Integer("id")} ({run.String("status")})  {new Uri(dashboard, $"runs/{run.Integer("id")}")}");
        if (run.String("benchmarkName") is { } name) Line(text, "Benchmark:", name);
        Line(text, "Kind:", run.String("kind") ?? "?");
        if (parameters.String("url") is { } url) Line(text, "URL:", url);
        if (parameters.Number("concurrency") is { } connections) Line(text, "Used Connections:", Number(connections, "0"));
        if (stats is { } s0) Line(text, "Total number of calls:", Number(s0.Number("count"), "0"));
        if (run.String("error") is { } error) Line(text, "Error:", error);
        // A run that failed before its first measured operation has empty statistics: nothing to lay out.
        if (stats is not { } s || s.Number("count") is null or 0) return Verdict(text, run).ToString();

        text.AppendLine();
        Banner(text, "TIMINGS");
        Line(text, "Total time passed:", Number(s.Number("elapsedMs") / 1000, "0.00") + "s");
        Line(text, "Avg time per request:", Ms(s.Number("meanMs")));
        Line(text, "Requests per second:", Number(s.Number("requestsPerSecond"), "0.00"));
        Line(text, "Median time per request:", Ms(s.Number("p50Ms")));
        Line(text, "99th percentile time:", Ms(s.Number("p99Ms")));
        Line(text, "Slowest time for request:", Ms(s.Number("maxMs")));

        text.AppendLine();
        Banner(text, "DATA");
        var bytesPerSecond = s.Number("bytesPerSecond");
        text.AppendLine(Invariant($"{"Total response body sizes:",-40}{s.Integer("totalBytes") ?? 0}"));
        text.AppendLine(Invariant($"{"Transfer rate per second:",-40}{Number(bytesPerSecond, "0.00")} Byte/s ({Number(bytesPerSecond / 1e6, "0.00")} MByte/s)"));

        Banner(text, "RESPONSES");
        var count = s.Number("count") ?? 0;
        var classes = s.Field("responseClasses") ?? default;
        foreach (var (label, field) in new[] { ("20X", "status2xx"), ("30X", "status3xx"), ("40X", "status4xx"), ("50X", "status5xx") })
            Share(text, label + " Responses:", classes.Integer(field) ?? 0, count);
        Share(text, "Errors:", s.Integer("errors") ?? 0, count);
        foreach (var kind in (s.Field("errorsByKind") is { ValueKind: JsonValueKind.Object } kinds ? kinds.EnumerateObject() : default))
            if (kind.Value.GetInt32() > 0) text.AppendLine(Invariant($"  {kind.Name}: {kind.Value.GetInt32()}"));

        ConnectionTimes(text, s);
        Percentages(text, s);
        Series(text, run);
        return Verdict(text, run).ToString();
    }

    /// <summary>ab's table: min, mean, standard deviation, median and max of each part of a request.</summary>
    static void ConnectionTimes(StringBuilder text, JsonElement s)
    {
        var rows = new[] { ("Connect:", s.Field("connect")), ("Processing:", s.Field("processing")), ("Waiting:", s.Field("waiting")), ("Total:", (JsonElement?)s) };
        if (rows.All(r => r.Item2 is null || r.Item2.Value.Number("p50Ms") is null)) return;
        text.AppendLine().AppendLine("Connection Times (ms)");
        text.AppendLine(Invariant($"{"",-12}{"min",9}{"mean",9}{"[+/-sd]",9}{"median",9}{"max",10}"));
        foreach (var (label, ladder) in rows)
            if (ladder is { } l && l.Number("p50Ms") is not null)
                text.AppendLine(Invariant($"{label,-12}{Number(l.Number("minMs"), "0.00"),9}{Number(l.Number("meanMs"), "0.00"),9}{Number(l.Number("stdDevMs"), "0.00"),9}{Number(l.Number("p50Ms"), "0.00"),9}{Number(l.Number("maxMs"), "0.00"),10}"));
    }

    static void Percentages(StringBuilder text, JsonElement s)
    {
        if (s.Number("p50Ms") is null) return;
        text.AppendLine().AppendLine("Percentage of the requests served within a certain time (ms)");
        foreach (var (label, field) in Ladder) text.AppendLine(Invariant($"{label,6} {Number(s.Number(field), "0.00"),10}"));
        text.AppendLine(Invariant($"{"100%",6} {Number(s.Number("maxMs"), "0.00"),10} (longest request)"));
    }

    /// <summary>Runs with phases or variants: one line per series, as a percentage of the first.</summary>
    static void Series(StringBuilder text, JsonElement run)
    {
        var series = run.Items("series").ToList();
        if (series.Count == 0) return;
        text.AppendLine().AppendLine(Invariant($"{"Series",-24}{"calls",8}{"median ms",12}{"p99 ms",12}{"req/s",12}{"median %",10}"));
        foreach (var one in series)
        {
            var s = one.Field("stats") ?? default;
            var percent = one.Field("percentOfFirst") ?? default;
            text.AppendLine(Invariant($"{one.String("name"),-24}{Number(s.Number("count"), "0"),8}{Number(s.Number("p50Ms"), "0.00"),12}{Number(s.Number("p99Ms"), "0.00"),12}{Number(s.Number("requestsPerSecond"), "0.00"),12}{Number(percent.Number("median"), "0.0"),10}"));
        }
    }

    static StringBuilder Verdict(StringBuilder text, JsonElement run)
    {
        text.AppendLine();
        Banner(text, "VERDICT");
        if (run.Field("thresholds") is { } limits)
            foreach (var check in limits.Items("checks"))
                text.AppendLine(Invariant($"{check.String("metric")} limit {Number(check.Number("limit"), "0.######")}: {Number(check.Number("actual"), "0.###")} {(check.Boolean("passed") == true ? "passed" : "FAILED")}"));
        else text.AppendLine("Limits:                         none set");
        if (run.Field("regression") is { } r)
            text.AppendLine(Invariant($"Regression:                     {(r.Boolean("flagged") == true ? "FLAGGED" : "none")} (median {Percent(r.Number("medianChange"))}, p95 {Percent(r.Number("p95Change"))} against the last {r.Integer("baselineRuns")} runs; limit {Number(r.Number("thresholdPercent"), "0.#")} %)"));
        if (run.Field("outcome") is { } outcome && outcome.String("level") is "bad" or "warning")
            text.AppendLine(Invariant($"Outcome:                        {outcome.String("label")}{(outcome.String("reason") is { } why ? $": {why}" : "")}"));
        var exit = RunOutcome.ExitCodeOf(run);
        text.AppendLine(Invariant($"Result:                         {RunOutcome.VerdictOf(exit)} (exit {exit})"));
        return text;
    }

    static void Banner(StringBuilder text, string title)
    {
        // go-wrk centres each title in 61 columns, rounding the sides up (DATA's line is 62 wide).
        var side = Math.Max(1, (61 - title.Length + 1) / 2);
        text.Append('=', side).Append(title).Append('=', side).AppendLine();
    }

    static void Line(StringBuilder text, string label, string value) => text.AppendLine(Invariant($"{label,-32}{value}"));

    static void Share(StringBuilder text, string label, long part, double whole) =>
        text.AppendLine(Invariant($"{label,-24}{part,-8}({(whole == 0 ? 0 : part * 100 / whole):0.00}%)"));

    static string Ms(double? ms) => Number(ms, "0.00") + "ms";

    static string Percent(double? fraction) => fraction is { } f ? (f * 100).ToString("+0.0;-0.0;0.0", CultureInfo.InvariantCulture) + " %" : "–";

    static string Number(double? value, string format) => value?.ToString(format, CultureInfo.InvariantCulture) ?? "–";

    static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
