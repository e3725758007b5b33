using System.Globalization;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Comparisons;
using BenchDashboard.Core.Reports;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Web.Pages;

/// <summary>
/// Formatting shared by the pages. A duration is shown in the unit its size calls for (ns, µs, ms, s) with four
/// significant digits: 170 ns, 1.234 µs, 10.27 ms, 104.6 ms, 2.345 s. An in-process cache read (a few hundred
/// nanoseconds) and a 10 ms request read alike, and 10.19 vs 10.27 ms stay apart. wwwroot/js/units.js
/// formats chart axes and tooltips the same way.
/// </summary>
public static class Display
{
    public static string Duration(long ns) => Duration((double)ns);

    public static string Duration(double ns)
    {
        // The unit is chosen on the value as it will be shown: 999,999 ns is "1.000 ms", not "1000.0 µs".
        var abs = Math.Abs(ns);
        var (value, unit) = abs < 999.5 ? (ns, "ns") : abs < 999_950 ? (ns / 1e3, "µs") : abs < 999_950_000 ? (ns / 1e6, "ms") : (ns / 1e9, "s");
        if (unit == "ns") return ns.ToString("0", CultureInfo.InvariantCulture) + " ns";
        var a = Math.Abs(value);
        var format = a < 10 ? "0.000" : a < 100 ? "0.00" : a < 1000 ? "0.0" : "#,0";
        return value.ToString(format, CultureInfo.InvariantCulture) + " " + unit;
    }

    static readonly System.Text.Json.JsonSerializerOptions Pretty = new()
    {
        WriteIndented = true, Encoder = System.Text.Encodings.Web.JavaScriptEncoder.UnsafeRelaxedJsonEscaping,
    };

    /// <summary>
    /// JSON indented and without escapes a reader has to decode ("&amp;", not "\u0026"): the page HTML-encodes it
    /// when it is written, which is what keeps it safe.
    /// </summary>
    public static string PrettyJson(string json)
    {
        try
        {
            return System.Text.Json.JsonSerializer.Serialize(System.Text.Json.JsonDocument.Parse(json).RootElement, Pretty);
        }
        catch (System.Text.Json.JsonException)
        {
            return json;
        }
    }

    /// <summary>A duration or a dash when there is none.</summary>
    public static string Duration(long? ns) => ns is { } v ? Duration(v) : "–";

    /// <summary>
    /// The range of several series' figures, lowest to highest: "4.100–9.800 ms" (the unit once when both share
    /// it), "850.0 µs–1.200 ms" when not, one figure when they are equal, "–" when none has one.
    /// </summary>
    public static string Spread(IEnumerable<long?> values)
    {
        var known = values.OfType<long>().ToList();
        if (known.Count == 0) return "–";
        string low = Duration(known.Min()), high = Duration(known.Max());
        if (low == high) return low;
        var unit = high[(high.LastIndexOf(' ') + 1)..];
        return low.EndsWith(" " + unit, StringComparison.Ordinal) ? $"{low[..low.LastIndexOf(' ')]}–{high}" : $"{low}–{high}";
    }

    /// <summary>
    /// How a candidate's figure compares with a baseline's, the one wording every page uses: a ratio, "2.60× slower",
    /// "1.30× faster" (for durations, lower is better), "1.18× more" or "1.18× less" (for throughput), "same" within
    /// 0.5 %; and the same as a percentage of the baseline, "260 %", as seed 000 printed it. Colour (<c>Css</c>
    /// "better" or "worse") only when <paramref name="call"/>, the verdict, found a difference the same way: a
    /// "1.01× slower" that the verdict cannot tell from noise stays plain. Null when either is missing or the
    /// baseline is zero.
    /// </summary>
    public static Versus? Compared(double? candidate, double? baseline, bool higherIsBetter = false, VerdictCall? call = null)
    {
        if (candidate is not { } c || baseline is not { } b || b == 0 || c < 0) return null;
        var ratio = c / b;
        var percent = (ratio * 100).ToString(ratio < 10 ? "0.0" : "#,0", CultureInfo.InvariantCulture) + " %";
        if (Math.Abs(ratio - 1) < 0.005) return new("same", percent, "");
        var factor = ratio >= 1 ? ratio : c == 0 ? double.PositiveInfinity : 1 / ratio;
        var times = double.IsPositiveInfinity(factor) ? "∞×" : factor.ToString(factor < 10 ? "0.00" : factor < 100 ? "0.0" : "#,0", CultureInfo.InvariantCulture) + "×";
        var better = higherIsBetter ? ratio > 1 : ratio < 1;
        var word = higherIsBetter ? (ratio > 1 ? "more" : "less") : (ratio > 1 ? "slower" : "faster");
        var css = (call, better) switch
        {
            (VerdictCall.Faster, true) => "better",
            (VerdictCall.Slower, false) => "worse",
            _ => "",
        };
        return new($"{times} {word}", percent, css);
    }

    /// <summary>A verdict in a few words for a table cell: "1.14× faster", "equivalent", "no clear difference", "cannot tell (one run a side)".</summary>
    public static string Call(Verdict verdict) => Verdicts.Short(verdict);

