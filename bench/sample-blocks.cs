// Samples as rows (the store before blocks: SampleInsert's prepared INSERT on SQLite, SampleCopy's binary COPY on
// PostgreSQL) against packed blocks (SampleBlockAppender, as the sample writer stores them), alternated round by
// round in one process: CPU of this process per sample stored (BATCH samples a transaction), bytes per sample on
// disk (SQLite: the file after VACUUM; PostgreSQL: the table with its indexes and TOAST after VACUUM), and the rate
// of reading a run back as CSV lines (RunSamples, SampleColumns.CsvLine), samples/s.
// The samples are HTTP-like and made here, seeded: 16 connections, latencies around 1 ms (log-normal, ns precision),
// headers 5-60 µs before the end, a connect on each connection's first request, 200 and 4,096 bytes, 1 in 1,000 a 503.
// MODEL=open: an open-model run instead, 20,000 arrivals a second on a fixed schedule (the offset is when each was
// due), each with its lag (log-normal around 15 µs, 1 in 200 late by 0.2-5 ms behind a busy connection), the latency
// counted from the due time, as the runner stores them.
// Before the rounds, where the bytes and the packing CPU go: each column packed alone (the others constant) in blocks
// of SamplePacking.BlockSamples, less the blocks of constant samples; and SamplePacking.Pack once over every block,
// Stopwatch around it, against the appender's CPU per sample (which packs a block's tail again with each batch).
//   usage: dotnet run bench/sample-blocks.cs -c Release -- POSTGRES_CONNECTION_STRING [SAMPLES=1000000] [BATCH=2000] [ROUNDS=2] [MODEL=closed|open]
//   bench/sample-blocks.sh starts a throw-away PostgreSQL cluster and runs this.
#:project ../src/Runner/BenchDashboard.Runner.csproj
#:property PublishAot=false
using System.Diagnostics;
using BenchDashboard.Core.Data;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Runs.Packing;
using BenchDashboard.Core.Stores;
using Microsoft.Data.Sqlite;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Storage;
using Npgsql;

var postgres = args[0];
var count = args.Length > 1 ? int.Parse(args[1]) : 1_000_000;
var batchSize = args.Length > 2 ? int.Parse(args[2]) : 2_000;
var rounds = args.Length > 3 ? int.Parse(args[3]) : 2;
var open = args.Length > 4 && args[4] == "open";
var samples = Make(count, open);
WhereItGoes(samples);

