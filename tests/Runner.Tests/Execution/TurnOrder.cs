using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Runner.Execution;

namespace BenchDashboard.Runner.Tests.Execution;

static class TurnOrder
{
    /// <summary>The variants in the order the load driver takes them in <paramref name="rounds"/>: a block of each per round, from the round's drawn leader on (the given order in round 0, as in a worker's first).</summary>
    public static IEnumerable<T> Of<T>(IReadOnlyList<T> variants, IEnumerable<int> rounds, int block = 1) =>
        rounds.SelectMany(round => Enumerable.Range(0, variants.Count)
            .SelectMany(turn => Enumerable.Repeat(variants[(VariantTurns.First(round, variants.Count) + turn) % variants.Count], block)));
}
