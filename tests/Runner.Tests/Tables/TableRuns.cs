using System.Text.RegularExpressions;
using BenchDashboard.Core;
using BenchDashboard.Core.Kinds.Tables;
using BenchDashboard.Core.Runs;
using BenchDashboard.Runner.Tables;
using BenchDashboard.Runner.Tests.Scheduling;

namespace BenchDashboard.Runner.Tests.Tables;

/// <summary>Runs a Table benchmark through the whole runner (queue, executor, writer, SQLite) against a connection string.</summary>
static class TableRuns
{
    public const string ConnectionName = "test";

    public static async Task<(Run Run, List<Sample> Samples)> ExecuteAsync(string connectionString, TableParameters parameters)
    {
        await using var host = await RunnerHost.CreateAsync(new() { [$"ConnectionStrings:{ConnectionName}"] = connectionString });
        var runId = await host.EnqueueAsync(queue => queue.EnqueueAsync(parameters, null, default));
        await host.Host.StartAsync();
        try
        {
            await host.UntilFinalAsync(runId);
        }
        finally
        {
            await host.Host.StopAsync();
        }
        return (await host.RunAsync(runId), await host.SamplesAsync(runId));
    }

    /// <summary>A small matrix: every variant, 10 entities per batch, against the named connection.</summary>
    public static TableParameters Small(string table, int requests = 8) => new()
    {
        Connection = ConnectionName,
        Table = table,
        EntityBytes = 1024,
        Requests = requests,
        TimeoutMs = 10_000,
    };

    public static RunNotes Notes(Run run) => Json.Deserialize<RunNotes>(run.NotesJson!);

    /// <summary>The run's partition prefix, as its notes name it ("partitions bd-7-1a2b3c4d-v*").</summary>
    public static string PartitionPrefix(Run run) =>
        Regex.Match(string.Join("\n", Notes(run).Notes), @"partitions (bd-\S+-v)\*").Groups[1].Value;

    /// <summary>A connection of our own for reading back what a run left (default settings, nothing measured).</summary>
    public static TableConnection Connect(string connectionString, string table) =>
        new(TableTarget.For(TableAccount.Parse(connectionString)), table, new TableVariant(TableOperation.Single, false, false), TimeSpan.FromSeconds(10));
}