for (var round = 1; round <= rounds; round++)
    foreach (var provider in new[] { "sqlite", "postgresql" })
        foreach (var packed in new[] { false, true })
        {
            var path = Path.Combine(Path.GetTempPath(), $"sample-blocks-{Environment.ProcessId}.db");
            var database = $"blocks{Environment.ProcessId}";
            var options = provider == "sqlite"
                ? DatabaseProviders.UseSqlite(new DbContextOptionsBuilder<BenchDbContext>(), path, 30).Options
                : DatabaseProviders.UsePostgreSql(new DbContextOptionsBuilder<BenchDbContext>(), postgres.Replace("Database=ingest", $"Database={database}")).Options;
            long runId;
            await using (var db = new BenchDbContext(options))
            {
                await db.Database.EnsureDeletedAsync();
                await db.Database.MigrateAsync();
                if (db.Database.IsSqlite()) await db.Database.ExecuteSqlRawAsync("PRAGMA journal_mode=WAL;");
                var run = new Run { Kind = "http", ParametersJson = "{}", QueuedUtcMs = 0, Status = RunStatus.Completed };
                db.Runs.Add(run);
                await db.SaveChangesAsync();
                runId = run.Id;
            }
            foreach (var s in samples) s.RunId = runId;

            var appender = new SampleBlockAppender();
            var cpu = Process.GetCurrentProcess().TotalProcessorTime;
            for (var at = 0; at < samples.Count; at += batchSize)
            {
                var batch = samples.GetRange(at, Math.Min(batchSize, samples.Count - at));
                await using var db = new BenchDbContext(options);
                await using var transaction = await db.Database.BeginTransactionAsync();
                if (packed) appender.Committed(appender.Write(db.Database.GetDbConnection(), transaction.GetDbTransaction(), batch));
                else if (db.Database.IsSqlite()) SampleInsert.Write((SqliteConnection)db.Database.GetDbConnection(), batch);
                else SampleCopy.Write((NpgsqlConnection)db.Database.GetDbConnection(), batch);
                await transaction.CommitAsync();
            }
            var storeCpu = (Process.GetCurrentProcess().TotalProcessorTime - cpu).TotalMicroseconds / samples.Count;

            long bytes;
            double perSecond;
            await using (var db = new BenchDbContext(options))
            {
                var wall = Stopwatch.StartNew();
                long lines = 0, chars = 0;
                await foreach (var s in RunSamples.StreamAsync(db, runId)) { lines++; chars += SampleColumns.CsvLine(s).Length; }
                perSecond = lines / wall.Elapsed.TotalSeconds;
                if (lines != samples.Count) throw new InvalidOperationException($"read {lines} of {samples.Count}");
                if (db.Database.IsSqlite())
                {
                    await db.Database.ExecuteSqlRawAsync("PRAGMA wal_checkpoint(TRUNCATE);");
                    await db.Database.ExecuteSqlRawAsync("VACUUM;");
                }
                else await db.Database.ExecuteSqlRawAsync("VACUUM (FULL, ANALYZE);");
                if (db.Database.IsSqlite())
                {
                    await db.Database.CloseConnectionAsync();
                    SqliteConnection.ClearAllPools();
                    bytes = new FileInfo(path).Length;
                }
                else
                {
                    bytes = packed
                        ? await db.Database.SqlQuery<long>($"SELECT pg_total_relation_size('\"SampleBlocks\"') AS \"Value\"").SingleAsync()
                        : await db.Database.SqlQuery<long>($"SELECT pg_total_relation_size('\"Samples\"') AS \"Value\"").SingleAsync();
                }
                if (!db.Database.IsSqlite()) await db.Database.EnsureDeletedAsync();
            }
            if (provider == "sqlite") { SqliteConnection.ClearAllPools(); foreach (var f in Directory.GetFiles(Path.GetTempPath(), Path.GetFileName(path) + "*")) File.Delete(f); File.Delete(path); }
            NpgsqlConnection.ClearAllPools();
            Console.WriteLine($"round {round} {(open ? "open" : "closed")} {provider,-10} {(packed ? "blocks" : "rows"),-6} {storeCpu,6:N2} µs CPU/sample stored  {bytes / (double)samples.Count,6:N2} B/sample on disk ({bytes:N0} B{(provider == "sqlite" ? ", whole file" : ", table")})  CSV read {perSecond,10:N0} samples/s");
        }

