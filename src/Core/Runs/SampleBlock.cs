using BenchDashboard.Core.Runs.Packing;

namespace BenchDashboard.Core.Runs;

/// <summary>
/// Up to <see cref="SamplePacking.BlockSamples"/> samples of one run and one series, packed (<see cref="SamplePacking"/>)
/// in index order: how samples are stored (docs/storage.md, "Samples in packed blocks"). Keyed by the run and the
/// block's first index, which no other block of the run can have since a sample's index is unique in its run.
/// </summary>
public sealed class SampleBlock
{
    public long RunId { get; set; }

    /// <summary>The series of every sample in it (<see cref="Sample.Series"/>); null for a run with one.</summary>
    public string? Series { get; set; }

    /// <summary>The smallest index in the block, its first sample's.</summary>
    public int FirstIndex { get; set; }

    /// <summary>The largest index in the block, its last sample's.</summary>
    public int LastIndex { get; set; }

    public int Count { get; set; }
    public long MinOffsetNs { get; set; }
    public long MaxOffsetNs { get; set; }
    public required byte[] Data { get; set; }

    /// <summary>The blocks of one run's samples: by series, in index order, at most <see cref="SamplePacking.BlockSamples"/> each.</summary>
    public static IEnumerable<SampleBlock> Pack(long runId, IEnumerable<Sample> samples)
    {
        foreach (var series in samples.GroupBy(s => s.Series))
        {
            var ordered = series.ToList();
            SortByIndex(ordered);
            for (var at = 0; at < ordered.Count; at += SamplePacking.BlockSamples)
            {
                var part = ordered.GetRange(at, Math.Min(SamplePacking.BlockSamples, ordered.Count - at));
                long min = long.MaxValue, max = long.MinValue;
                foreach (var s in part)
                {
                    if (s.RunId != runId) throw new ArgumentException($"A sample of run {s.RunId} is not run {runId}'s.", nameof(samples));
                    min = Math.Min(min, s.OffsetNs);
                    max = Math.Max(max, s.OffsetNs);
                }
                yield return new SampleBlock
                {
                    RunId = runId, Series = series.Key, FirstIndex = part[0].Index, LastIndex = part[^1].Index, Count = part.Count,
                    MinOffsetNs = min, MaxOffsetNs = max, Data = SamplePacking.Pack(part),
                };
            }
        }
    }

    /// <summary>
    /// Puts a run's samples in index order; they mostly come in that order already (the writer's batches), and then
    /// are only looked over. Indexes are unique in a run, so the sort need not be stable.
    /// </summary>
    public static void SortByIndex(List<Sample> samples)
    {
        for (var i = 1; i < samples.Count; i++)
            if (samples[i].Index < samples[i - 1].Index)
            {
                samples.Sort(static (a, b) => a.Index.CompareTo(b.Index));
                return;
            }
    }

    /// <summary>Its samples, in index order.</summary>
    public Sample[] Unpack() => SamplePacking.Unpack(Data, RunId, Series);
}
