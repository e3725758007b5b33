using System.CommandLine;
using System.Globalization;
using System.Text;
using System.Text.Json;

namespace BenchDashboard.Cli.Commands;

/// <summary><c>compare 12 13</c> or <c>compare 12+14+16 13+15+17</c>: GET /api/compare, its figures and verdicts.</summary>
public static class CompareCommand
{
    public static Command Create(DashboardOptions options, Terminal terminal)
    {
        var items = new Argument<string[]>("items") { Description = "Runs (12), phases (12/read-miss) or groups of separate runs (12+14+16); the first is the baseline unless --baseline says otherwise.", Arity = new ArgumentArity(2, 16) };
        var baseline = new Option<string?>("--baseline") { Description = "The item the others are compared with." };
        var margin = new Option<double?>("--margin") { Description = "The equivalence margin in percent (default 2)." };
        var latency = new Option<string?>("--latency") { Description = "service: compare an open-model run's service time instead of its corrected latency." };
        var command = new Command("compare", "Compare runs or groups of runs and print the verdicts.") { items, baseline, margin, latency };
        command.SetAction((parse, ct) => Verb.RunAsync(terminal, parse.GetValue(options.Json), async () =>
        {
            using var client = options.Connect(parse, terminal);
            var query = new StringBuilder("/api/compare?items=").Append(Uri.EscapeDataString(string.Join(',', parse.GetValue(items)!)));
            if (parse.GetValue(baseline) is { } b) query.Append("&baseline=").Append(Uri.EscapeDataString(b));
            if (parse.GetValue(margin) is { } m) query.Append("&margin=").Append(m.ToString(CultureInfo.InvariantCulture));
            if (parse.GetValue(latency) is { } l) query.Append("&latency=").Append(Uri.EscapeDataString(l));
            var comparison = await client.GetAsync(query.ToString(), ct);
            terminal.Out.Write(parse.GetValue(options.Json) ? JsonSerializer.Serialize(comparison, Verb.Indented) + "\n" : Format(comparison));
            return ExitCodes.Passed;
        }));
        return command;
    }

    /// <summary>One row per item (its figures and its median as a percentage of the baseline's), then each verdict in words.</summary>
    public static string Format(JsonElement comparison)
    {
        var text = new StringBuilder();
        string Invariant(FormattableString s) => s.ToString(CultureInfo.InvariantCulture);
        string Number(double? value, string format) => value?.ToString(format, CultureInfo.InvariantCulture) ?? "–";
        text.AppendLine(Invariant($"{"Item",-20}{"status",-11}{"calls",8}{"median ms",11}{"p95 ms",10}{"p99 ms",10}{"req/s",10}{"median %",10}"));
        foreach (var item in comparison.Items("items"))
        {
            var s = item.Field("stats") ?? default;
            var key = item.String("key") + (item.Boolean("isBaseline") == true ? " (base)" : "");
            text.AppendLine(Invariant($"{key,-20}{item.String("status"),-11}{Number(s.Number("count"), "0"),8}{Number(s.Number("p50Ms"), "0.00"),11}{Number(s.Number("p95Ms"), "0.00"),10}{Number(s.Number("p99Ms"), "0.00"),10}{Number(s.Number("requestsPerSecond"), "0.0"),10}{Number((item.Field("percentOfBaseline") ?? default).Number("median"), "0.0"),10}"));
        }
        text.AppendLine().AppendLine(Invariant($"Verdicts (margin ±{Number(comparison.Number("marginPercent"), "0.##")} %):"));
        foreach (var verdict in comparison.Items("verdicts"))
            text.AppendLine(Invariant($"  {verdict.String("item")} {verdict.String("metric")}: {verdict.String("call")}: {verdict.String("text")}"));
        foreach (var warning in comparison.Items("warnings")) text.AppendLine("Warning: " + warning.GetString());
        return text.ToString();
    }
}