static void WhereItGoes(List<Sample> samples)
{
    static long Packed(List<Sample> all, Func<Sample, Sample> keep)
    {
        long bytes = 0;
        for (var at = 0; at < all.Count; at += SamplePacking.BlockSamples)
            bytes += SamplePacking.Pack(all.GetRange(at, Math.Min(SamplePacking.BlockSamples, all.Count - at)).Select(keep).ToList()).Length;
        return bytes;
    }
    // Constant but for the one column kept (index counts up in every case, as it does in any block).
    var columns = new (string Name, Func<Sample, Sample> Keep)[]
    {
        ("index only", s => new Sample { Index = s.Index }),
        ("offset", s => new Sample { Index = s.Index, OffsetNs = s.OffsetNs }),
        ("latency", s => new Sample { Index = s.Index, LatencyNs = s.LatencyNs }),
        ("lag", s => new Sample { Index = s.Index, LagNs = s.LagNs }),
        ("headers (as latency - headers)", s => new Sample { Index = s.Index, LatencyNs = s.LatencyNs, HeadersNs = s.HeadersNs }),
        ("connect", s => new Sample { Index = s.Index, ConnectNs = s.ConnectNs }),
        ("status", s => new Sample { Index = s.Index, StatusCode = s.StatusCode }),
        ("bytes", s => new Sample { Index = s.Index, Bytes = s.Bytes }),
        ("error", s => new Sample { Index = s.Index, Error = s.Error }),
        ("warm-up", s => new Sample { Index = s.Index, IsWarmup = s.IsWarmup }),
        ("connection", s => new Sample { Index = s.Index, Connection = s.Connection }),
    };
    var baseline = Packed(samples, columns[0].Keep);
    var latencyAlone = Packed(samples, columns[2].Keep) - baseline;
    Console.WriteLine($"bytes per sample in blocks of {SamplePacking.BlockSamples:N0}, by column (packed alone, less {baseline / (double)samples.Count:N3} B of constant samples):");
    foreach (var (name, keep) in columns.Skip(1))
    {
        var bytes = Packed(samples, keep) - baseline - (name.StartsWith("headers") ? latencyAlone : 0);
        Console.WriteLine($"  {name,-32} {bytes / (double)samples.Count,6:N3}");
    }
    Console.WriteLine($"  {"all columns together",-32} {Packed(samples, s => s) / (double)samples.Count,6:N3}");
    var blocks = Enumerable.Range(0, (samples.Count + SamplePacking.BlockSamples - 1) / SamplePacking.BlockSamples)
        .Select(b => samples.GetRange(b * SamplePacking.BlockSamples, Math.Min(SamplePacking.BlockSamples, samples.Count - b * SamplePacking.BlockSamples))).ToList();
    for (var pass = 1; pass <= 3; pass++)
    {
        var watch = Stopwatch.StartNew();
        foreach (var block in blocks) SamplePacking.Pack(block);
        Console.WriteLine($"SamplePacking.Pack once over every block, pass {pass}: {watch.Elapsed.TotalMicroseconds / samples.Count:N3} µs a sample (Stopwatch)");
    }
}

static List<Sample> Make(int n, bool open)
{
    if (open) return MakeOpen(n);
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
            Index = i, OffsetNs = clock, LatencyNs = latency, HeadersNs = latency - random.Next(5_000, 60_000),
            ConnectNs = seen[c] ? null : 80_000 + random.Next(40_000), StatusCode = error ? 503 : 200, Error = error ? ErrorKind.HttpStatus : ErrorKind.None,
            Bytes = error ? 150 : 4096, Connection = c, IsWarmup = i < 100,
        });
        seen[c] = true;
        free[c] = clock + latency;
    }
    return list;
}

static double Normal(Random random) => Math.Sqrt(-2 * Math.Log(1 - random.NextDouble())) * Math.Cos(2 * Math.PI * random.NextDouble());

/// <summary>An open-model run: due every 50 µs (20,000/s), lag and latency from the due time as the runner stores them.</summary>
static List<Sample> MakeOpen(int n)
{
    var random = new Random(45);
    var free = new long[16];
    var seen = new bool[16];
    var list = new List<Sample>(n);
    for (var i = 0; i < n; i++)
    {
        var due = i * 50_000L;
        var c = 0;
        for (var k = 1; k < 16; k++) if (free[k] < free[c]) c = k;
        var lag = (long)(15_000 * Math.Exp(0.5 * Normal(random))) + (random.Next(200) == 0 ? random.Next(200_000, 5_000_000) : 0);
        var service = (long)(1_000_000 * Math.Exp(0.25 * Normal(random)));
        var error = random.Next(1_000) == 0;
        list.Add(new Sample
        {
            Index = i, OffsetNs = due, LagNs = lag, LatencyNs = lag + service, HeadersNs = service - random.Next(5_000, 60_000), // headers from the actual start
            ConnectNs = seen[c] ? null : 80_000 + random.Next(40_000), StatusCode = error ? 503 : 200, Error = error ? ErrorKind.HttpStatus : ErrorKind.None,
            Bytes = error ? 150 : 4096, Connection = c, IsWarmup = i < 100,
        });
        seen[c] = true;
        free[c] = due + lag + service;
    }
    return list;
}
