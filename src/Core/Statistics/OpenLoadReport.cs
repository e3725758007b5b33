using BenchDashboard.Core.Runs;

namespace BenchDashboard.Core.Statistics;

/// <summary>One second of an open run: how many operations were due in it, and how many actually started in it.</summary>
public readonly record struct SecondRate(int Second, int Due, int Started);

/// <summary>
/// The generator's own health in an open run, from its samples: per second, operations due (the target) and
/// operations that actually started (achieved); how many started late (more than <see cref="LateNs"/>) and
/// by how much. Counted from the first measured operation's due time. Pure.
/// </summary>
public sealed record OpenLoadReport(IReadOnlyList<SecondRate> PerSecond, int Late, LatencyLadder? Lag)
{
    /// <summary>Later than this is "late": a millisecond, the timer granularity a pacer can count on.</summary>
    public const long LateNs = 1_000_000;

    /// <summary>Null for a closed run (no sample has a lag).</summary>
    public static OpenLoadReport? From(IReadOnlyList<Sample> samples)
    {
        var measured = samples.Where(s => !s.IsWarmup && s.LagNs.HasValue).ToList();
        if (measured.Count == 0) return null;
        var origin = measured.Min(s => s.OffsetNs);
        var last = measured.Max(s => s.OffsetNs + s.LagNs!.Value);
        var seconds = (int)((last - origin) / 1_000_000_000) + 1;
        var due = new int[seconds];
        var started = new int[seconds];
        foreach (var s in measured)
        {
            due[(s.OffsetNs - origin) / 1_000_000_000]++;
            started[(s.OffsetNs + s.LagNs!.Value - origin) / 1_000_000_000]++;
        }
        return new OpenLoadReport(
            Enumerable.Range(0, seconds).Select(i => new SecondRate(i, due[i], started[i])).ToList(),
            measured.Count(s => s.LagNs > LateNs),
            LatencyLadder.From(measured.Select(s => s.LagNs!.Value)));
    }
}
