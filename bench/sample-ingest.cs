// Sample ingest by provider as rows, the store before blocks (as the writer called it then: a prepared statement stepped per
// sample on SQLite, one binary COPY per batch on PostgreSQL through Core's SampleCopy), BATCH samples a transaction, best of ROUNDS by the
// CPU this process used per sample. The server's own CPU (PostgreSQL's backend) is not in the figure.
//   usage: dotnet run bench/sample-ingest.cs -c Release -- POSTGRES_CONNECTION_STRING [SAMPLES=100000] [BATCH=5000] [ROUNDS=3]
//   bench/sample-ingest.sh starts a throw-away PostgreSQL cluster and runs this.
#:project ../src/Runner/BenchDashboard.Runner.csproj
#:property PublishAot=false
using System.Diagnostics;
using BenchDashboard.Core.Data;
using BenchDashboard.Core.Runs;
using Microsoft.EntityFrameworkCore;

var postgres = args[0];
var samples = args.Length > 1 ? int.Parse(args[1]) : 100_000;
var batchSize = args.Length > 2 ? int.Parse(args[2]) : 5_000;
var rounds = args.Length > 3 ? int.Parse(args[3]) : 3;
var path = Path.Combine(Path.GetTempPath(), $"sample-ingest-{Environment.ProcessId}.db");
// The row store's writes, as the sample writer made them before blocks (bench/sample-blocks.cs compares with blocks).
static void insert(BenchDbContext db, List<Sample> batch)
{
    if (db.Database.IsSqlite()) SampleInsert.Write((Microsoft.Data.Sqlite.SqliteConnection)db.Database.GetDbConnection(), batch);
    else SampleCopy.Write((Npgsql.NpgsqlConnection)db.Database.GetDbConnection(), batch);
}

var stores = new (string Name, DbContextOptions<BenchDbContext> Options)[]
{
    ("SQLite, prepared statement", DatabaseProviders.UseSqlite(new DbContextOptionsBuilder<BenchDbContext>(), path, 30).Options),
    ("PostgreSQL, binary COPY", DatabaseProviders.UsePostgreSql(new DbContextOptionsBuilder<BenchDbContext>(), postgres).Options),
};
foreach (var (name, options) in stores)
{
    await using (var db = new BenchDbContext(options))
    {
        await db.Database.MigrateAsync();
        if (db.Database.IsSqlite()) await db.Database.ExecuteSqlRawAsync("PRAGMA journal_mode=WAL;"); // as the dashboard sets it
    }
    var results = new List<(double Cpu, double PerSecond, double Bytes)>();
    for (var r = 0; r < rounds; r++) results.Add(await MeasureAsync(options));
    var best = results.MinBy(x => x.Cpu);
    Console.WriteLine($"{name,-24} {best.Cpu,6:N1} µs CPU/sample  {best.PerSecond,9:N0} samples/s {best.Bytes,7:N0} B allocated/sample  (rounds: {string.Join(", ", results.Select(x => $"{x.Cpu:N1} µs {x.PerSecond:N0}/s"))})");
}
File.Delete(path);

async Task<(double CpuUsPerSample, double PerSecond, double BytesPerSample)> MeasureAsync(DbContextOptions<BenchDbContext> options)
{
    long runId;
    await using (var db = new BenchDbContext(options))
    {
        var run = new Run { Kind = "http", ParametersJson = "{}", QueuedUtcMs = 0 };
        db.Runs.Add(run);
        await db.SaveChangesAsync();
        runId = run.Id;
    }
    var batches = Enumerable.Range(0, (samples + batchSize - 1) / batchSize).Select(b => Enumerable.Range(b * batchSize, Math.Min(batchSize, samples - b * batchSize)).Select(i => new Sample
    {
        RunId = runId, Index = i, OffsetNs = i * 1_000_000L, LatencyNs = 1_234_567 + i, HeadersNs = 1_000_000, ConnectNs = 50_000, StatusCode = 200, Bytes = 4096,
    }).ToList()).ToList();
    var cpu = Process.GetCurrentProcess().TotalProcessorTime;
    var allocated = GC.GetTotalAllocatedBytes(precise: true);
    var wall = Stopwatch.StartNew();
    foreach (var batch in batches)
    {
        await using var db = new BenchDbContext(options);
        await using var transaction = await db.Database.BeginTransactionAsync();
        insert(db, batch);
        await transaction.CommitAsync();
    }
    wall.Stop();
    var used = Process.GetCurrentProcess().TotalProcessorTime - cpu;
    return (used.TotalMicroseconds / samples, samples / wall.Elapsed.TotalSeconds, (GC.GetTotalAllocatedBytes(precise: true) - allocated) / (double)samples);
}
