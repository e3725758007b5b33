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

    /// <summary>
    /// As <see cref="Apply(LatencyBasis, IReadOnlyList{Sample})"/> with <see cref="LatencyBasis.Service"/>, but changing the
    /// samples themselves: for a caller done with their corrected form (a digest build), a million fewer objects.
    /// </summary>
    public static void ToServiceTimeInPlace(IReadOnlyList<Sample> samples)
    {
        foreach (var s in samples)
        {
            if (s.LagNs is not { } lag) continue;
            s.OffsetNs += lag;
            s.LatencyNs -= lag;
            s.LagNs = null;
        }
    }

    static Sample AsServiceTime(Sample s)
    {
        if (s.LagNs is null) return s;
        var copy = s.Copy();
        ToServiceTimeInPlace([copy]);
        return copy;
    }
}
