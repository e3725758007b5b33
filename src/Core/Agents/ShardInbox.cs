namespace BenchDashboard.Core.Agents;

public enum FrameVerdict
{
    /// <summary>The next frame of the shard's current lease: store its samples.</summary>
    Accepted,

    /// <summary>Already stored (a resend after a reconnect): ignore it, acknowledge again.</summary>
    Repeated,

    /// <summary>Of an older lease of the shard, or of a shard this link does not hold: refused.</summary>
    NotOwner,

    /// <summary>Later than the next expected: an earlier one is missing, so the sender must resend from the acknowledgement.</summary>
    Gap,
}

/// <summary>
/// The dashboard's side of one run's sample channel (issue 16): which epoch holds each shard's lease, and how
/// far each shard's frames have been stored. A frame is stored once, in order: repeats after a reconnect are
/// ignored, frames of a stale epoch or another owner refused. <see cref="AckedThrough"/> is what the dashboard
/// acknowledges, so a sender keeps the rest to resend.
/// </summary>
public sealed class ShardInbox
{
    readonly Dictionary<int, (long Epoch, long Next)> shards = [];

    /// <summary>Gives the shard's lease to <paramref name="epoch"/>; its sequence starts again only for a shard not leased before.</summary>
    public void Lease(int shard, long epoch)
    {
        lock (shards) shards[shard] = (epoch, shards.TryGetValue(shard, out var s) ? s.Next : 0);
    }

    public (FrameVerdict Verdict, long AckedThrough) Accept(SampleBatchHeader header)
    {
        lock (shards)
        {
            if (!shards.TryGetValue(header.Shard, out var s) || s.Epoch != header.Epoch) return (FrameVerdict.NotOwner, s.Next - 1);
            if (header.Sequence < s.Next) return (FrameVerdict.Repeated, s.Next - 1);
            if (header.Sequence > s.Next) return (FrameVerdict.Gap, s.Next - 1);
            shards[header.Shard] = (s.Epoch, s.Next + 1);
            return (FrameVerdict.Accepted, s.Next);
        }
    }

    public long AckedThrough(int shard)
    {
        lock (shards) return shards.TryGetValue(shard, out var s) ? s.Next - 1 : -1;
    }
}
