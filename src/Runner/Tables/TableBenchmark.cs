using System.Security.Cryptography;
using Azure;
using Azure.Core.Pipeline;
using Azure.Identity;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Kinds.Tables;
using BenchDashboard.Core.Runs;
using BenchDashboard.Processing.Executing;
using BenchDashboard.Runner.Execution;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Operation = BenchDashboard.Runner.Execution.Operation; // not Azure.Operation

namespace BenchDashboard.Runner.Tables;

/// <summary>
/// Inserts of single entities and of entity group transactions, each with Expect: 100-continue and Nagle's
/// algorithm on and off. Every combination is a variant with its own connection per worker; a worker goes round
/// the variants in rounds, each round led by a variant drawn for it (<see cref="VariantTurns"/>), so drift of the
/// service hits all of them alike, and every variant gets the same number of requests (<see cref="LoadDriver"/>, a
/// block of 1). In the open model requests start on the schedule instead, taking the variants in the same turns
/// (with a duration their counts may differ by one). Each request is a sample whose series is its variant. Each variant writes to a partition of its own, which is counted afterwards (did
/// every answered insert land?) and then emptied.
/// </summary>
public sealed class TableBenchmark(NamedConnections connections, IHostEnvironment environment, ILoggerFactory logs) : BenchmarkExecutor<TableParameters>, IAsyncDisposable
{
    /// <summary>Owned here rather than registered: a kind's folder should need no line elsewhere.</summary>
    readonly LocalEmulator emulator = new(environment, logs.CreateLogger<LocalEmulator>());

    public ValueTask DisposeAsync() => emulator.DisposeAsync();

    public override async Task ExecuteAsync(RunContext context, TableParameters p, CancellationToken ct)
    {
        var target = TableTarget.For(Open(p));
        var account = target.Account;
        if (account.IsDevelopmentStorage) await emulator.EnsureRunningAsync(account.Endpoint, ct);
        context.Notes.Add($"Endpoint: {account.Describe()}, table '{p.Table}'.");
        context.Notes.Add($"Client: {TableConnection.SdkVersion} (TableClient), service version {TableConnection.ServiceVersion}, nothing retried.");
        if (account.IsEmulator)
            context.Notes.AddWarning("This endpoint is an emulator (Azurite) on this machine: its timings show what the client and the protocol do (batching, Expect: 100-continue, Nagle), not what the Table Storage service costs. Measure a storage account for platform figures.");

        var variants = p.Variants();
        var partitions = new Partitions(context.Run.Id, variants.Count);
        using (var setup = new TableConnection(target, p.Table, variants[0], p.Timeout))
            await CreateTableAsync(setup.Client, p, account, ct);

        var run = new TableRun(p, target, variants, partitions, context);
        await new LoadDriver(context).RunAsync(new LoadPlan
        {
            Phases = [new Phase(null, p, run) { Variants = variants.Count }],
            CleanUpAsync = ct =>
            {
                run.Dispose();
                return AfterRunAsync(p, target, variants, partitions, run, context.Notes, ct);
            },
        }, ct);
    }

    TableAccount Open(TableParameters p)
    {
        var connectionString = connections.Find(p.Connection!)
            ?? throw new TableUnavailableException($"No connection string named '{p.Connection}' is configured.");
        try
        {
            return TableAccount.Parse(connectionString);
        }
        catch (FormatException ex)
        {
            // Checked when the run was queued; the configuration may have changed since.
            throw new TableUnavailableException($"The connection string '{p.Connection}' cannot be used for Table Storage: {ex.Message}");
        }
    }

    static async Task CreateTableAsync(ITableClient client, TableParameters p, TableAccount account, CancellationToken ct)
    {
        try
        {
            await client.CreateTableIfNotExistsAsync(ct);
        }
        catch (TableServiceException ex)
        {
            var hint = ex.Status is not (401 or 403) ? ""
                : account.UsesToken ? " Check that the identity holds a Storage Table Data role on the account (nothing was retried)."
                : " Check the account key or SAS (its expiry and permissions) of the connection string (nothing was retried).";
            throw new TableUnavailableException($"The service refused to create or open table '{p.Table}': {ex.Message}{hint}");
        }
        catch (AuthenticationFailedException ex)
        {
            throw new TableUnavailableException($"Signing in to Microsoft Entra for connection '{p.Connection}' failed ({account.Describe()}): {ServiceErrorBody.FirstLine(ex.Message)}");
        }
        catch (RequestFailedException ex) when (ex.Status == 0)
        {
            throw new TableUnavailableException($"Could not reach the Table endpoint of connection '{p.Connection}' ({TransportErrorClassifier.Classify(ex)}): {ex.Message}");
        }
    }

