namespace BenchDashboard.Core.Agents;

/// <summary>
/// An agent's side of the sample channel: sequence numbers of frames sent and not yet acknowledged, at
/// most <see cref="Capacity"/> of them. A sender that finds the window full waits, so a slow dashboard slows its
/// agents instead of filling their memory. Frames are not kept: a link that ends ends its shard, so nothing is
/// ever sent again.
/// </summary>
public sealed class AckWindow(int capacity)
{
    readonly SemaphoreSlim room = new(capacity, capacity);
    readonly Lock gate = new();
    long nextSequence, ackedThrough = -1;

    public int Capacity => capacity;

    public int InFlight
    {
        get { lock (gate) return (int)(nextSequence - 1 - ackedThrough); }
    }

    /// <summary>Sequence numbers taken so far: the frames sent.</summary>
    public long Sent
    {
        get { lock (gate) return nextSequence; }
    }

    /// <summary>Waits for room, then takes the next frame's sequence number (from 0).</summary>
    public async Task<long> AddAsync(CancellationToken ct)
    {
        await room.WaitAsync(ct);
        lock (gate) return nextSequence++;
    }

    /// <summary>Everything up to and including <paramref name="through"/> arrived: frees its room (an older or repeated acknowledgement frees nothing).</summary>
    public void Acknowledge(long through)
    {
        int freed;
        lock (gate)
        {
            var upTo = Math.Min(through, nextSequence - 1);
            freed = (int)Math.Max(0, upTo - ackedThrough);
            ackedThrough += freed;
        }
        if (freed > 0) room.Release(freed);
    }
}
