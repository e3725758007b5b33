using System.Globalization;
using System.Text;
using System.Text.Json;

namespace BenchDashboard.Core.Runs.Text;

/// <summary>
/// An ended run as plain text in the layout the seeds' tools print: go-wrk's BENCHMARK / TIMINGS / DATA / RESPONSES
/// blocks, then ab's connection times and percentage ladder, then the run's limits and its place in its benchmark's history. Read from
/// the run as GET /api/runs/{id} answers it, so the dashboard (<c>?format=text</c>) and benchdash print the same.
/// Durations keep two decimals (ab rounds to whole ms, which hides a 0.8 ms warm answer).
/// </summary>
/// <remarks>
/// Depends on System.Text.Json alone: benchdash compiles this file in (its csproj links it) rather than carrying
/// Core's EF Core and ASP.NET Core into a dotnet tool.
/// </remarks>
public static class RunText
{
    static readonly (string Label, string Field)[] Ladder =
        [("50%", "p50Ms"), ("66%", "p66Ms"), ("75%", "p75Ms"), ("80%", "p80Ms"), ("90%", "p90Ms"), ("95%", "p95Ms"), ("98%", "p98Ms"), ("99%", "p99Ms"), ("99.9%", "p999Ms")];

    /// <summary>Everything down to the VERDICT block's last check; the caller may add lines of its own (benchdash: the exit code).</summary>
    /// <param name="link">Printed after the run's id and status (benchdash: the run's page).</param>
    public static string Format(JsonElement run, string? link = null)
    {
        var text = new StringBuilder();
        var parameters = Field(run, "parameters") ?? default;
        var stats = Field(run, "stats");

        Banner(text, "BENCHMARK");
        Line(text, "Run:", $"{Integer(run, "id")} ({String(run, "status")}){(link is null ? "" : "  " + link)}");
        if (String(run, "benchmarkName") is { } name) Line(text, "Benchmark:", name);
        if (String(parameters, "setting") is { } setting) Line(text, "Setting:", setting);
        Line(text, "Kind:", String(run, "kind") ?? "?");
        if (String(parameters, "url") is { } url) Line(text, "URL:", url);
        if (Number(parameters, "concurrency") is { } connections) Line(text, "Used Connections:", Format(connections, "0"));
        if (stats is { } s0) Line(text, "Total number of calls:", Format(Number(s0, "count"), "0"));
        if (String(run, "error") is { } error) Line(text, "Error:", error);
        // A run that failed before its first measured operation has empty statistics: nothing to lay out.
        if (stats is not { } s || Number(s, "count") is null or 0) return Verdict(text, run).ToString();
        Answer(text, run);
        // Series of unlike operations (single inserts and batches): no median or rate of them all, no ladder.
        var blended = Boolean(run, "blended") != false;

        text.AppendLine();
        Banner(text, "TIMINGS");
        Line(text, "Total time passed:", Format(Number(s, "elapsedMs") / 1000, "0.00") + "s");
        if (blended)
        {
            Line(text, "Avg time per request:", Ms(Number(s, "meanMs")));
            Line(text, "Requests per second:", Format(Number(s, "requestsPerSecond"), "0.00"));
            Line(text, "Median time per request:", Ms(Number(s, "p50Ms")));
            Line(text, "99th percentile time:", Ms(Number(s, "p99Ms")));
            Line(text, "Slowest time for request:", Ms(Number(s, "maxMs")));
        }
        else text.AppendLine("(the series are unlike operations: each one's times are under ANSWER and in the series below)");

        text.AppendLine();
        Banner(text, "DATA");
        var bytesPerSecond = Number(s, "bytesPerSecond");
        text.AppendLine(Invariant($"{"Total response body sizes:",-40}{Integer(s, "totalBytes") ?? 0}"));
        text.AppendLine(Invariant($"{"Transfer rate per second:",-40}{ByteSizes.KiBPerSecond(bytesPerSecond ?? 0)}"));

        Banner(text, "RESPONSES");
        var count = Number(s, "count") ?? 0;
        var classes = Field(s, "responseClasses") ?? default;
        foreach (var (label, field) in new[] { ("20X", "status2xx"), ("30X", "status3xx"), ("40X", "status4xx"), ("50X", "status5xx") })
            Share(text, label + " Responses:", Integer(classes, field) ?? 0, count);
        Share(text, "Errors:", Integer(s, "errors") ?? 0, count);
        foreach (var kind in (Field(s, "errorsByKind") is { ValueKind: JsonValueKind.Object } kinds ? kinds.EnumerateObject() : default))
            if (kind.Value.GetInt32() > 0) text.AppendLine(Invariant($"  {kind.Name}: {kind.Value.GetInt32()}"));

        if (blended)
        {
            ConnectionTimes(text, s);
            Percentages(text, s);
        }
        Series(text, run, blended);
        return Verdict(text, run).ToString();
    }