    /// <summary>
    /// Counts each variant's partition against the entities the service said it wrote, then deletes them
    /// (unless cleanup is off), within the driver's <see cref="LoadDriver.CleanUpBound"/>; notes what failed.
    /// </summary>
    static async Task AfterRunAsync(TableParameters p, TableTarget target, IReadOnlyList<TableVariant> variants, Partitions partitions, TableRun run, RunNotes notes, CancellationToken ct)
    {
        using var connection = new TableConnection(target, p.Table, variants[0], p.Timeout);
        long deleted = 0;
        try
        {
            for (var v = 0; v < variants.Count; v++)
            {
                var written = run.EntitiesWritten(v);
                var counted = await connection.Client.CountAsync(partitions.Key(v), ct);
                notes.Add(counted == written
                    ? $"{variants[v].Series}: the service confirmed {written:N0} entities written, and the partition holds {counted:N0}."
                    : $"{variants[v].Series}: the service confirmed {written:N0} entities written, but the partition holds {counted:N0}.");
                if (p.Cleanup) deleted += await connection.Client.DeleteEntitiesAsync(partitions.Key(v), ct);
            }
            notes.Add(p.Cleanup
                ? $"Cleanup: deleted the run's {deleted:N0} entities (partitions {partitions.Prefix}*); the table stays."
                : $"Cleanup was off: the run's entities remain in partitions {partitions.Prefix}* of table '{p.Table}'.");
        }
        catch (Exception ex) when (ex is TableServiceException or RequestFailedException or AuthenticationFailedException or OperationCanceledException)
        {
            notes.Add($"Counting or deleting the run's entities failed after deleting {deleted:N0}: {ex.Message} Entities may remain in partitions {partitions.Prefix}*.");
        }
    }

    /// <summary>A partition per variant, named for the run with a random part (two dashboards may share a table).</summary>
    sealed class Partitions(long runId, int variants)
    {
        public string Prefix { get; } = $"bd-{runId}-{Convert.ToHexStringLower(RandomNumberGenerator.GetBytes(4))}-v";
        public int Count => variants;
        public string Key(int variant) => $"{Prefix}{variant}";
    }

    /// <summary>The run's connections, [worker][variant], and the operation that inserts on one: what the driver goes round.</summary>
    sealed class TableRun : ILoadOperation, IDisposable
    {
        readonly TableParameters p;
        readonly IReadOnlyList<TableVariant> variants;
        readonly Partitions partitions;
        readonly RunContext context;
        readonly TableConnection[][] connections; // [worker][variant]
        readonly long[] entitiesWritten;
        readonly string payload;

        public TableRun(TableParameters p, TableTarget target, IReadOnlyList<TableVariant> variants, Partitions partitions, RunContext context)
        {
            this.p = p;
            this.variants = variants;
            this.partitions = partitions;
            this.context = context;
            payload = new string('x', p.EntityBytes);
            entitiesWritten = new long[variants.Count];
            connections = Enumerable.Range(0, p.Concurrency)
                .Select(_ => variants.Select(v => new TableConnection(target, p.Table, v, p.Timeout)).ToArray()).ToArray();
        }

        /// <summary>Entities of a variant that the service answered as written (warm-up included).</summary>
        public long EntitiesWritten(int variant) => Interlocked.Read(ref entitiesWritten[variant]);

        public TimeSpan? TimeoutOf(int variant) => p.Timeout;

        /// <summary>One insert (or batch) of the operation's variant; its entities are keyed by the sample's index.</summary>
        public async ValueTask<Outcome> OperateAsync(Operation operation, CancellationToken ct)
        {
            var (v, index) = (operation.Variant, operation.Index);
            var variant = variants[v];
            var connection = connections[operation.Worker][v];
            var entities = Enumerable.Range(0, p.EntitiesPer(variant.Operation))
                .Select(j => new BenchEntity(partitions.Key(v), variant.Operation == TableOperation.Batch ? $"{index:D10}-{j:D3}" : $"{index:D10}", payload))
                .ToList();

            // Storage logs name each request by its client request id: "bd-{run}-{index}" finds a slow sample there.
            using var requestId = HttpPipeline.CreateClientRequestIdScope($"bd-{context.Run.Id}-{index}");
            operation.Clock.Start(); // the entities are made: what follows is the insert
            var outcome = variant.Operation == TableOperation.Batch
                ? await connection.Client.SubmitBatchAsync(entities, ct)
                : await connection.Client.InsertAsync(entities[0], ct);
            operation.Clock.Stop();
            if (outcome.Succeeded) Interlocked.Add(ref entitiesWritten[v], entities.Count);
            var error = TableErrorClassifier.Classify(outcome);
            return Of(operation) with { StatusCode = outcome.Status, Error = error, Note = outcome.Succeeded ? null : TableErrorClassifier.Describe(outcome) };
        }

        /// <summary>A timeout, or Azure.Core's transport failure (refused, reset, closed mid-answer); anything else ends the run.</summary>
        public Outcome? Failed(Operation operation, Exception exception, bool timedOut) => exception switch
        {
            OperationCanceledException when timedOut => Of(operation) with { Error = ErrorKind.Timeout, Note = $"No answer within {p.TimeoutMs:N0} ms." },
            RequestFailedException { Status: 0 } failure => Of(operation) with { Error = TransportErrorClassifier.Classify(failure), Note = failure.Message },
            _ => null,
        };

        /// <summary>What every insert of the variant has, answered or not: its series, its entities' bytes, a connect made for it.</summary>
        Outcome Of(Operation operation)
        {
            var variant = variants[operation.Variant];
            return new Outcome
            {
                Series = variant.Series,
                Bytes = (long)p.EntitiesPer(variant.Operation) * p.EntityBytes,
                ConnectTicks = connections[operation.Worker][operation.Variant].TakeConnectTicks(),
            };
        }

        public void Dispose()
        {
            foreach (var connection in connections.SelectMany(c => c)) connection.Dispose();
        }
    }
}

/// <summary>The Table endpoint cannot be used at all (no such connection, cannot connect, refused); ends the run as failed.</summary>
public sealed class TableUnavailableException(string message) : Exception(message);
