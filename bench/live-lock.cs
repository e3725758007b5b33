// How long LiveRunStats' lock is held, by the measuring thread's Add and by the heartbeat's Snapshot. Runs only
// through bench/live-lock.sh, against scratch copies of the runner whose lock is a TimedLock
// (bench/live-lock-timer.cs.txt): one thread adds samples at RATE a second, paced by spinning (series named
// 0..SERIES-1 in turn, latencies 1–6 ms, 1 % HTTP errors), another takes a Snapshot every second, half-way
// between two second boundaries, as the heartbeat does. Stopwatch ticks, read by the lock itself:
//   closing Add: the Add that closes a second (the first in it by this program's clock; LiveRunStats reads
//                the same clock within a microsecond of it);
//   Snapshot:    the longest single hold and the total held per Snapshot call;
//   other Adds:  the median and p99.9 hold, and the longest in each second: this machine's noise (preemption,
//                a garbage collection, a stolen virtual CPU) lands in a hold too, so a single maximum says little.
// The first two seconds (the JIT's tiers) are left out. Prints one Markdown row: medians / maxima.
//   usage (from the script): dotnet run live-lock.cs -c Release -- LABEL [RATE=3500] [SECONDS=20] [SERIES=2]
#:project ../src/Runner/BenchDashboard.Runner.csproj
#:property PublishAot=false
using System.Diagnostics;
using BenchDashboard.Core.Runs;
using BenchDashboard.Runner.Execution;

var label = args.Length > 0 ? args[0] : "this";
var rate = args.Length > 1 ? int.Parse(args[1]) : 3_500;
var seconds = args.Length > 2 ? int.Parse(args[2]) : 20;
var seriesCount = args.Length > 3 ? int.Parse(args[3]) : 2;
const int SkipSeconds = 2;

// Compiled first: compiling the first Add would put the start it reads behind the one read here, and every
// second boundary with it.
var warm = new LiveRunStats();
for (var i = 0; i < 1_000; i++) warm.Add(new Sample { Index = i, Series = "0", LatencyNs = 1_000_000 });
warm.Snapshot();
var live = new LiveRunStats();
var f = Stopwatch.Frequency;
double Us(long ticks) => ticks * 1e6 / f;
var names = Enumerable.Range(0, seriesCount).Select(i => i.ToString()).ToArray();
var random = new Random(1);
var sample = new Sample();
var closing = new List<long>();
var longestOther = new long[seconds + 1];
var holds = new List<long>(rate * seconds);
var snapshotLongest = new List<long>();
var snapshotTotal = new List<long>();
long t0 = 0;

var heartbeat = new Thread(() =>
{
    while (Volatile.Read(ref t0) == 0) Thread.Yield();
    for (var k = 0; k < seconds - 1; k++)
    {
        var due = t0 + (long)((k + 0.5) * f);
        while (Stopwatch.GetTimestamp() < due - f / 100) Thread.Sleep(1);
        while (Stopwatch.GetTimestamp() < due) Thread.SpinWait(20);
        TimedLock.TakeHeld();
        live.Snapshot();
        var (total, longest) = TimedLock.TakeHeld();
        if (k >= SkipSeconds)
        {
            snapshotLongest.Add(longest);
            snapshotTotal.Add(total);
        }
    }
}) { IsBackground = true };
heartbeat.Start();

var (end, lastSecond) = (0L, 0L);
for (var index = 0; ; index++)
{
    if (t0 != 0)
    {
        var due = t0 + (long)((index - 0.5) * f / rate); // half a step off the boundaries: the closing Add is never in doubt
        if (due >= end) break;
        while (Stopwatch.GetTimestamp() < due) { }
    }
    sample.Index = index;
    sample.Series = names.Length == 0 ? null : names[index % names.Length];
    sample.LatencyNs = 1_000_000 + random.Next(5_000_000);
    sample.Error = random.Next(100) == 0 ? ErrorKind.HttpStatus : ErrorKind.None;
    var before = Stopwatch.GetTimestamp();
    live.Add(sample);
    var (held, _) = TimedLock.TakeHeld();
    if (t0 == 0)
    {
        end = before + seconds * f;
        Volatile.Write(ref t0, before);
    }
    var second = (before - t0) / f;
    var closes = second != lastSecond;
    lastSecond = second;
    if (second < SkipSeconds) continue;
    if (closes) closing.Add(held);
    else
    {
        holds.Add(held);
        longestOther[second] = Math.Max(longestOther[second], held);
    }
}
heartbeat.Join();

static string Format(double v) => v.ToString(v < 10 ? "F2" : "F0");
string MedianMax(List<long> ticks) => $"{Format(Us(ticks.Order().ElementAt(ticks.Count / 2)))} / {Format(Us(ticks.Max()))}";
holds.Sort();
Console.WriteLine($"| {label} | {rate:N0} | {seriesCount} | {MedianMax(closing)} | {MedianMax(snapshotLongest)} | {MedianMax(snapshotTotal)} | " +
    $"{Format(Us(holds[holds.Count / 2]))} / {Format(Us(holds[(int)(holds.Count * 0.999)]))} | {MedianMax(longestOther[SkipSeconds..seconds].ToList())} | {closing.Count} / {snapshotLongest.Count} |");
