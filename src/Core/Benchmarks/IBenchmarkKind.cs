using System.Text.Json;
using BenchDashboard.Core.Runs;

namespace BenchDashboard.Core.Benchmarks;

/// <summary>
/// What the shared code (queue, store, scheduler, API, forms, run and compare pages) asks about a kind of
/// benchmark instead of switching on it. One per kind, registered once with
/// <see cref="BenchmarkKinds.AddBenchmarkKind{TKind}"/>; the runner's executor and the web's form are found
/// by <see cref="Name"/>.
/// </summary>
public interface IBenchmarkKind
{
    /// <summary>The API's and the database's name: "http", "cache", "fileSystem", "table".</summary>
    string Name { get; }

    /// <summary>What tabs and lists call it: "Table Storage".</summary>
    string Title { get; }

    Type ParametersType { get; }

    /// <summary>What one sample is, in the plural: "requests" or "operations".</summary>
    string SampleNoun { get; }

    /// <summary>What one series of a run is: "phase", "variant".</summary>
    string SeriesNoun { get; }

    /// <summary>Parameters from JSON (stored, or an API body with stricter <paramref name="options"/>).</summary>
    object Deserialize(string json, JsonSerializerOptions? options = null);

    /// <summary>Field errors keyed by the API's field names; empty when the parameters may run.</summary>
    Task<Dictionary<string, string[]>> ValidateAsync(object parameters, CancellationToken ct);

    /// <summary>What a run of these parameters measures, in one line, without secrets.</summary>
    string Describe(object parameters);

    /// <summary>The series a run of these parameters produces, in order (none for a single-series kind).</summary>
    IReadOnlyList<string> PlannedSeries(object parameters);

    /// <summary>The series the others are shown as a percentage of, unless the reader picks another.</summary>
    string? BaselineSeries(object parameters);

    /// <summary>How much a run of these parameters will do, for a live view's progress; null when it cannot be told.</summary>
    PlannedLoad? Planned(object parameters);

    /// <summary>How a run of these parameters sets its series side by side: blended or not, and per what.</summary>
    SeriesBasis SeriesBasis(object parameters);

    /// <summary>
    /// The variants these parameters interleave in one run, each as the parameters of a plain run of it alone (for
    /// A B A B … separate runs); empty for a kind or parameters without variants.
    /// </summary>
    IReadOnlyList<(string Name, object Parameters)> SeparateVariants(object parameters);

    /// <summary>
    /// Plain parameters (no variants) as two identical variants A and B of one interleaved run, for an A/A check;
    /// null for a kind without variants of its own choosing. The run's planned series come in pairs, A's then B's,
    /// one pair per series of the plain run, in its order ("A", "B"; "A/write", "B/write", "A/read-same", …).
    /// </summary>
    object? IdenticalVariants(object plain);


    /// <summary>
    /// The run's load divided into <paramref name="shards"/> shards for runner agents on other machines,
    /// or why it cannot be: a kind that measures what only the dashboard's runner reaches says so.
    /// </summary>
    Agents.ShardSplit Split(object parameters, int shards);

    /// <summary>Whether its runs can be spread over runner agents at all (<see cref="Split"/> can divide them): forms show the agents field only then.</summary>
    bool SpreadsOverAgents { get; }

    /// <summary>
    /// The named connection strings (ConnectionStrings:NAME) a runner needs to run these parameters: a runner without
    /// one leaves the run to a runner that has it.
    /// </summary>
    IReadOnlyList<string> Connections(object parameters);

    /// <summary>
    /// The demo benchmarks a new user finds on an empty database, against the dashboard's own targets at
    /// <paramref name="dashboard"/> (its loopback address); none for a kind without one.
    /// </summary>
    IReadOnlyList<DemoBenchmark> Demos(string dashboard);
}

/// <summary>A demo benchmark: its name and parameters; <see cref="QueueFirst"/> queues a first run of it.</summary>
public sealed record DemoBenchmark(string Name, object Parameters, bool QueueFirst = false);

