using System.Globalization;
using System.Text;
using System.Text.Json;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Reports.Markdown;

/// <summary>
/// A finished run as the Markdown users paste into a post: the summary in go-wrk's and ab's layout
/// (requests, failures, time taken, requests/s, mean, median, 99th percentile, slowest, bytes, response classes),
/// ab's "served within a certain time" ladder, ab's connection times, a table per time window (Avg, 80 %,
/// 90 %, 95 %, Min, Max) and, for a run of several series, each series beside the first. Pure: the caller hands it
/// the digest and the parameters as the reader may see them (secrets fingerprinted for anyone but an administrator).
/// Times in milliseconds with three decimals, as ab prints them; numbers in the invariant culture.
/// </summary>
public static class RunMarkdown
{
    static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    /// <param name="shownParametersJson">The run's parameters as this reader may see them (<see cref="Security.ParameterDisplay.Redact"/>).</param>
    /// <param name="windowSeconds">The window length of the per-window tables; the run's default when null.</param>
    /// <exception cref="ArgumentException">A window length the digest does not hold (the message lists those it does).</exception>
    /// <param name="answer">The kind's answer (<see cref="IKindFigures.Answer"/>): the tables the Markdown leads with.</param>
    /// <param name="blended">
    /// False when the run's series are unlike operations (<see cref="Benchmarks.SeriesBasis.Blended"/>): no figure blends
    /// them (no median, ladder or rate of them all), no series is a percentage of another, and the per-window tables,
    /// one per series and hundreds of rows in all, come only when <paramref name="windowSeconds"/> asks for them.
    /// </param>
    public static string Of(Run run, RunDigest digest, string shownParametersJson, int? windowSeconds = null,
        IReadOnlyList<AnswerTable>? answer = null, bool blended = true)
    {
        var md = new StringBuilder();
        var s = digest.Statistics;
        var name = RunNames.Named(run);
        md.Append("### Run ").Append(run.Id.ToString(Invariant)).Append(": ")
          .Append(MarkdownTable.Escape(name is { Length: > 0 } ? $"{name} ({run.Kind})" : run.Kind)).Append("\n\n");

        foreach (var table in answer ?? [])
        {
            md.Append("#### ").Append(MarkdownTable.Escape(table.Title)).Append("\n\n");
            var lead = new MarkdownTable([.. table.Columns.Select((c, i) => i == 0 ? c : ">" + c)]);
            foreach (var row in table.Rows) lead.Row([.. row]);
            lead.WriteTo(md);
            md.Append('\n').Append(MarkdownTable.Escape(table.Note)).Append("\n\n");
        }
        if (!blended) md.Append("#### The run in all\n\n");
        Summary(run, s, shownParametersJson, digest.Series.Count, blended).WriteTo(md);
        if (blended && s.Latency is { } latency)
        {
            md.Append("\n#### Percentage of the requests served within a certain time (ms)\n\n");
            Ladder(latency).WriteTo(md);
        }
        if (blended && Connections(s) is { Count: > 0 } connections)
        {
            md.Append("\n#### Connection times (ms)\n\n");
            connections.WriteTo(md);
        }
        if (digest.Series.Count > 1)
        {
            md.Append(blended ? "\n#### Series (each as a percentage of the first)\n\n" : "\n#### Series (each on its own: they are unlike operations)\n\n");
            SeriesTable(digest.Series, blended).WriteTo(md);
        }
        if (!blended && windowSeconds is null && digest.Analyses.Any(a => a.At(null).Windows.Count > 0))
        {
            md.Append("\nPer-window tables are left out (one per ").Append(digest.Series.Count > 0 ? "series" : "run")
              .Append("): ask for them with `?format=markdown&window=SECONDS`.\n");
            return md.ToString();
        }
        foreach (var analysis in digest.Analyses)
        {
            var at = analysis.At(windowSeconds);
            if (at.Windows.Count == 0) continue;
            md.Append("\n#### ").Append(MarkdownTable.Escape(WindowsTitle(at.WindowSeconds, analysis.Series))).Append("\n\n");
            WindowTable(at.Windows).WriteTo(md);
        }
        return md.ToString();
    }

    static MarkdownTable Summary(Run run, RunStatistics s, string shownParametersJson, int series, bool blended)
    {
        var table = new MarkdownTable("Field", "Value");
        var (target, concurrency) = Parameters(shownParametersJson);
        if (target is not null) table.Row("Target", target);
        if (concurrency is not null) table.Row("Concurrency level", concurrency);
        table.Row("Status", run.Status.ToApiName());
        if (s.IsOpenModel) table.Row("Latency", "corrected, from each operation's intended start (open model)");
        table.Row("Complete requests", Count(s.Count));
        table.Row("Failed requests", Count(s.Errors) + (s.ErrorsByKind.Count == 0 ? "" :
            " (" + string.Join(", ", s.ErrorsByKind.OrderBy(e => e.Key).Select(e => $"{JsonNamingPolicy.CamelCase.ConvertName(e.Key.ToString())} {Count(e.Value)}")) + ")"));
        if (s.WarmupCount > 0) table.Row("Warm-up requests (not counted)", Count(s.WarmupCount));
        table.Row("Time taken for tests", (s.ElapsedNs / 1e9).ToString("F3", Invariant) + " s" + (series > 1 ? " (the series took turns)" : ""));
        if (blended) table.Row("Requests per second", s.RequestsPerSecond.ToString("F2", Invariant) + " [#/sec] (mean)");
        if (blended && s.Latency is { } l)
        {
            table.Row("Time per request", Ms(l.MeanNs) + " ms (mean)");
            table.Row("Median", Ms(l.P50Ns) + " ms");
            table.Row("99th percentile", Ms(l.P99Ns) + " ms");
            table.Row("Slowest", Ms(l.MaxNs) + " ms");
            table.Row("Fastest", Ms(l.MinNs) + " ms");
        }
        table.Row("Total transferred", Count(s.TotalBytes) + " bytes");
        if (blended) table.Row("Transfer rate", Runs.Text.ByteSizes.KiBPerSecond(s.BytesPerSecond));
        var c = s.Classes;
        if (c.Status1xx + c.Status2xx + c.Status3xx + c.Status4xx + c.Status5xx > 0)
            table.Row("Response classes", $"1xx {Count(c.Status1xx)}, 2xx {Count(c.Status2xx)}, 3xx {Count(c.Status3xx)}, 4xx {Count(c.Status4xx)}, 5xx {Count(c.Status5xx)}, no response {Count(c.Errors)}");
        return table;
    }

