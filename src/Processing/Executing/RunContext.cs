using BenchDashboard.Core.Runs;
using BenchDashboard.Processing.Telemetry;

namespace BenchDashboard.Processing.Executing;

/// <summary>What an executor gets for one run: the parameters and a non-blocking place to drop samples.</summary>
/// <param name="store">Takes a sample without waiting; false when it cannot (the writer's buffer is full).</param>
/// <param name="onRefused">Called when a sample was refused: the run must stop its load, or it measures into the void.</param>
/// <param name="budget">The most samples the run may make (<see cref="Core.Benchmarks.RunLimits.MaxSamplesPerRun"/>).</param>
/// <param name="onBudgetReached">Called once when the budget's last sample is recorded: the run must stop its load.</param>
/// <param name="metrics">Export the run's figures through OpenTelemetry when it is configured (<see cref="RunMetrics"/>,
/// recorded by whoever drains the samples: the <see cref="SampleWriter"/>); an agent's shard does not, since the
/// dashboard that coordinates the run records every shard's samples as one run.</param>
/// <param name="isIterations">Whether a series is whole iterations of the others' requests (<see cref="Core.Benchmarks.SeriesBasis.IsIterations"/>): the live figures leave it out of the run's.</param>
public sealed class RunContext(Run run, Func<Sample, bool> store, Action? onRefused = null, int budget = int.MaxValue, Action? onBudgetReached = null, bool metrics = true,
    Func<string, bool>? isIterations = null) : IDisposable
{
    int completed, refused;
    readonly RunMetrics? exported = metrics ? new RunMetrics(run) : null;

    /// <summary>The run's metrics when telemetry is on and this context exports them; the sample writer records each sample there.</summary>
    public RunMetrics? Metrics => exported is not null && RunMetrics.Listened ? exported : null;

    /// <summary>Set by the load driver: operations started so far, read only when in-flight operations are exported.</summary>
    public Func<int> StartedCount
    {
        set
        {
            if (exported is not null) exported.InFlightSource = () => value() - Completed;
        }
    }

    public Run Run { get; } = run;
    public string ParametersJson => Run.ParametersJson;

    /// <summary>The run's parameters as its kind read them (<see cref="Core.Benchmarks.IBenchmarkKind.Deserialize"/>), once; null until set.</summary>
    public object? Parameters { get; set; }

    /// <summary><see cref="Parameters"/> as <typeparamref name="T"/>, read from <see cref="ParametersJson"/> (and kept) when nobody set them.</summary>
    public T ParametersAs<T>() where T : class => Parameters as T ?? (T)(Parameters = Core.Json.Deserialize<T>(ParametersJson));

    /// <summary>Requests finished so far (warm-up included), stored or not; read by the heartbeat for live progress.</summary>
    public int Completed => Volatile.Read(ref completed);

    /// <summary>Samples the writer could not take: lost.</summary>
    public int Refused => Volatile.Read(ref refused);

    /// <summary>Set by the executor before it returns; saved with the run.</summary>
    public CachingEvidence? CachingEvidence { get; set; }

    /// <summary>Error messages and notes for the reader; saved with the run when it has any.</summary>
    public RunNotes Notes { get; } = new();

    readonly SortedDictionary<string, string> client = new(StringComparer.Ordinal);

    /// <summary>Something the kind's client settled with its server (a protocol version): saved in the run's environment.</summary>
    public void RecordClient(string name, string value)
    {
        lock (client) client[name] = value;
    }

    /// <summary>What <see cref="RecordClient"/> was given, or null when nothing.</summary>
    public SortedDictionary<string, string>? Client()
    {
        lock (client) return client.Count == 0 ? null : new(client, StringComparer.Ordinal);
    }

    /// <summary>The run's live figures, snapshotted with each heartbeat for viewers.</summary>
    public LiveRunStats Live { get; } = new(isIterations);

    /// <summary>Hands the sample to the background writer, which never makes this wait for the disk.</summary>
    public void Record(Sample sample)
    {
        sample.RunId = Run.Id;
        Live.Add(sample);
        if (Interlocked.Increment(ref completed) == budget) onBudgetReached?.Invoke();
        if (store(sample)) return;
        if (Interlocked.Increment(ref refused) == 1) onRefused?.Invoke();
    }

    /// <summary>Ends the run's in-flight gauge.</summary>
    public void Dispose() => exported?.Dispose();
}