    /// <summary>The kind's answer (<c>answer</c>: title, columns, rows, note) first, each table's columns as wide as their widest cell.</summary>
    static void Answer(StringBuilder text, JsonElement run)
    {
        foreach (var table in Items(run, "answer"))
        {
            var rows = new[] { Items(table, "columns").Select(c => Printable(c.ToString())).ToList() }
                .Concat(Items(table, "rows").Select(r => r.EnumerateArray().Select(c => Printable(c.ToString())).ToList())).ToList();
            var widths = Enumerable.Range(0, rows.Max(r => r.Count)).Select(i => rows.Max(r => i < r.Count ? r[i].Length : 0)).ToList();
            text.AppendLine();
            Banner(text, "ANSWER");
            text.AppendLine(String(table, "title"));
            foreach (var row in rows)
                text.AppendLine(string.Join("  ", row.Select((cell, i) => i == 0 ? cell.PadRight(widths[i]) : cell.PadLeft(widths[i]))).TrimEnd());
            if (String(table, "note") is { } note) text.AppendLine(note);
        }
    }

    /// <summary>ab's table: min, mean, standard deviation, median and max of each part of a request.</summary>
    static void ConnectionTimes(StringBuilder text, JsonElement s)
    {
        var rows = new[] { ("Connect:", Field(s, "connect")), ("Processing:", Field(s, "processing")), ("Waiting:", Field(s, "waiting")), ("Total:", (JsonElement?)s) };
        if (rows.All(r => r.Item2 is null || Number(r.Item2.Value, "p50Ms") is null)) return;
        text.AppendLine().AppendLine("Connection Times (ms)");
        text.AppendLine(Invariant($"{"",-12}{"min",9}{"mean",9}{"[+/-sd]",9}{"median",9}{"max",10}"));
        foreach (var (label, ladder) in rows)
            if (ladder is { } l && Number(l, "p50Ms") is not null)
                text.AppendLine(Invariant($"{label,-12}{Format(Number(l, "minMs"), "0.00"),9}{Format(Number(l, "meanMs"), "0.00"),9}{Format(Number(l, "stdDevMs"), "0.00"),9}{Format(Number(l, "p50Ms"), "0.00"),9}{Format(Number(l, "maxMs"), "0.00"),10}"));
    }

    static void Percentages(StringBuilder text, JsonElement s)
    {
        if (Number(s, "p50Ms") is null) return;
        text.AppendLine().AppendLine("Percentage of the requests served within a certain time (ms)");
        foreach (var (label, field) in Ladder) text.AppendLine(Invariant($"{label,6} {Format(Number(s, field), "0.00"),10}"));
        text.AppendLine(Invariant($"{"100%",6} {Format(Number(s, "maxMs"), "0.00"),10} (longest request)"));
    }

    /// <summary>Runs with phases or variants: one line per series, as a percentage of the first.</summary>
    /// <param name="blended">False for unlike operations: no series is a percentage of another.</param>
    static void Series(StringBuilder text, JsonElement run, bool blended)
    {
        var series = Items(run, "series").ToList();
        if (series.Count == 0) return;
        text.AppendLine().AppendLine(Invariant($"{"Series",-24}{"calls",8}{"median ms",12}{"p99 ms",12}{"req/s",12}{(blended ? "median %" : ""),10}").TrimEnd());
        foreach (var one in series)
        {
            var s = Field(one, "stats") ?? default;
            var percent = blended ? Format(Number(Field(one, "percentOfFirst") ?? default, "median"), "0.0") : "";
            text.AppendLine(Invariant($"{String(one, "name"),-24}{Format(Number(s, "count"), "0"),8}{Format(Number(s, "p50Ms"), "0.00"),12}{Format(Number(s, "p99Ms"), "0.00"),12}{Format(Number(s, "requestsPerSecond"), "0.00"),12}{percent,10}").TrimEnd());
        }
    }

