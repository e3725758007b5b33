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
        var table = SampleTable.Of(samples);
        return From(table, table.AllRows());
    }

    /// <summary>As <see cref="From(IReadOnlyList{Sample})"/>, over the rows <paramref name="rows"/> of a table.</summary>
    public static OpenLoadReport? From(SampleTable t, int[] rows)
    {
        if (!t.HasLag) return null;
        var measured = SampleTable.Where(rows, r => !t.IsWarmup(r) && t.LagNs(r).HasValue);
        if (measured.Length == 0) return null;
        long origin = long.MaxValue, last = long.MinValue;
        foreach (var r in measured)
        {
            origin = Math.Min(origin, t.OffsetNs(r));
            last = Math.Max(last, t.OffsetNs(r) + t.LagNs(r)!.Value);
        }
        var seconds = (int)((last - origin) / 1_000_000_000) + 1;
        var due = new int[seconds];
        var started = new int[seconds];
        var late = 0;
        foreach (var r in measured)
        {
            var lag = t.LagNs(r)!.Value;
            due[(t.OffsetNs(r) - origin) / 1_000_000_000]++;
            started[(t.OffsetNs(r) + lag - origin) / 1_000_000_000]++;
            if (lag > LateNs) late++;
        }
        return new OpenLoadReport(
            Enumerable.Range(0, seconds).Select(i => new SecondRate(i, due[i], started[i])).ToList(),
            late,
            LatencyLadder.FromUnsorted(t.ScratchValues(measured, _ => true, r => t.LagNs(r)!.Value)));
    }
}