    /// <summary>The colour class of a verdict: only a difference it found is coloured.</summary>
    public static string CallCss(VerdictCall? call) => call switch { VerdictCall.Faster => "better", VerdictCall.Slower => "worse", _ => "" };

    /// <summary>A comparison with the baseline as shown: the ratio, the percentage of the baseline, and a colour class or "".</summary>
    public sealed record Versus(string Ratio, string Percent, string Css)
    {
        /// <summary>"1.20× slower (120.0 % of baseline)"</summary>
        public override string ToString() => Ratio == "same" ? $"same ({Percent} of baseline)" : $"{Ratio} ({Percent} of baseline)";
    }

    public static string Seconds(long ns) => (ns / 1e9).ToString("N3", CultureInfo.InvariantCulture) + " s";
    public static string Rate(double perSecond) => perSecond.ToString("N1", CultureInfo.InvariantCulture);
    public static string KiB(double bytes) => Core.Runs.Text.ByteSizes.KiB(bytes);

    public static string Utc(long? unixMs) =>
        unixMs is { } ms ? DateTimeOffset.FromUnixTimeMilliseconds(ms).UtcDateTime.ToString("yyyy-MM-dd HH:mm:ss", CultureInfo.InvariantCulture) : "";

    /// <summary>A run's wall time, started to ended (to now while it runs): warm-up, set-up and storing included, unlike its measured time.</summary>
    public static string WallTime(Run run) =>
        run.StartedUtcMs is { } start ? (((run.EndedUtcMs ?? DateTimeOffset.UtcNow.ToUnixTimeMilliseconds()) - start) / 1000.0).ToString("N1", CultureInfo.InvariantCulture) + " s" : "";

    /// <summary>"p95 ≤ 200 ms, errors ≤ 1 %": the limits a benchmark has set.</summary>
    public static string Limits(Thresholds t)
    {
        var parts = new List<string>();
        string N(double v) => ThresholdWords.Number(v);
        if (t.MaxMedianMs is { } m) parts.Add($"median ≤ {N(m)} ms");
        if (t.MaxP95Ms is { } p95) parts.Add($"p95 ≤ {N(p95)} ms");
        if (t.MaxP99Ms is { } p99) parts.Add($"p99 ≤ {N(p99)} ms");
        if (t.MaxErrorPercent is { } e) parts.Add($"errors ≤ {N(e)} %");
        if (t.MinRequestsPerSecond is { } r) parts.Add($"requests/s ≥ {N(r)}");
        return string.Join(", ", parts);
    }

    /// <summary>
    /// "⚠ regression: median 1.21× slower since run 40 (99.9 % interval 1.10× to 1.33×), confirmed by run 42",
    /// "possible change since run 40 (p95 slower), waiting for 2 more runs", "in line with the runs since run 12":
    /// the run in its benchmark's history, as it was judged when it ended.
    /// </summary>
    public static string History(Core.Statistics.Changes.HistoryJudgement? j) => j switch
    {
        null => "not judged yet",
        { Flagged: true } => "⚠ " + Core.Statistics.Changes.ChangeWords.Of(j),
        _ => Core.Statistics.Changes.ChangeWords.Of(j),
    };

    public static string Verdict(ThresholdResult? t) => t switch
    {
        null => "–",
        { Passed: true } => "✓ passed",
        _ => "✗ failed: " + ThresholdWords.Failures(t),
    };

    /// <summary>The remark beside a run's verdict as a sentence of its own: "Today's limits would fail this run (…)."; null for none.</summary>
    public static string? LimitsRemark(LimitsVerdict? limits) =>
        limits?.Remark is { } r ? char.ToUpperInvariant(r[0]) + r[1..] + "." : null;

    /// <summary>The remark short enough for a list's badge: "today's limits would fail", "judged by today's limits".</summary>
    public static string? LimitsNote(LimitsVerdict? limits) => limits switch
    {
        null or { Remark: null } => null,
        { Recorded: false } => "judged by today's limits",
        { Today: null } => "no limits today",
        { Today.Passed: true } => "today's limits would pass",
        _ => "today's limits would fail",
    };

    public static string WindowLength(int seconds) =>
        seconds % 3600 == 0 ? $"{seconds / 3600} h" : seconds % 60 == 0 ? $"{seconds / 60} min" : $"{seconds} s";

    public static string MetricName(ComparedMetric metric) => metric switch
    {
        ComparedMetric.TotalTime => "Total time",
        ComparedMetric.Mean => "Average",
        ComparedMetric.Median => "Median",
        ComparedMetric.P90 => "p90",
        ComparedMetric.P95 => "p95",
        ComparedMetric.P99 => "p99",
        ComparedMetric.Max => "Slowest",
        ComparedMetric.Throughput => "Per second",
        ComparedMetric.Errors => "Errors",
        _ => metric.ToString(),
    };

    public static string Percent(int part, int whole) =>
        whole == 0 ? "" : (100.0 * part / whole).ToString("N1", CultureInfo.InvariantCulture) + " %";
}
