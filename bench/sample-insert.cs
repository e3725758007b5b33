// Storing samples on EF Core 10: SampleWriter's prepared INSERT (called as the writer calls it) against EF
// Core's AddRange + SaveChanges, on a migrated SQLite file in WAL mode, in transactions of BATCH samples.
// Prints the CPU this process used per sample and samples/s for each, best of ROUNDS.
//   usage: dotnet run bench/sample-insert.cs -- [SAMPLES=100000] [BATCH=5000] [ROUNDS=3]
#:project ../src/Runner/BenchDashboard.Runner.csproj
#:property PublishAot=false
using System.Diagnostics;
using System.Reflection;
using BenchDashboard.Core.Data;
using BenchDashboard.Core.Runs;
using BenchDashboard.Runner.Execution;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Storage;

var samples = args.Length > 0 ? int.Parse(args[0]) : 100_000;
var batchSize = args.Length > 1 ? int.Parse(args[1]) : 5_000;
var rounds = args.Length > 2 ? int.Parse(args[2]) : 3;
var path = Path.Combine(Path.GetTempPath(), $"sample-insert-{Environment.ProcessId}.db");
var options = new DbContextOptionsBuilder<BenchDbContext>().UseSqlite($"Data Source={path}").Options;
await using (var db = new BenchDbContext(options))
{
    await db.Database.MigrateAsync();
    await db.Database.ExecuteSqlRawAsync("PRAGMA journal_mode=WAL;");
}
var insert = (Func<BenchDbContext, IDbContextTransaction, List<Sample>, Task>)typeof(SampleWriter)
    .GetMethod("InsertAsync", BindingFlags.NonPublic | BindingFlags.Static)!
    .CreateDelegate(typeof(Func<BenchDbContext, IDbContextTransaction, List<Sample>, Task>));

async Task<long> NewRunAsync()
{
    await using var db = new BenchDbContext(options);
    var run = new Run { Kind = "http", ParametersJson = "{}", QueuedUtcMs = 0 };
    db.Runs.Add(run);
    await db.SaveChangesAsync();
    return run.Id;
}

List<Sample> Batch(long runId, int from) => Enumerable.Range(from, Math.Min(batchSize, samples - from)).Select(i => new Sample
{
    RunId = runId, Index = i, OffsetNs = i * 1_000_000L, LatencyNs = 1_234_567 + i, HeadersNs = 1_000_000, ConnectNs = 50_000, StatusCode = 200, Bytes = 4096,
}).ToList();

async Task<(double CpuUsPerSample, double PerSecond)> MeasureAsync(Func<BenchDbContext, IDbContextTransaction, List<Sample>, Task> write)
{
    var runId = await NewRunAsync();
    var batches = Enumerable.Range(0, (samples + batchSize - 1) / batchSize).Select(b => Batch(runId, b * batchSize)).ToList();
    var cpu = Process.GetCurrentProcess().TotalProcessorTime;
    var wall = Stopwatch.StartNew();
    foreach (var batch in batches)
    {
        await using var db = new BenchDbContext(options);
        await using var transaction = await db.Database.BeginTransactionAsync();
        await write(db, transaction, batch);
        await transaction.CommitAsync();
    }
    wall.Stop();
    var used = Process.GetCurrentProcess().TotalProcessorTime - cpu;
    return (used.TotalMicroseconds / samples, samples / wall.Elapsed.TotalSeconds);
}

var saveChanges = async (BenchDbContext db, IDbContextTransaction _, List<Sample> batch) =>
{
    db.Samples.AddRange(batch);
    await db.SaveChangesAsync();
};
foreach (var (name, write) in new[] { ("prepared INSERT", insert), ("AddRange + SaveChanges", saveChanges) })
{
    var results = new List<(double Cpu, double PerSecond)>();
    for (var r = 0; r < rounds; r++) results.Add(await MeasureAsync(write));
    var best = results.MinBy(x => x.Cpu);
    Console.WriteLine($"{name,-24} {best.Cpu,6:N1} µs CPU/sample  {best.PerSecond,9:N0} samples/s  (rounds: {string.Join(", ", results.Select(x => x.Cpu.ToString("N1")))} µs)");
}
File.Delete(path);
