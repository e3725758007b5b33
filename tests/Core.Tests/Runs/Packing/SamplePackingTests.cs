using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Runs.Packing;

namespace BenchDashboard.Core.Tests.Runs.Packing;

/// <summary>
/// A packed block must give back every field of every sample as it was, in its order, whatever the values: nulls,
/// the extremes of each type, deltas that wrap around 64 bits. And bytes that are not a block must say so.
/// </summary>
public sealed class SamplePackingTests
{
    static string Row(Sample s) =>
        $"{s.RunId} {s.Index} {s.IsWarmup} {s.Connection} {s.OffsetNs} {s.LatencyNs} {s.HeadersNs?.ToString() ?? "-"} {s.ConnectNs?.ToString() ?? "-"} "
        + $"{s.StatusCode?.ToString() ?? "-"} {s.Bytes} {s.Error} {s.Series ?? "-"} {s.Hit?.ToString() ?? "-"} {s.LagNs?.ToString() ?? "-"} {s.Shard?.ToString() ?? "-"}";

    static void AssertRoundTrip(IReadOnlyList<Sample> samples)
    {
        var unpacked = SamplePacking.Unpack(SamplePacking.Pack(samples), 7, "read-miss");
        Assert.Equal(samples.Count, unpacked.Length);
        for (var i = 0; i < samples.Count; i++) Assert.Equal(Row(samples[i]), Row(unpacked[i]));
    }

    static readonly long[] LongExtremes = [long.MinValue, long.MinValue + 1, -1, 0, 1, 127, 128, long.MaxValue - 1, long.MaxValue];
    static readonly int[] IntExtremes = [int.MinValue, -1, 0, 1, 63, 64, int.MaxValue];

    /// <summary>A value of one of several kinds: small, realistic nanoseconds, any 64 bits, an extreme, or repeated.</summary>
    static long AnyLong(Random random, long previous) => random.Next(6) switch
    {
        0 => random.Next(-3, 4),
        1 => random.NextInt64(0, 20_000_000),
        2 => random.NextInt64(long.MinValue, long.MaxValue),
        3 => LongExtremes[random.Next(LongExtremes.Length)],
        4 => previous + random.Next(-1000, 1000),
        _ => previous,
    };

    static int AnyInt(Random random, int previous) => random.Next(5) switch
    {
        0 => random.Next(-3, 4),
        1 => random.Next(),
        2 => IntExtremes[random.Next(IntExtremes.Length)],
        3 => random.Next(int.MinValue, int.MaxValue),
        _ => previous,
    };

    /// <summary>Samples whose columns each have a share of nulls chosen per block: none, all, half, rare.</summary>
    static List<Sample> RandomBlock(int seed)
    {
        var random = new Random(seed);
        var n = random.Next(8) switch { 0 => 0, 1 => 1, 2 => random.Next(2, 17), 3 => SamplePacking.BlockSamples, _ => random.Next(17, 5000) };
        double Nulls() => random.Next(4) switch { 0 => 0, 1 => 1, 2 => 0.5, _ => 0.01 };
        double lag = Nulls(), headers = Nulls(), connect = Nulls(), status = Nulls(), shard = Nulls(), hit = Nulls(), warmup = Nulls();
        var samples = new List<Sample>(n);
        var last = new Sample();
        for (var i = 0; i < n; i++)
        {
            var s = new Sample
            {
                RunId = 7,
                Series = "read-miss",
                Index = random.Next(3) == 0 ? AnyInt(random, last.Index) : last.Index + 1,
                OffsetNs = AnyLong(random, last.OffsetNs),
                LatencyNs = AnyLong(random, last.LatencyNs),
                LagNs = random.NextDouble() < lag ? null : AnyLong(random, last.LagNs ?? 0),
                HeadersNs = random.NextDouble() < headers ? null : AnyLong(random, last.HeadersNs ?? 0),
                ConnectNs = random.NextDouble() < connect ? null : AnyLong(random, last.ConnectNs ?? 0),
                StatusCode = random.NextDouble() < status ? null : random.Next(2) == 0 ? 200 : AnyInt(random, last.StatusCode ?? 0),
                Bytes = AnyLong(random, last.Bytes),
                Error = random.Next(3) == 0 ? (ErrorKind)AnyInt(random, (int)last.Error) : last.Error,
                IsWarmup = random.NextDouble() >= warmup,
                Connection = AnyInt(random, last.Connection),
                Shard = random.NextDouble() < shard ? null : AnyInt(random, last.Shard ?? 0),
                Hit = random.NextDouble() < hit ? null : random.Next(2) == 0,
            };
            samples.Add(s);
            last = s;
        }
        return samples;
    }

