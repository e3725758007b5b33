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

    /// <summary>What tabs and lists call it: "Table Storage (seed 003)".</summary>
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

    /// <summary>
    /// Figures only this kind has (Table: per variant, in entities), for the API's <c>figures</c>; null for none.
    /// Computed once from the run's samples, when its digest is built (<see cref="Statistics.RunDigest"/>).
    /// </summary>
    object? Figures(object parameters, IReadOnlyList<Statistics.SeriesStatistics> series, IReadOnlyList<Sample> samples);
}

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
    public virtual object? Figures(TParameters parameters, IReadOnlyList<Statistics.SeriesStatistics> series, IReadOnlyList<Sample> samples) => null;

    public object Deserialize(string json, JsonSerializerOptions? options = null) =>
        JsonSerializer.Deserialize<TParameters>(json, options ?? Json.Options) ?? throw new JsonException("Expected an object of parameters, got null.");

    Task<Dictionary<string, string[]>> IBenchmarkKind.ValidateAsync(object parameters, CancellationToken ct) => ValidateAsync((TParameters)parameters, ct);
    string IBenchmarkKind.Describe(object parameters) => Describe((TParameters)parameters);
    IReadOnlyList<string> IBenchmarkKind.PlannedSeries(object parameters) => PlannedSeries((TParameters)parameters);
    string? IBenchmarkKind.BaselineSeries(object parameters) => BaselineSeries((TParameters)parameters);
    object? IBenchmarkKind.Figures(object parameters, IReadOnlyList<Statistics.SeriesStatistics> series, IReadOnlyList<Sample> samples) =>
        Figures((TParameters)parameters, series, samples);
}
