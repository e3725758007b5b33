using System.Text.Json.Serialization;
using BenchDashboard.Core.Benchmarks;

namespace BenchDashboard.Core.Kinds.Tables;

/// <summary>How entities are inserted: one at a time, or in entity group transactions (batches).</summary>
public enum TableOperation
{
    /// <summary>One entity per request.</summary>
    [JsonStringEnumMemberName("single")] Single,

    /// <summary><see cref="TableParameters.BatchSize"/> entities of one partition per <c>$batch</c> request.</summary>
    [JsonStringEnumMemberName("batch")] Batch,
}

/// <summary>
/// Parameters of a Table Storage benchmark: every combination of operation, Expect: 100-continue
/// and Nagle's algorithm is a variant; the run goes round them in rounds of one request each, the round's leader drawn each round, so that drift of the
/// service hits every variant alike. Names match the JSON API (camelCase).
/// </summary>
public sealed record TableParameters : LoadParameters
{
    public TableParameters() : base(timeoutMs: 30_000) { }

    /// <summary>
    /// The <em>name</em> of a connection string in configuration (<c>ConnectionStrings:NAME</c>: appsettings, user
    /// secrets, environment or an App Service connection string). The string never enters parameters, pages,
    /// API responses or logs.
    /// </summary>
    public string? Connection { get; init; }

    /// <summary>Created if missing; kept afterwards (only the run's entities are deleted).</summary>
    public string Table { get; init; } = "benchdashboard";

    /// <summary>Size of each entity's one string property (ASCII, so also its size in bytes on the wire).</summary>
    public int EntityBytes { get; init; } = 1024;

    public List<TableOperation> Operations { get; init; } = [TableOperation.Single, TableOperation.Batch];

    /// <summary>Entities per batch; seed 003 used 10.</summary>
    public int BatchSize { get; init; } = 10;

    /// <summary>The settings of Expect: 100-continue to run, in this order.</summary>
    public List<bool> Expect100Continue { get; init; } = [true, false];

    /// <summary>The settings of Nagle's algorithm to run (true: on, i.e. NoDelay off), in this order.</summary>
    public List<bool> Nagle { get; init; } = [true, false];

    // The load fields are LoadParameters': requests count per variant, a duration is the whole run's (every
    // variant gets the same number of requests), an open run's rate is all variants' together, and each worker
    // has its own connection per variant.

    /// <summary>Requests per variant sent first, interleaved the same way; stored, flagged, excluded from statistics.</summary>
    public int WarmupRequests { get; init; }
    protected override int Warmup => WarmupRequests;

    /// <summary>Delete the run's entities afterwards, also after a failure or cancel.</summary>
    public bool Cleanup { get; init; } = true;

    /// <summary><see cref="LoadParameters.Requests"/> counts per variant: a count of n is n requests of each.</summary>
    [JsonIgnore]
    public override int OperationsPerRequest => Math.Max(1, Variants().Count);

    /// <summary>Entities one request of an operation writes.</summary>
    public int EntitiesPer(TableOperation operation) => operation == TableOperation.Batch ? BatchSize : 1;

    /// <summary>Every combination, operation first, in the order the lists give: the order of a round.</summary>
    public IReadOnlyList<TableVariant> Variants() =>
        (from operation in Operations ?? []
         from expect in Expect100Continue ?? []
         from nagle in Nagle ?? []
         select new TableVariant(operation, expect, nagle)).ToList();

    /// <summary>The Table Storage baseline: both toggles on (the .NET Framework defaults), for the first operation.</summary>
    public TableVariant? Baseline()
    {
        var variants = Variants();
        return variants.FirstOrDefault(v => v.Expect100Continue && v.Nagle) ?? variants.FirstOrDefault();
    }
}

/// <summary>One combination of the matrix; its samples form the series <see cref="Series"/>.</summary>
public sealed record TableVariant(TableOperation Operation, bool Expect100Continue, bool Nagle)
{
    /// <summary>"batch/expect-off/nagle-on".</summary>
    public string Series => $"{(Operation == TableOperation.Batch ? "batch" : "single")}/expect-{OnOff(Expect100Continue)}/nagle-{OnOff(Nagle)}";

    static string OnOff(bool value) => value ? "on" : "off";
}
