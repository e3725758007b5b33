// Issue 44 goal "Memory": what building a 1 M-sample run's digest costs in memory, in a process that has done nothing
// else. `store` writes an HTTP run of N generated samples into a fresh SQLite file through SampleBlockAppender, as the
// sample writer stores them (the generator is bench/sample-blocks.cs's: 16 connections, ~1 ms log-normal latencies,
// a connect on each connection's first request, 1 in 1,000 a 503, the first 100 warm-up). `digest` is run in a new
// process: it opens the database, reads nothing, settles (full GC), takes that as idle, then builds and stores the
// run's digest (RunDigests.BuildAsync) and reports the peak working set and the peak GC heap above idle (a sampler
// thread reads both every 5 ms; Process.PeakWorkingSet64 is checked too) and the build's wall time.
//   usage: dotnet run bench/digest-memory.cs -c Release -- store PATH [SAMPLES=1000000]
//          dotnet run bench/digest-memory.cs -c Release -- digest PATH
//   bench/digest-memory.sh does both, in separate processes.
#:project ../src/Runner/BenchDashboard.Runner.csproj
#:property PublishAot=false
using System.Diagnostics;
using BenchDashboard.Core;
using BenchDashboard.Core.Data;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Security;
using BenchDashboard.Core.Stores;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Storage;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Hosting.Internal;

var mode = args[0];
var path = args[1];
var options = DatabaseProviders.UseSqlite(new DbContextOptionsBuilder<BenchDbContext>(), path, 30).Options;

if (mode == "store")
{
    var count = args.Length > 2 ? int.Parse(args[2]) : 1_000_000;
    long runId;
    await using (var db = new BenchDbContext(options))
    {
        await db.Database.EnsureDeletedAsync();
        await db.Database.MigrateAsync();
        var run = new Run
        {
            Kind = "http", ParametersJson = """{"url":"http://127.0.0.1:8080/4k.bin","requests":1000000,"concurrency":16}""",
            QueuedUtcMs = 0, Status = RunStatus.Completed,
        };
        db.Runs.Add(run);
        await db.SaveChangesAsync();
        runId = run.Id;
    }
    var samples = Make(count, runId);
    var appender = new SampleBlockAppender();
    for (var at = 0; at < samples.Count; at += 2_000)
    {
        await using var db = new BenchDbContext(options);
        await using var transaction = await db.Database.BeginTransactionAsync();
        appender.Committed(appender.Write(db.Database.GetDbConnection(), transaction.GetDbTransaction(), samples.GetRange(at, Math.Min(2_000, samples.Count - at))));
        await transaction.CommitAsync();
    }
    Console.WriteLine($"stored run {runId}: {samples.Count:N0} samples in {path} ({new FileInfo(path).Length / 1e6:N1} MB with its WAL apart)");
    return;
}

var services = new ServiceCollection()
    .AddSingleton<IConfiguration>(new ConfigurationBuilder().Build())
    .AddLogging()
    .AddSingleton<IHostEnvironment>(new HostingEnvironment { EnvironmentName = Environments.Production, ApplicationName = "bench", ContentRootPath = Path.GetDirectoryName(Path.GetFullPath(path))! })
    .AddBenchmarkKinds()
    .AddDbContext<BenchDbContext>(o => DatabaseProviders.UseSqlite(o, path, 30))
    .AddSingleton(sp => new ParameterDisplay(InstallationKeys.Loader(sp.GetRequiredService<IServiceScopeFactory>())))
    .AddScoped<RunDigests>()
    .BuildServiceProvider();
using var scope = services.CreateScope();
var context = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
var target = await context.Runs.AsNoTracking().SingleAsync();
var stored = await RunSamples.CountAsync(context, target.Id);

GC.Collect(2, GCCollectionMode.Forced, blocking: true, compacting: true);
GC.WaitForPendingFinalizers();
var process = Process.GetCurrentProcess();
process.Refresh();
long idleSet = process.WorkingSet64, idleHeap = GC.GetTotalMemory(false);
long peakSet = idleSet, peakHeap = idleHeap;
var sampling = true;
var sampler = new Thread(() =>
{
    using var self = Process.GetCurrentProcess();
    while (Volatile.Read(ref sampling))
    {
        self.Refresh();
        peakSet = Math.Max(peakSet, self.WorkingSet64);
        peakHeap = Math.Max(peakHeap, GC.GetTotalMemory(false));
        Thread.Sleep(5);
    }
}) { IsBackground = true };
sampler.Start();
var wall = Stopwatch.StartNew();
var digests = await scope.ServiceProvider.GetRequiredService<RunDigests>().BuildAsync(target, store: true, CancellationToken.None);
wall.Stop();
Volatile.Write(ref sampling, false);
sampler.Join();
process.Refresh();
peakSet = Math.Max(peakSet, process.PeakWorkingSet64);
var measured = digests.Values.First().Statistics.Count + digests.Values.First().Statistics.WarmupCount;
if (measured != stored) throw new InvalidOperationException($"the digest counts {measured} samples, the store {stored}");
Console.WriteLine($"digest of {stored:N0} samples: {wall.Elapsed.TotalSeconds:N2} s; peak working set {(peakSet - idleSet) / 1e6:N0} MB above idle ({idleSet / 1e6:N0} MB), " +
    $"peak GC heap {(peakHeap - idleHeap) / 1e6:N0} MB above idle ({idleHeap / 1e6:N0} MB)");

static List<Sample> Make(int n, long runId)
{
    var random = new Random(44);
    var free = new long[16];
    var seen = new bool[16];
    var list = new List<Sample>(n);
    long clock = 0;
    for (var i = 0; i < n; i++)
    {
        // The next request goes on the connection free first, when it is free.
        var c = 0;
        for (var k = 1; k < 16; k++) if (free[k] < free[c]) c = k;
        clock = Math.Max(clock, free[c]) + random.Next(200, 3_000);
        var latency = (long)(1_000_000 * Math.Exp(0.25 * Normal(random)));
        var error = random.Next(1_000) == 0;
        list.Add(new Sample
        {
            RunId = runId, Index = i, OffsetNs = clock, LatencyNs = latency, HeadersNs = latency - random.Next(5_000, 60_000),
            ConnectNs = seen[c] ? null : 80_000 + random.Next(40_000), StatusCode = error ? 503 : 200, Error = error ? ErrorKind.HttpStatus : ErrorKind.None,
            Bytes = error ? 150 : 4096, Connection = c, IsWarmup = i < 100,
        });
        seen[c] = true;
        free[c] = clock + latency;
    }
    return list;
}

static double Normal(Random random) => Math.Sqrt(-2 * Math.Log(1 - random.NextDouble())) * Math.Cos(2 * Math.PI * random.NextDouble());