    [Fact]
    public void RandomBlocksReadBackFieldForField()
    {
        for (var seed = 0; seed < 400; seed++) AssertRoundTrip(RandomBlock(seed));
    }

    /// <summary>
    /// Blocks already stored must read the same with every later build, and a faster encoder must write what the
    /// first one did: the SHA-256 of these seeded blocks as the encoder wrote them when blocks were first stored.
    /// </summary>
    [Fact]
    public void TheBytesAreTheOnesTheFirstEncoderWrote()
    {
        using var hash = System.Security.Cryptography.IncrementalHash.CreateHash(System.Security.Cryptography.HashAlgorithmName.SHA256);
        for (var seed = 0; seed < 400; seed++) hash.AppendData(SamplePacking.Pack(RandomBlock(seed)));
        var random = new Random(44);
        hash.AppendData(SamplePacking.Pack(Enumerable.Range(0, SamplePacking.BlockSamples).Select(i => new Sample
        {
            Index = i, OffsetNs = i * 60_000L + random.Next(3_000), LatencyNs = 1_000_000 + random.Next(300_000), HeadersNs = 990_000 + random.Next(5_000),
            StatusCode = 200, Bytes = 4096, Connection = i % 16, LagNs = random.Next(40_000),
        }).ToList()));
        var hex = Convert.ToHexString(hash.GetCurrentHash());
        Assert.True(hex == "7FFCE5BF91D2B2F8D625A241CFAB575B5379EBCC7A735462DCAD340BEC776E25", hex);
    }

    [Fact]
    public void AnEmptyBlockReadsBackEmpty() => Assert.Empty(SamplePacking.Unpack(SamplePacking.Pack([]), 1, null));

    [Fact]
    public void EveryPairOfExtremesReadsBackIncludingDeltasThatWrap()
    {
        // Each extreme after each other one in every column: long.MinValue after long.MaxValue is a delta of 1 mod 2^64.
        var samples = new List<Sample>();
        foreach (var a in LongExtremes)
            foreach (var b in LongExtremes)
                foreach (var value in new[] { a, b })
                    samples.Add(new Sample
                    {
                        RunId = 7, Series = "read-miss", Index = (int)(value >> 32), OffsetNs = value, LatencyNs = -value,
                        LagNs = value, HeadersNs = ~value, ConnectNs = value, StatusCode = (int)value, Bytes = value,
                        Error = (ErrorKind)(int)value, Connection = (int)(value >> 1), Shard = (int)value, Hit = value < 0,
                        IsWarmup = value > 0,
                    });
        AssertRoundTrip(samples);
    }

    [Fact]
    public void OffsetsAtLongMaxAndFallingIndexesReadBack()
    {
        var samples = Enumerable.Range(0, 300).Select(i => new Sample
        {
            RunId = 7, Series = "read-miss", Index = 1000 - i * 7, OffsetNs = long.MaxValue - i % 3, LatencyNs = long.MaxValue,
            HeadersNs = i % 2 == 0 ? long.MinValue : null, ConnectNs = i == 150 ? 0 : null, Bytes = -i,
        }).ToList();
        AssertRoundTrip(samples);
    }