    /// <summary>What go-wrk and ab print of their command line: the target ("GET url", fingerprinted as shown) and the concurrency.</summary>
    static (string? Target, string? Concurrency) Parameters(string json)
    {
        try
        {
            using var doc = JsonDocument.Parse(json);
            var root = doc.RootElement;
            if (root.ValueKind != JsonValueKind.Object) return (null, null);
            string? Text(string field) => root.TryGetProperty(field, out var v) && v.ValueKind == JsonValueKind.String ? v.GetString() : null;
            var url = Text("url");
            var target = url is null ? null : (Text("method") is { } method ? method + " " : "") + url;
            var concurrency = root.TryGetProperty("concurrency", out var c) && c.ValueKind == JsonValueKind.Number ? c.GetRawText() : null;
            return (target, concurrency);
        }
        catch (JsonException)
        {
            return (null, null);
        }
    }

    static MarkdownTable Ladder(LatencyLadder l)
    {
        var table = new MarkdownTable(">Percentile", ">ms");
        foreach (var (label, permille) in LatencyLadder.Rungs) table.Row(label, Ms(l.ValueAt(permille)));
        return table.Row("100%", Ms(l.MaxNs) + " (longest request)");
    }

    static MarkdownTable Connections(RunStatistics s)
    {
        var table = new MarkdownTable("", ">min", ">mean", ">[+/-sd]", ">median", ">max");
        void Add(string name, LatencyLadder? l)
        {
            if (l is not null) table.Row(name, Ms(l.MinNs), Ms(l.MeanNs), Ms(l.StdDevNs), Ms(l.P50Ns), Ms(l.MaxNs));
        }
        if (s.Connect is null && s.Waiting is null) return table; // a kind without connection times: only Total, which the ladder shows
        Add("Connect", s.Connect);
        Add("Processing", s.Processing);
        Add("Waiting", s.Waiting);
        Add("Total", s.Latency);
        return table;
    }

    static MarkdownTable SeriesTable(IReadOnlyList<SeriesStatistics> series, bool blended)
    {
        string[] columns = ["Series", ">Requests", ">Failed", ">Mean ms", ">Median ms", ">99% ms", ">Slowest ms"];
        var table = new MarkdownTable(blended ? [.. columns, ">Mean, % of first"] : columns);
        var first = series[0].Statistics.Latency?.MeanNs;
        foreach (var s in series)
        {
            var l = s.Statistics.Latency;
            string[] cells = [s.Name, Count(s.Statistics.Count), Count(s.Statistics.Errors), l is null ? "–" : Ms(l.MeanNs), l is null ? "–" : Ms(l.P50Ns),
                l is null ? "–" : Ms(l.P99Ns), l is null ? "–" : Ms(l.MaxNs)];
            table.Row(blended ? [.. cells, l is null || first is not > 0 ? "–" : (100 * l.MeanNs / first.Value).ToString("F1", Invariant) + " %"] : cells);
        }
        return table;
    }

    /// <summary>"Per 10-second window, series read-miss (ms)": the title of the time-window table.</summary>
    public static string WindowsTitle(int windowSeconds, string? series) =>
        $"Per {Duration(windowSeconds)} window{(series is null ? "" : $", series {series}")} (ms)";

    /// <summary>The time-window table: each time window's count, failures, Avg, 80 %, 90 %, 95 %, Min and Max.</summary>
    public static MarkdownTable WindowTable(IReadOnlyList<TimeWindow> windows)
    {
        var table = new MarkdownTable(">Window", ">From s", ">Requests", ">Failed", ">Avg", ">80%", ">90%", ">95%", ">Min", ">Max");
        foreach (var w in windows)
            table.Row(w.Number.ToString(Invariant), (w.StartNs / 1e9).ToString("0.###", Invariant), Count(w.Count), Count(w.Errors),
                Ms(w.MeanNs), Ms(w.P80Ns), Ms(w.P90Ns), Ms(w.P95Ns), Ms(w.MinNs), Ms(w.MaxNs));
        return table;
    }

    static string Duration(int seconds) => seconds % 60 == 0 ? $"{seconds / 60}-minute" : $"{seconds}-second";

    static string Count(long n) => n.ToString("N0", Invariant);

    static string Ms(double? ns) => ns is { } v ? (v / 1e6).ToString("F3", Invariant) : "–";

    static string Ms(long? ns) => Ms((double?)ns);
}