/// <summary>A kind whose parameters are a <typeparamref name="TParameters"/> record: the typed half of <see cref="IBenchmarkKind"/>.</summary>
public abstract class BenchmarkKind<TParameters> : IBenchmarkKind where TParameters : class
{
    public abstract string Name { get; }
    public abstract string Title { get; }
    public Type ParametersType => typeof(TParameters);
    public virtual string SampleNoun => "operations";
    public virtual string SeriesNoun => "series";

    public abstract Task<Dictionary<string, string[]>> ValidateAsync(TParameters parameters, CancellationToken ct);
    public abstract string Describe(TParameters parameters);
    public virtual IReadOnlyList<string> PlannedSeries(TParameters parameters) => [];
    public virtual string? BaselineSeries(TParameters parameters) => PlannedSeries(parameters).FirstOrDefault();
    public virtual SeriesBasis SeriesBasis(TParameters parameters) => Benchmarks.SeriesBasis.Alike;
    public virtual IReadOnlyList<(string Name, TParameters Parameters)> SeparateVariants(TParameters parameters) => [];
    public virtual TParameters? IdenticalVariants(TParameters plain) => null;

    public virtual bool SpreadsOverAgents => false;

    public virtual IReadOnlyList<string> Connections(TParameters parameters) => [];

    public virtual IReadOnlyList<DemoBenchmark> Demos(string dashboard) => [];

    public virtual Agents.ShardSplit Split(TParameters parameters, int shards) =>
        Agents.ShardSplit.Refused($"{Title} runs measure storage this dashboard's runner reaches; only HTTP runs are spread over agents.");

    /// <summary>From the load fields (<see cref="ILoadParameters"/>) when the kind has them; a kind whose runs repeat them (cache phases) says how often.</summary>
    public virtual PlannedLoad? Planned(TParameters parameters) => parameters is ILoadParameters load ? PlannedLoad.Of(load) : null;

    public object Deserialize(string json, JsonSerializerOptions? options = null) =>
        JsonSerializer.Deserialize<TParameters>(json, options ?? Json.Options) ?? throw new JsonException("Expected an object of parameters, got null.");

    Task<Dictionary<string, string[]>> IBenchmarkKind.ValidateAsync(object parameters, CancellationToken ct) => ValidateAsync((TParameters)parameters, ct);
    string IBenchmarkKind.Describe(object parameters) => Describe((TParameters)parameters);
    IReadOnlyList<string> IBenchmarkKind.PlannedSeries(object parameters) => PlannedSeries((TParameters)parameters);
    string? IBenchmarkKind.BaselineSeries(object parameters) => BaselineSeries((TParameters)parameters);
    PlannedLoad? IBenchmarkKind.Planned(object parameters) => Planned((TParameters)parameters);
    SeriesBasis IBenchmarkKind.SeriesBasis(object parameters) => SeriesBasis((TParameters)parameters);
    IReadOnlyList<(string Name, object Parameters)> IBenchmarkKind.SeparateVariants(object parameters) =>
        SeparateVariants((TParameters)parameters).Select(v => (v.Name, (object)v.Parameters)).ToList();
    object? IBenchmarkKind.IdenticalVariants(object plain) => IdenticalVariants((TParameters)plain);
    Agents.ShardSplit IBenchmarkKind.Split(object parameters, int shards) => Split((TParameters)parameters, shards);
    IReadOnlyList<string> IBenchmarkKind.Connections(object parameters) => Connections((TParameters)parameters);
}

/// <summary>How much a run will do: measured operations and how long, either or both when known.</summary>
public sealed record PlannedLoad(long? Operations, double? Seconds)
{
    /// <param name="repeats">How many times the load runs (once per cache phase).</param>
    public static PlannedLoad Of(ILoadParameters p, int repeats = 1)
    {
        if (LoadProfile.Of(p) is { } profile) return new(profile.Operations * repeats, profile.DurationNs / 1e9 * repeats);
        return new(p.Requests is { } n ? (long)n * p.OperationsPerRequest * repeats : null, p.DurationSeconds is { } d ? (double)d * repeats : null);
    }
}
