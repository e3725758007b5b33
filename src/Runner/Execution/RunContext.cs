using System.Threading.Channels;
using BenchDashboard.Core.Runs;

namespace BenchDashboard.Runner.Execution;

/// <summary>What an executor gets for one run: the parameters and a non-blocking place to drop samples.</summary>
public sealed class RunContext(Run run, ChannelWriter<Sample> samples)
{
    int completed;

    public Run Run { get; } = run;
    public string ParametersJson => Run.ParametersJson;

    /// <summary>Requests finished so far; read by the heartbeat for live progress.</summary>
    public int Completed => Volatile.Read(ref completed);

    /// <summary>Set by the executor before it returns; saved with the run.</summary>
    public CachingEvidence? CachingEvidence { get; set; }

    /// <summary>Error messages and notes for the reader; saved with the run when it has any.</summary>
    public RunNotes Notes { get; } = new();

    /// <summary>
    /// Hands the sample to the background writer. The channel is unbounded, so this never waits for the
    /// disk: a slow database cannot stall request timing.
    /// </summary>
    public void Record(Sample sample)
    {
        sample.RunId = Run.Id;
        samples.TryWrite(sample);
        Interlocked.Increment(ref completed);
    }
}
