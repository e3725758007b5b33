// Bytes the HTTP measuring path allocates per request, apart from storing: the real HttpBenchmark (load driver,
// engine, sample, live figures) against a target in another process, its samples counted and dropped instead of
// stored. GC.GetTotalAllocatedBytes over the whole process, so run it against nginx (bench/engine-alloc.sh),
// never against a server in this process. Prints bytes and gen0 collections per request for each engine.
//   usage: dotnet run bench/engine-alloc.cs -c Release -- URL [REQUESTS=200000] [CONCURRENCY=16]
#:project ../src/Runner/BenchDashboard.Runner.csproj
#:property PublishAot=false
using BenchDashboard.Core;
using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Security;
using BenchDashboard.Runner;
using BenchDashboard.Runner.Execution;
using BenchDashboard.Runner.Http;
using Microsoft.Extensions.Options;

var url = args[0];
var requests = args.Length > 1 ? int.Parse(args[1]) : 200_000;
var concurrency = args.Length > 2 ? int.Parse(args[2]) : 16;
var policy = new TargetPolicy(new TargetOptions { AllowLoopback = true }, isDevelopment: false, siteHostName: null);

foreach (var engine in new[] { HttpEngine.Auto, HttpEngine.Sockets, HttpEngine.Auto, HttpEngine.Sockets })
{
    var parameters = new HttpParameters { Url = url, Requests = requests, Concurrency = concurrency, WarmupRequests = 20_000 };
    long stored = 0;
    using var context = new RunContext(new Run { Id = 1, Kind = HttpKind.KindName, ParametersJson = Json.Serialize(parameters) },
        _ => { Interlocked.Increment(ref stored); return true; }, metrics: false);
    var benchmark = new HttpBenchmark(policy, Options.Create(new RunnerOptions { HttpEngine = engine }));
    // Each engine twice: the first pass counts the JIT's allocations too; read the second.
    var before = GC.GetTotalAllocatedBytes(precise: true);
    var gen0 = GC.CollectionCount(0);
    await benchmark.ExecuteAsync(context, CancellationToken.None);
    var bytes = GC.GetTotalAllocatedBytes(precise: true) - before;
    Console.WriteLine($"{(engine == HttpEngine.Auto ? "lean" : "sockets"),-8} c={concurrency}: {bytes / (double)stored,8:F0} bytes and {(GC.CollectionCount(0) - gen0) * 1000.0 / stored:F3} gen0 per 1,000 requests ({stored:N0} samples, warm-up included)");
}
