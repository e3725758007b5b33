using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Reports;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;
using System.Text.Json;
using Microsoft.Extensions.Options;

namespace BenchDashboard.Core.Kinds.Tables;

/// <summary>Azure Table Storage inserts, single and in batches, with Expect: 100-continue and Nagle toggled.</summary>
public sealed class TableKind(IOptions<RunLimits> limits, NamedConnections connections) : BenchmarkKind<TableParameters>, IKindFigures
{
    public const string KindName = "table";
    public override string Name => KindName;
    public override string Title => "Table Storage";
    public override string SampleNoun => "requests";
    public override string SeriesNoun => "variant";

    public override Task<Dictionary<string, string[]>> ValidateAsync(TableParameters p, CancellationToken ct) =>
        Task.FromResult(TableParametersValidator.Validate(p, limits.Value, connections.Exists, connections.Find));

    public override string Describe(TableParameters p)
    {
        var operations = (p.Operations ?? []).Select(o => o == TableOperation.Batch ? $"batch of {p.BatchSize}" : "single");
        return $"table '{p.Table}' via '{p.Connection}': {string.Join(" and ", operations)} inserts of {p.EntityBytes:N0} B, {p.Variants().Count} variants";
    }

    public override IReadOnlyList<string> PlannedSeries(TableParameters p) => p.Variants().Select(v => v.Series).ToList();

    /// <summary>The Table Storage baseline: both toggles on.</summary>
    public override string? BaselineSeries(TableParameters p) => p.Baseline()?.Series;

    /// <summary>Per variant, in entities: single inserts and batches compare fairly.</summary>
    public override IReadOnlyList<string> Connections(TableParameters p) => p.Connection is { Length: > 0 } name ? [name] : [];

    /// <summary>
    /// Single inserts and batches are unlike operations: no summary blends them, and each variant is compared per
    /// entity (a batch of 10 carries 10), as its own answer does.
    /// </summary>
    public override SeriesBasis SeriesBasis(TableParameters p) =>
        new(Blended: false, Percentages: true, Unit: "entity", PerSample: p.Variants().ToDictionary(v => v.Series, v => p.EntitiesPer(v.Operation)));

    object? IKindFigures.Figures(object parameters, IReadOnlyList<SeriesStatistics> series, IReadOnlyList<Sample> samples) =>
        TableVariantFigures.From((TableParameters)parameters, series, samples);

    IReadOnlyList<AnswerTable> IKindFigures.Answer(JsonElement figures) =>
        TableAnswer.Of(figures.Deserialize<List<TableVariantFigures>>(Json.Options) ?? []);

    /// <summary>
    /// Inserts against the development storage account, which appsettings.Development.json names "tables": Azurite,
    /// started by the runner when the first run needs it.
    /// </summary>
    public override IReadOnlyList<DemoBenchmark> Demos(string dashboard) =>
        [new("Demo: Table Storage single vs. batch inserts, Expect and Nagle on and off", new TableParameters { Connection = "tables", Requests = 200, WarmupRequests = 10 })];
}
