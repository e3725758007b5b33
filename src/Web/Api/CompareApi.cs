using System.Globalization;
using System.Text;
using BenchDashboard.Core.Comparisons;
using BenchDashboard.Core.Statistics;
using BenchDashboard.Core.Stores;
using Microsoft.AspNetCore.Http.HttpResults;

namespace BenchDashboard.Web.Api;

public static class CompareApi
{
    public static RouteGroupBuilder MapCompareApi(this IEndpointRouteBuilder app)
    {
        var group = app.MapGroup("/api/compare").WithTags("Compare");
        group.MapGet("/", CompareAsync)
            .Produces<ComparisonDto>().Produces(StatusCodes.Status200OK, typeof(string), "text/markdown", "text/plain", "text/csv").ProducesValidationProblem();
        return group;
    }

    /// <summary>
    /// <c>?items=12,13,14/read-miss&amp;baseline=12&amp;seed=…</c> (items may also repeat). The same numbers as
    /// the compare page; <c>format=csv</c> gives the percentage table as CSV, <c>format=markdown</c> and <c>format=text</c>
    /// as a post's table (<see cref="ComparisonTables"/>: each figure with its percentage of the baseline, the
    /// verdicts, what differs); <c>latency=service</c> compares the
    /// service time of open-model runs instead of their corrected latency. An item may be a group of separate runs,
    /// <c>12+14+16</c> (a space counts as '+'), compared by all its runs (<c>pick</c> is accepted, and reads the
    /// same); <c>margin</c> is the equivalence margin in percent (default 2).
    /// </summary>
    static async Task<IResult> CompareAsync(
        string[]? items, string? baseline, int? seed, string? format, string? latency, string? margin, string? pick, ComparisonQueries queries, HttpContext context, CancellationToken ct)
    {
        if (!AnswerFormats.TryParse(format, csv: true, out var answer)) return AnswerFormats.Refused(csv: true);
        // pick is read for the addresses that name it; every group counts all its runs (GroupPick).
        if (!GroupPicks.TryParse(pick, out _))
            return TypedResults.ValidationProblem(new Dictionary<string, string[]> { ["pick"] = [GroupPicks.Message] });
        if (!LatencyBasisQuery.TryParse(latency, out var basis))
            return TypedResults.ValidationProblem(new Dictionary<string, string[]> { ["latency"] = [LatencyBasisQuery.Message] });
        if (!TryParseMargin(margin, out var fraction))
            return TypedResults.ValidationProblem(new Dictionary<string, string[]> { ["margin"] = [MarginMessage] });
        var (comparison, errors) = await queries.CompareAsync(SplitItems(items), baseline, seed ?? Bootstrap.DefaultSeed, ct, Security.AdminGate.IsIdentifiedAdmin(context), basis, fraction);
        if (comparison is null) return TypedResults.ValidationProblem(errors);
        return answer switch
        {
            AnswerFormat.Csv => TypedResults.File(Encoding.UTF8.GetBytes(Csv(comparison)), "text/csv", "comparison.csv"),
            AnswerFormat.Markdown => AnswerFormats.Body(ComparisonTables.Markdown(comparison), answer),
            AnswerFormat.Text => AnswerFormats.Body(ComparisonTables.Text(comparison), answer),
            _ => TypedResults.Ok(ComparisonDto.From(comparison)),
        };
    }

    public const string MarginMessage = "The margin is a percentage from 0 to 50, e.g. margin=2 for ±2 %.";

    /// <summary>The equivalence margin from a query's percentage ("2", "0.5"); the default when absent.</summary>
    public static bool TryParseMargin(string? percent, out double fraction)
    {
        fraction = Verdicts.DefaultMargin;
        if (string.IsNullOrWhiteSpace(percent)) return true;
        if (!double.TryParse(percent, NumberStyles.Float, CultureInfo.InvariantCulture, out var value) || !double.IsFinite(value) || value < 0 || value > 50) return false;
        fraction = value / 100;
        return true;
    }

    /// <summary>Accepts both <c>items=1,2</c> and <c>items=1&amp;items=2</c>.</summary>
    /// <remarks>A page binds <c>?items=</c> (empty) as an array holding null.</remarks>
    public static List<string> SplitItems(string?[]? items) =>
        (items ?? []).OfType<string>().SelectMany(i => i.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)).ToList();

    /// <summary>One row per item: each figure, then each as a percentage of the baseline, then the verdicts.</summary>
    static string Csv(RunComparison c)
    {
        var metrics = BaselineComparison.Metrics;
        var names = metrics.Select(m => m.ToString().ToLowerInvariant()).ToList();
        var text = new StringBuilder("item,label,baseline," + string.Join(",", names.Select(n => n is "throughput" or "errors" ? n : n + "_ms"))
            + "," + string.Join(",", names.Select(n => n + "_percent")) + "," + string.Join(",", Verdicts.Metrics.Select(m => m.Metric + "_verdict")) + "\n");
        foreach (var (item, row) in c.Items.Zip(c.Rows))
        {
            string Value(ComparedMetric m) => row.Values[m] is { } v ? (m is ComparedMetric.Throughput or ComparedMetric.Errors ? v : v / 1e6).ToString("R", CultureInfo.InvariantCulture) : "";
            string Percent(ComparedMetric m) => row.PercentOfBaseline[m]?.ToString("R", CultureInfo.InvariantCulture) ?? "";
            string Verdict(string metric) => Quote(c.Verdicts.FirstOrDefault(v => v.ItemKey == item.Key && v.Metric == metric)?.Text ?? "");
            text.Append(CultureInfo.InvariantCulture, $"{Quote(item.Key)},{Quote(item.Label)},{(row.IsBaseline ? 1 : 0)},")
                .Append(string.Join(",", metrics.Select(Value))).Append(',')
                .Append(string.Join(",", metrics.Select(Percent))).Append(',')
                .Append(string.Join(",", Verdicts.Metrics.Select(m => Verdict(m.Metric)))).Append('\n');
        }
        return text.ToString();
    }

    static string Quote(string value) => value.IndexOfAny([',', '"', '\n', '\r']) < 0 ? value : "\"" + value.Replace("\"", "\"\"") + "\"";
}
