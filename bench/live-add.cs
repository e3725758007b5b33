// What LiveRunStats.Add costs the measuring thread per sample: a run of one request (no series) and a journey of two
// steps and its iterations, one thread adding SAMPLES samples ROUNDS times; prints the median and best ns a sample.
// bench/live-add.sh runs it on the commit before a change and on this tree, alternately.
//   usage: dotnet run bench/live-add.cs -c Release -- [LABEL] [SAMPLES=2000000] [ROUNDS=15]
#:project ../src/Processing/BenchDashboard.Processing.csproj
#:property PublishAot=false
using System.Diagnostics;
using BenchDashboard.Core.Runs;
using BenchDashboard.Processing.Executing;

var label = args.Length > 0 ? args[0] : "this tree";
var count = args.Length > 1 ? int.Parse(args[1]) : 2_000_000;
var rounds = args.Length > 2 ? int.Parse(args[2]) : 15;

// Made once, as a run makes them: the cost measured is Add's, not the samples'.
Sample[] Samples(bool journey) => Enumerable.Range(0, count).Select(i => new Sample
{
    Index = i, LatencyNs = 1_000_000 + i % 5_000_000, OffsetNs = i * 1_000L,
    Series = journey ? (i % 3) switch { 0 => "iteration", 1 => "login", _ => "orders" } : null,
}).ToArray();

LiveRunStats Made(bool journey) =>
#if ITERATIONS
    journey ? new LiveRunStats(new BenchDashboard.Core.Benchmarks.SeriesBasis(false, false, Iterations: "iteration").IsIterations) : new LiveRunStats();
#else
    new LiveRunStats();
#endif

foreach (var journey in new[] { false, true })
{
    var samples = Samples(journey);
    var costs = new List<double>();
    for (var round = 0; round < rounds; round++)
    {
        var live = Made(journey);
        var start = Stopwatch.GetTimestamp();
        foreach (var sample in samples) live.Add(sample);
        costs.Add(Stopwatch.GetElapsedTime(start).TotalNanoseconds / count);
        _ = live.Snapshot();
    }
    var kept = costs.Skip(2).Order().ToList(); // the first rounds compile and warm up
    Console.WriteLine($"| {label} | {(journey ? "journey (2 steps + iteration)" : "one request")} | {kept[kept.Count / 2]:F1} ns | {kept[0]:F1} ns |");
}
