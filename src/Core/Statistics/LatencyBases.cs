using BenchDashboard.Core.Runs;

namespace BenchDashboard.Core.Statistics;

public static class LatencyBases
{
    /// <summary>
    /// The samples as the basis sees them: for <see cref="LatencyBasis.Service"/>, open-model samples become
    /// what a closed run would have recorded (started when actually sent, latency from there, no lag), so every
    /// statistic, window and comparison computed from them is of service time. Copies; the samples are unchanged.
    /// </summary>
    public static IReadOnlyList<Sample> Apply(this LatencyBasis basis, IReadOnlyList<Sample> samples) =>
        basis == LatencyBasis.Corrected || !samples.Any(s => s.LagNs.HasValue) ? samples : samples.Select(AsServiceTime).ToList();

    static Sample AsServiceTime(Sample s)
    {
        if (s.LagNs is not { } lag) return s;
        var copy = s.Copy();
        copy.OffsetNs += lag;
        copy.LatencyNs -= lag;
        copy.LagNs = null;
        return copy;
    }
}