    [Fact]
    public void AContiguousConstantBlockIsAFewBytes()
    {
        // 4,096 requests 1 µs apart, each 1 ms, 200, 4 KB, no error, on connection 0: every column is one value or one
        // delta, bit-packed 0 bits wide. Header 3 bytes; each column a form byte and a length byte, then: index (first 0,
        // smallest delta 1, width) 3, offset (0, 1,000, width) 4, latency (1,000,000, width) 4, status (presence, then
        // 200, width) 1 + 3, bytes 3, error 2, connection 2; lag, headers, connect, warm-up, shard and the two hit maps
        // one byte each.
        var samples = Enumerable.Range(0, SamplePacking.BlockSamples).Select(i => new Sample
        {
            RunId = 7, Index = i, OffsetNs = i * 1_000L, LatencyNs = 1_000_000, StatusCode = 200, Bytes = 4096,
        }).ToList();
        var packed = SamplePacking.Pack(samples);
        Assert.Equal(3 + (2 + 3) + (2 + 4) + (2 + 4) + 1 + 1 + 1 + (1 + 2 + 3) + (2 + 3) + (2 + 2) + 1 + (2 + 2) + 1 + 1 + 1, packed.Length);
        var unpacked = SamplePacking.Unpack(packed, 7, null);
        for (var i = 0; i < samples.Count; i++) Assert.Equal(Row(samples[i]), Row(unpacked[i]));
    }

    [Fact]
    public void NoisyLatenciesAreBitPackedInTheBitsTheirSpreadNeeds()
    {
        // Latencies spread over 2^20 ns: 20 bits each, 2,560 bytes for 1,024, where varints of 1-2 ms take 3 bytes each.
        var random = new Random(9);
        var samples = Enumerable.Range(0, 1024).Select(i => new Sample { RunId = 7, Series = "read-miss", Index = i, LatencyNs = 1_000_000 + random.Next(1 << 20) }).ToList();
        var withLatencies = SamplePacking.Pack(samples).Length;
        foreach (var s in samples) s.LatencyNs = 0;
        AssertRoundTrip(samples);
        Assert.InRange(withLatencies - SamplePacking.Pack(samples).Length, 2_560, 2_566);
    }

    [Fact]
    public void HeadersCostTheirDistanceFromTheLatencyNotTheirSize()
    {
        // Headers 10 s in, the body 5 or 6 ns after them: stored as 5 or 6, one bit each once bit-packed (125 bytes for
        // 1,000), not as 10 s (five bytes each).
        var samples = Enumerable.Range(0, 1000).Select(i => new Sample
        {
            Index = i, LatencyNs = 10_000_000_000L + i * 1_000_003L, HeadersNs = 10_000_000_000L + i * 1_000_003L - 5 - i % 2,
        }).ToList();
        var withHeaders = SamplePacking.Pack(samples).Length;
        foreach (var s in samples) s.HeadersNs = null;
        var without = SamplePacking.Pack(samples).Length;
        Assert.InRange(withHeaders - without, 125, 135);
    }

    [Fact]
    public void EveryTruncatedBlockIsRefusedAsUnreadable()
    {
        var packed = SamplePacking.Pack(RandomBlock(11).Take(40).ToList());
        for (var length = 0; length < packed.Length; length++)
            Assert.Throws<InvalidDataException>(() => SamplePacking.Unpack(packed.AsSpan(0, length), 7, null));
        Assert.Throws<InvalidDataException>(() => SamplePacking.Unpack([.. packed, 0], 7, null));
    }

    [Fact]
    public void ChangedBytesAreEitherRefusedAsUnreadableOrReadAsSamples()
    {
        // A flipped bit in a value reads as another value (the upgrade's checksum catches that); in a structure it
        // must be refused as unreadable, never an IndexOutOfRange or a huge allocation.
        var random = new Random(3);
        var packed = SamplePacking.Pack(RandomBlock(5).Take(200).ToList());
        for (var trial = 0; trial < 2000; trial++)
        {
            var changed = packed.ToArray();
            changed[random.Next(changed.Length)] ^= (byte)(1 << random.Next(8));
            try { SamplePacking.Unpack(changed, 7, null); }
            catch (InvalidDataException) { }
        }
    }

    [Fact]
    public void AnotherVersionIsRefused()
    {
        var packed = SamplePacking.Pack([new Sample()]);
        packed[0] = 2;
        Assert.Contains("version is 2", Assert.Throws<InvalidDataException>(() => SamplePacking.Unpack(packed, 1, null)).Message);
    }
}