    static StringBuilder Verdict(StringBuilder text, JsonElement run)
    {
        text.AppendLine();
        Banner(text, "VERDICT");
        if (Field(run, "thresholds") is { } limits)
            foreach (var check in Items(limits, "checks"))
                text.AppendLine(Invariant($"{String(check, "metric")} limit {Format(Number(check, "limit"), "0.######")}: {Format(Number(check, "actual"), "0.###")} {(Boolean(check, "passed") == true ? "passed" : "FAILED")}"));
        else text.AppendLine("Limits:                         none set");
        if (String(run, "thresholdsRemark") is { } remark) text.AppendLine(Invariant($"Limits today:                   {remark}"));
        if (Field(run, "regression") is { } r)
            text.AppendLine(Invariant($"History:                        {(Boolean(r, "flagged") == true ? "FLAGGED " : "")}{String(r, "summary")}"));
        if (Field(run, "outcome") is { } outcome && String(outcome, "level") is "bad" or "warning")
            text.AppendLine(Invariant($"Outcome:                        {String(outcome, "label")}{(String(outcome, "reason") is { } why ? $": {why}" : "")}"));
        return text;
    }

    static void Banner(StringBuilder text, string title)
    {
        // go-wrk centres each title in 61 columns, rounding the sides up (DATA's line is 62 wide).
        var side = Math.Max(1, (61 - title.Length + 1) / 2);
        text.Append('=', side).Append(title).Append('=', side).AppendLine();
    }

    /// <summary>A labelled line of the VERDICT block, aligned as the rest (for what a caller adds after <see cref="Format(JsonElement, string?)"/>).</summary>
    public static string Line(string label, string value) => Invariant($"{label,-32}{value}");

    static void Line(StringBuilder text, string label, string value) => text.AppendLine(Line(label, value));

    static void Share(StringBuilder text, string label, long part, double whole) =>
        text.AppendLine(Invariant($"{label,-24}{part,-8}({(whole == 0 ? 0 : part * 100 / whole):0.00}%)"));

    static string Ms(double? ms) => Format(ms, "0.00") + "ms";


    static string Format(double? value, string format) => value?.ToString(format, CultureInfo.InvariantCulture) ?? "–";

    static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);

    // Lenient reads of the answer: a field that is missing or null reads as null.
    static JsonElement? Field(JsonElement element, string name) =>
        element.ValueKind == JsonValueKind.Object && element.TryGetProperty(name, out var value) && value.ValueKind != JsonValueKind.Null ? value : null;

    static string? String(JsonElement element, string name) =>
        Field(element, name) is { } v ? Printable(v.ValueKind == JsonValueKind.String ? v.GetString()! : v.GetRawText()) : null;

    /// <summary>
    /// A text as a terminal can print it without being steered: control characters (a line break that would forge a
    /// "VERDICT: PASSED" line, an escape sequence that writes a link or a colour) and invisible formatting (direction
    /// marks) as \u escapes. Everything printed comes from the answer through here: names made before names were checked
    /// too.
    /// </summary>
    public static string Printable(string text)
    {
        if (!text.Any(Steers)) return text;
        var shown = new StringBuilder(text.Length + 16);
        foreach (var c in text)
            if (Steers(c)) shown.Append(Invariant($"\\u{(int)c:X4}"));
            else shown.Append(c);
        return shown.ToString();
    }

    static bool Steers(char c) =>
        char.IsControl(c) || CharUnicodeInfo.GetUnicodeCategory(c) is UnicodeCategory.Format or UnicodeCategory.LineSeparator or UnicodeCategory.ParagraphSeparator;

    static double? Number(JsonElement element, string name) => Field(element, name) is { ValueKind: JsonValueKind.Number } v ? v.GetDouble() : null;

    static long? Integer(JsonElement element, string name) => Field(element, name) is { ValueKind: JsonValueKind.Number } v && v.TryGetInt64(out var n) ? n : null;

    static bool? Boolean(JsonElement element, string name) => Field(element, name) is { ValueKind: JsonValueKind.True or JsonValueKind.False } v ? v.GetBoolean() : null;

    static IEnumerable<JsonElement> Items(JsonElement element, string name) => Field(element, name) is { ValueKind: JsonValueKind.Array } v ? v.EnumerateArray() : [];
}
