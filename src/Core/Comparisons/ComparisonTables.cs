using System.Globalization;
using System.Text;
using BenchDashboard.Core.Reports.Markdown;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Comparisons;

/// <summary>
/// A comparison as the tables users paste into a post, in the go-wrk comparison's form: each item's figures with each as a
/// percentage of the baseline's ("81.350 (75.3 %)"), the verdict on the median and p95, the warnings, and what
/// differs between the items. As Markdown (every cell escaped) or as plain text in aligned columns; the same cells
/// either way. The comparison's field values are already as the reader may see them (secrets fingerprinted).
/// </summary>
public static class ComparisonTables
{
    static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    public static string Markdown(RunComparison c)
    {
        var md = new StringBuilder();
        md.Append("### ").Append(MarkdownTable.Escape(Title(c))).Append("\n\n");
        Summary(c).WriteTo(md);
        md.Append('\n').Append(MarkdownTable.Escape(Legend)).Append("\n\n");
        if (VerdictTable(c) is { Count: > 0 } verdicts)
        {
            md.Append("#### ").Append(MarkdownTable.Escape(VerdictsTitle(c))).Append("\n\n");
            verdicts.WriteTo(md);
        }
        if (c.Warnings.Count > 0)
        {
            md.Append('\n');
            foreach (var warning in c.Warnings) md.Append("- ").Append(MarkdownTable.Escape(warning)).Append('\n');
        }
        if (Differences(c) is { } differences)
        {
            md.Append("\n#### What differs\n\n");
            differences.WriteTo(md);
        }
        return md.ToString();
    }

    public static string Text(RunComparison c)
    {
        var text = new StringBuilder();
        text.Append(Title(c)).Append("\n\n");
        Summary(c).WriteTextTo(text);
        text.Append('\n').Append(Legend).Append('\n');
        // One verdict a line, as benchdash prints them: a table of sentences would be too wide for a terminal.
        if (c.Verdicts.Count > 0) text.Append('\n').Append(VerdictsTitle(c)).Append('\n');
        foreach (var v in c.Verdicts)
            text.Append("  ").Append(c.Items.Single(i => i.Key == v.ItemKey).Label).Append(", ").Append(v.Metric).Append(": ").Append(v.Text).Append('\n');
        foreach (var warning in c.Warnings) text.Append("\nWarning: ").Append(warning.ReplaceLineEndings(" ")).Append('\n');
        if (Differences(c) is { } differences)
        {
            text.Append("\nWhat differs\n");
            differences.WriteTextTo(text);
        }
        return text.ToString();
    }

    const string Legend = "Each figure with its percentage of the baseline's in brackets. Percentiles are nearest-rank over answered requests.";

    static string Title(RunComparison c) => $"Compared with {c.Items.Single(i => i.Key == c.BaselineKey).Label}";

    static string VerdictsTitle(RunComparison c) => $"Verdict (95 % intervals; equivalent within ±{Ratios.Percent(c.Margin)})";

    /// <summary>Column titles with their unit; '>' right-aligns a column of numbers.</summary>
    static string Column(ComparedMetric metric) => ">" + metric switch
    {
        ComparedMetric.TotalTime => "Total time (s)",
        ComparedMetric.Mean => "Average (ms)",
        ComparedMetric.Median => "Median (ms)",
        ComparedMetric.P90 => "p90 (ms)",
        ComparedMetric.P95 => "p95 (ms)",
        ComparedMetric.P99 => "p99 (ms)",
        ComparedMetric.Max => "Slowest (ms)",
        ComparedMetric.Throughput => "Per second",
        ComparedMetric.Errors => "Errors",
        _ => metric.ToString(),
    };

    /// <summary>A figure in its column's unit: durations are stored in nanoseconds.</summary>
    public static string Figure(ComparedMetric metric, double value) => metric switch
    {
        ComparedMetric.TotalTime => (value / 1e9).ToString("F2", Invariant),
        ComparedMetric.Throughput => value.ToString("F1", Invariant),
        ComparedMetric.Errors => value.ToString("N0", Invariant),
        _ => (value / 1e6).ToString("F3", Invariant),
    };

    static MarkdownTable Summary(RunComparison c)
    {
        var table = new MarkdownTable(["Item", .. BaselineComparison.Metrics.Select(Column), "Verdict (median)"]);
        foreach (var (item, row) in c.Items.Zip(c.Rows))
        {
            string Cell(ComparedMetric m) => row.Values[m] is not { } v ? "–"
                : Figure(m, v) + (row.IsBaseline || row.PercentOfBaseline[m] is not { } p ? "" : $" ({p.ToString("F1", Invariant)} %)");
            var median = c.Verdicts.FirstOrDefault(v => v.ItemKey == item.Key && v.Metric == "median");
            table.Row([item.Label + (row.IsBaseline ? " (baseline)" : ""), .. BaselineComparison.Metrics.Select(Cell),
                row.IsBaseline ? "baseline" : median is null ? "–" : Verdicts.Short(median)]);
        }
        return table;
    }

    static MarkdownTable VerdictTable(RunComparison c)
    {
        var table = new MarkdownTable(["Against the baseline", .. Verdicts.Metrics.Select(m => m.Metric == "median" ? "Median" : m.Metric)]);
        foreach (var item in c.Items.Where(i => i.Key != c.BaselineKey))
            table.Row([item.Label, .. Verdicts.Metrics.Select(m =>
                c.Verdicts.FirstOrDefault(v => v.ItemKey == item.Key && v.Metric == m.Metric)?.Text ?? "no answered requests to compare")]);
        return table;
    }

    static MarkdownTable? Differences(RunComparison c)
    {
        if (c.Differences.Count == 0) return null;
        var table = new MarkdownTable(["Field", .. c.Items.Select(i => i.Label)]);
        foreach (var d in c.Differences) table.Row([d.Field, .. d.Values.Select(v => v ?? "(absent)")]);
        return table;
    }
}
