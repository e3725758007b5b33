namespace BenchDashboard.Core.Benchmarks;

/// <summary>
/// Which variant leads each round of interleaved variants. Always the first led, an A/A pair at c = 1 on a loaded
/// machine was called different in 3-8 of 20 runs: whatever alternates in the machine with every other request
/// (a pass of a busy neighbour, the server's own rhythm) lined up with A B A B and was taken for the variants'
/// difference. Drawn per round, it cannot. A hash of the round's number, not a shared random source: the same
/// run gives the same order, and workers draw without a lock. Round 0, and each worker's first round, go in the
/// order the variants were given, so the series begin in that order (the run's pages list them so, and the first
/// is the baseline its verdicts are judged against).
/// </summary>
public static class VariantTurns
{
    /// <summary>The variant that goes first in round <paramref name="round"/>; the others follow in turn after it.</summary>
    public static int First(long round, int variants)
    {
        if (variants <= 1 || round == 0) return 0;
        // SplitMix64's finaliser: consecutive rounds give unrelated values.
        var z = (ulong)round + 0x9E3779B97F4A7C15UL;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9UL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBUL;
        z ^= z >> 31;
        return (int)(z % (ulong)variants);
    }
}
