namespace BenchDashboard.Core.Agents;

/// <summary>
/// An agent's side of the sample channel (issue 16): frames sent and not yet acknowledged, at most
/// <see cref="Capacity"/> of them. A sender that finds the window full waits, so a slow dashboard slows its
/// agents instead of filling their memory. (Frames are kept until acknowledged, in order, for a resend after a
/// reconnect; today a link that ends ends its shard, so nothing is resent.)
/// </summary>
public sealed class AckWindow(int capacity)
{
    readonly SemaphoreSlim room = new(capacity, capacity);
    readonly SortedDictionary<long, byte[]> pending = [];
    long nextSequence;

    public int Capacity => capacity;

    public int InFlight
    {
        get { lock (pending) return pending.Count; }
    }

    /// <summary>Waits for room, then takes the frame's sequence number and keeps it until acknowledged.</summary>
    public async Task<long> AddAsync(Func<long, byte[]> frameOf, CancellationToken ct)
    {
        await room.WaitAsync(ct);
        lock (pending)
        {
            var sequence = nextSequence++;
            pending[sequence] = frameOf(sequence);
            return sequence;
        }
    }

    /// <summary>Everything up to and including <paramref name="through"/> arrived: frees its room.</summary>
    public void Acknowledge(long through)
    {
        var freed = 0;
        lock (pending)
        {
            while (pending.Count > 0 && pending.First().Key <= through)
            {
                pending.Remove(pending.First().Key);
                freed++;
            }
        }
        if (freed > 0) room.Release(freed);
    }
}
