using System.Threading.Channels;
using BenchDashboard.Core.Data;
using BenchDashboard.Core.Runs;
using Microsoft.Extensions.DependencyInjection;

namespace BenchDashboard.Runner.Execution;

/// <summary>Drains a run's sample channel into the database in batches, off the measurement path.</summary>
public sealed class SampleWriter(IServiceScopeFactory scopes, int batchSize)
{
    readonly Channel<Sample> channel = Channel.CreateUnbounded<Sample>(new UnboundedChannelOptions { SingleReader = true });

    public ChannelWriter<Sample> Writer => channel.Writer;

    /// <summary>Runs until the writer is completed and every sample is stored.</summary>
    public async Task WriteAllAsync(CancellationToken ct)
    {
        var batch = new List<Sample>(batchSize);
        while (await channel.Reader.WaitToReadAsync(ct))
        {
            while (batch.Count < batchSize && channel.Reader.TryRead(out var sample)) batch.Add(sample);
            await SaveAsync(batch, ct);
            batch.Clear();
        }
    }

    async Task SaveAsync(List<Sample> batch, CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
        db.ChangeTracker.AutoDetectChangesEnabled = false;
        db.Samples.AddRange(batch);
        await db.SaveChangesAsync(ct);
    }
}
