using BenchDashboard.Core.Statistics.Changes;

namespace BenchDashboard.TestSupport;

/// <summary>
/// How one synthetic run is drawn: its level (a factor on the median), its run-to-run noise (the coefficient of
/// variation of a run's level), the spread of its requests (σ of their log) and a slow share of requests (its
/// tail: that share of requests is that many times slower).
/// </summary>
public sealed record RunShape(double Level = 1, double RunNoise = 0.2, double RequestSigma = 0.3, double TailShare = 0, double TailFactor = 1);

/// <summary>
/// A generated history with a known truth, for the change rule's evaluation: every run's requests drawn from a
/// log-normal around a 2 ms median, each run's level multiplied by log-normal run-to-run noise.
/// </summary>
/// <param name="ChangeAt">The index of the first run after the true change; null for a history with none.</param>
/// <param name="Truth">The change's direction (a regression for slower), or none.</param>
/// <param name="Repeats">A drift changes at every run: calls after the first are true too.</param>
public sealed record ChangeHistoryCase(string Name, int Runs, int? ChangeAt, ChangeDirection Truth, Func<int, RunShape> Shape, bool Repeats = false)
{
    public const int RequestsPerRun = 400;
    const double MedianNs = 2_000_000;

    /// <summary>The history for one seed: each run's figures and its sorted latencies.</summary>
    public (IReadOnlyList<HistoryRun> Runs, IReadOnlyDictionary<long, long[]> Latencies) Generate(int seed)
    {
        var random = new Random(seed);
        var runs = new List<HistoryRun>();
        var latencies = new Dictionary<long, long[]>();
        for (var i = 0; i < Runs; i++)
        {
            var shape = Shape(i);
            // A log-normal whose coefficient of variation is the run noise: σ² = ln(1 + cv²).
            var runSigma = Math.Sqrt(Math.Log(1 + shape.RunNoise * shape.RunNoise));
            var level = MedianNs * shape.Level * Math.Exp(runSigma * Normal(random));
            var values = new long[RequestsPerRun];
            for (var j = 0; j < values.Length; j++)
            {
                var slow = random.NextDouble() < shape.TailShare ? shape.TailFactor : 1;
                values[j] = (long)(level * slow * Math.Exp(shape.RequestSigma * Normal(random)));
            }
            Array.Sort(values);
            var id = i + 1L;
            latencies[id] = values;
            runs.Add(new HistoryRun(id, "same", Rank(values, 500), Rank(values, 950), Rank(values, 990)));
        }
        return (runs, latencies);
    }

    static long Rank(long[] sorted, int permille) => Core.Statistics.Percentile.NearestRank(sorted, permille);

    static double Normal(Random random) =>
        Math.Sqrt(-2 * Math.Log(1 - random.NextDouble())) * Math.Cos(2 * Math.PI * random.NextDouble());

    /// <summary>Stationary: no change, at a run-to-run noise of 5, 20 or 50 %.</summary>
    public static ChangeHistoryCase Stationary(double noise, int runs = 200) =>
        new($"stationary, {noise:P0} noise", runs, null, ChangeDirection.None, _ => new RunShape(RunNoise: noise));

    /// <summary>The median (and every percentile with it) steps up by <paramref name="factor"/> at run <paramref name="at"/>.</summary>
    public static ChangeHistoryCase Step(double factor, double noise, int at = 40, int after = 30) =>
        new($"step ×{factor:0.##} at {noise:P0} noise", at + after, at, ChangeDirection.Regression, i => new RunShape(i >= at ? factor : 1, noise));

    /// <summary>A slow drift: +<paramref name="perRun"/> a run from run <paramref name="at"/> on.</summary>
    public static ChangeHistoryCase Drift(double perRun, double noise, int at = 40, int after = 40) =>
        new($"drift +{perRun:P0} a run at {noise:P0} noise", at + after, at, ChangeDirection.Regression,
            i => new RunShape(Math.Pow(1 + perRun, Math.Max(0, i - at + 1)), noise), Repeats: true);

    /// <summary>Stationary but for single runs <paramref name="factor"/> times slower every <paramref name="every"/> runs.</summary>
    public static ChangeHistoryCase Outliers(double factor, double noise, int every = 25, int runs = 200) =>
        new($"single runs ×{factor:0.#} every {every} at {noise:P0} noise", runs, null, ChangeDirection.None,
            i => new RunShape(i % every == every - 1 ? factor : 1, noise));

    /// <summary>The requests' spread widens (σ of their log from 0.3 to 0.45): the median stays, p95 and p99 rise.</summary>
    public static ChangeHistoryCase Variance(double noise, int at = 40, int after = 30) =>
        new($"requests' spread 0.3 → 0.45 at {noise:P0} noise", at + after, at, ChangeDirection.Regression,
            i => new RunShape(RunNoise: noise, RequestSigma: i >= at ? 0.45 : 0.3));

    /// <summary>3 % of requests become 4× slower: p99 about doubles, the median moves by under 1 %.</summary>
    public static ChangeHistoryCase Tail(double noise, int at = 40, int after = 30) =>
        new($"tail only (p99 ×2) at {noise:P0} noise", at + after, at, ChangeDirection.Regression,
            i => new RunShape(RunNoise: noise, TailShare: i >= at ? 0.03 : 0, TailFactor: 4));

    /// <summary>The runs become noisier (run-to-run noise from 5 to 20 %) at the same level: no change in level to call.</summary>
    public static ChangeHistoryCase NoisierRuns(int at = 40, int after = 60) =>
        new("runs noisier (5 % → 20 %), same level", at + after, null, ChangeDirection.None, i => new RunShape(RunNoise: i >= at ? 0.2 : 0.05));
}
