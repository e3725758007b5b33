namespace BenchDashboard.Core.Agents;

public enum FrameVerdict
{
    /// <summary>The next frame of the shard's current lease: store its samples.</summary>
    Accepted,

    /// <summary>Already stored: ignored, acknowledged again.</summary>
    Repeated,

    /// <summary>Of an older lease of the shard, or of a shard this link does not hold: refused.</summary>
    NotOwner,

    /// <summary>Later than the next expected: an earlier one is missing, so it is not stored.</summary>
    Gap,
}

/// <summary>
/// The dashboard's side of one run's sample channel: which epoch holds each shard's lease, and how
/// far each shard's frames have been stored. A frame is stored once, in order: a repeat is ignored, a frame after
/// a gap is not stored, frames of a stale epoch or another owner are refused. <see cref="AckedThrough"/> is what the
/// dashboard acknowledges. (No agent resends today: a link that ends ends its shard. These rules keep a shard's
/// samples whole and unrepeated whatever arrives.)
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
