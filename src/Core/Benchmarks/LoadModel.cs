using System.Text.Json.Serialization;

namespace BenchDashboard.Core.Benchmarks;

/// <summary>How a run sends its operations.</summary>
public enum LoadModel
{
    /// <summary>Each connection (worker) sends the next operation when the last one is answered (ab, wrk, go-wrk).</summary>
    [JsonStringEnumMemberName("closed")] Closed,

    /// <summary>
    /// Operations start on a schedule of arrivals (wrk2, k6's arrival-rate executors), whether or not earlier ones
    /// were answered: a stall keeps the arrivals coming, as users would.
    /// </summary>
    [JsonStringEnumMemberName("open")] Open,
}

/// <summary>One stage of an open run: the rate ramps linearly from the previous one to <see cref="Rate"/> over <see cref="DurationSeconds"/> (0: a step).</summary>
public sealed record RateStage(double DurationSeconds, double Rate);

/// <summary>The load-model fields every kind that sends operations shares (HTTP, cache; API names model, rate, stages).</summary>
public interface ILoadParameters
{
    LoadModel Model { get; }

    /// <summary>Open model: operations per second; the rate the first stage ramps from when there are stages.</summary>
    double? Rate { get; }

    /// <summary>Open model: the rate's stages, as k6's ramping-arrival-rate; the run lasts as long as they do.</summary>
    List<RateStage>? Stages { get; }

    int? Requests { get; }
    int? DurationSeconds { get; }

    /// <summary>Connections or workers; in the open model, the most operations in flight.</summary>
    int Concurrency { get; }

    /// <summary>Requests sent before measurement (stored as samples too, so they count against the sample budget).</summary>
    int WarmupRequests => 0;

    /// <summary>Operations per unit of <see cref="Requests"/>: a Table run counts requests per variant, and sends one of each.</summary>
    int OperationsPerRequest => 1;
}
