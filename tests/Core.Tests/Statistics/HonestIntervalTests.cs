using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Tests.Statistics;

/// <summary>
/// The intervals verdicts rest on, against data whose truth is known: A/A pairs (no difference) with the kinds
/// of dependence real runs have. The old request-level bootstrap is run on the same data to show what it got wrong.
/// </summary>
public class HonestIntervalTests
{
    /// <summary>Log-normal latencies around 1 ms whose log follows an AR(1) with coefficient <paramref name="phi"/> (0: independent).</summary>
    static long[] Drifting(int n, double phi, Random random)
    {
        var values = new long[n];
        double x = 0, innovation = 0.2 * Math.Sqrt(1 - phi * phi);
        for (var i = 0; i < n; i++)
        {
            x = phi * x + innovation * Normal(random);
            values[i] = (long)(1e6 * Math.Exp(x));
        }
        return values;
    }

    static double Normal(Random random) => Math.Sqrt(-2 * Math.Log(1 - random.NextDouble())) * Math.Cos(2 * Math.PI * random.NextDouble());

    [Fact]
    public void IndependentLatenciesNeedNoLongerBlocks()
    {
        var random = new Random(1);
        var a = Drifting(4000, 0, random).Select(v => (double)v).ToArray();
        var b = Drifting(4000, 0, random).Select(v => (double)v).ToArray();
        Assert.Equal(1, BlockBootstrap.BlockLength(a, b));
    }

    [Fact]
    public void CorrelatedLatenciesAreResampledInBlocksAsLongAsTheCorrelation()
    {
        var random = new Random(2);
        var a = Drifting(5000, 0.9, random).Select(v => (double)v).ToArray();
        var b = Drifting(5000, 0.9, random).Select(v => (double)v).ToArray();
        // 0.9^k falls below 2/√5000 = 0.028 at k ≈ 34.
        Assert.InRange(BlockBootstrap.BlockLength(a, b), 20, 60);
    }

    [Fact]
    public void ABlockBootstrapKeepsItsLevelWhereRequestResamplingCallsNoiseSignificant()
    {
        // 60 A/A pairs of slowly wandering latencies (each variant its own wander): a 95 % interval should
        // exclude no change about 3 times.
        int blockCalls = 0, requestCalls = 0;
        for (var trial = 0; trial < 60; trial++)
        {
            var random = new Random(100 + trial);
            var a = Drifting(1000, 0.8, random);
            var b = Drifting(1000, 0.8, random);
            if (BlockBootstrap.Change(a, b, 500, seed: trial)!.IsSignificant) blockCalls++;
            if (Bootstrap.Change(a, b, 500, resamples: 500, seed: trial)!.IsSignificant) requestCalls++;
        }
        Assert.True(blockCalls <= 8, $"block bootstrap called {blockCalls} of 60 A/A pairs significant");
        Assert.True(requestCalls >= 15, $"request bootstrap called {requestCalls} of 60: the contrast this test relies on is gone");
    }

    [Fact]
    public void DriftSharedByInterleavedVariantsCancelsInTheirPairing()
    {
        // Both variants ride the same slow drift (the machine), B is truly 5 % slower.
        var random = new Random(7);
        var drift = Drifting(3000, 0.99, random);
        var a = drift.Select(d => (long)(d * (1 + 0.02 * Normal(random)))).ToArray();
        var b = drift.Select(d => (long)(d * 1.05 * (1 + 0.02 * Normal(random)))).ToArray();

        var change = BlockBootstrap.Change(a, b, 500)!;
        Assert.True(change.Lower > 0.03 && change.Upper < 0.07, $"{change.Lower:P2} to {change.Upper:P2}");
    }

    [Fact]
    public void GroupsOfRunsIncludeTheVariationBetweenRuns()
    {
        // Each run is shifted by its own factor (sd 5 %: JIT, CPU frequency, neighbours); three runs a side, A/A.
        int groupCalls = 0, pooledCalls = 0;
        for (var trial = 0; trial < 60; trial++)
        {
            var random = new Random(500 + trial);
            IReadOnlyList<long> Run() { var shift = Math.Exp(0.05 * Normal(random)); return Drifting(500, 0, random).Select(v => (long)(v * shift)).Order().ToArray(); }
            var a = new[] { Run(), Run(), Run() };
            var b = new[] { Run(), Run(), Run() };
            if (HierarchicalBootstrap.Change(a, b, 500, resamples: 1000, seed: trial)!.IsSignificant) groupCalls++;
            if (Bootstrap.Change(a.SelectMany(r => r).ToArray(), b.SelectMany(r => r).ToArray(), 500, resamples: 500, seed: trial)!.IsSignificant) pooledCalls++;
        }
        Assert.True(groupCalls <= 8, $"hierarchical bootstrap called {groupCalls} of 60 A/A pairs significant");
        Assert.True(pooledCalls >= 15, $"pooled request bootstrap called {pooledCalls} of 60: the contrast this test relies on is gone");
    }

    [Fact]
    public void RunToRunSpreadIsStudentsPredictionOfTwoDraws()
    {
        double[] medians = [9e6, 10e6, 11e6, 10e6, 10e6];
        var logs = medians.Select(m => Math.Log(m)).ToArray();
        var mean = logs.Average();
        var sd = Math.Sqrt(logs.Sum(l => (l - mean) * (l - mean)) / 4);

        var spread = RunToRunSpread.Of([medians])!;
        Assert.Equal(5, spread.Runs);
        Assert.Equal(sd, spread.LogSd, 12);
        Assert.Equal(2.7764451 * sd * Math.Sqrt(2), spread.HalfWidth, 6); // t(0.975, 4 degrees of freedom)
        Assert.Null(RunToRunSpread.Of([[10e6, 11e6]])); // two runs say too little
    }
}
