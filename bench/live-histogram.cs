// What closing one second of live figures costs while the workers wait: LiveRunStats reads p50, p95 and p99
// of the second's LiveHistogram (HdrHistogram, 3 significant digits, up to a day) and clears it, under the lock
// every worker takes to add a sample. Prints the best and median cost of that, after SAMPLES values a second.
//   usage: dotnet run bench/live-histogram.cs -c Release -- [SAMPLES=2000] [ROUNDS=200]
#:project ../src/Core/BenchDashboard.Core.csproj
#:property PublishAot=false
using System.Diagnostics;
using BenchDashboard.Core.Statistics;

var samples = args.Length > 0 ? int.Parse(args[0]) : 2000;
var rounds = args.Length > 1 ? int.Parse(args[1]) : 200;
var second = new LiveHistogram();
var random = new Random(1);
var costs = new List<double>();
for (var round = 0; round < rounds; round++)
{
    for (var i = 0; i < samples; i++) second.Add(1_000_000 + random.Next(5_000_000)); // 1–6 ms
    var start = Stopwatch.GetTimestamp();
    _ = (second.ValueAt(500), second.ValueAt(950), second.ValueAt(990));
    second.Clear();
    if (round >= rounds / 10) costs.Add(Stopwatch.GetElapsedTime(start).TotalMicroseconds); // after the JIT's warm-up
}
costs.Sort();
Console.WriteLine($"closing a second of {samples} samples: best {costs[0]:F1} us, median {costs[costs.Count / 2]:F1} us, worst {costs[^1]:F1} us ({costs.Count} rounds)");
