using BenchDashboard.Core.Agents;
using BenchDashboard.Core.Runs;

namespace BenchDashboard.Core.Tests.Agents;

public class SampleChannelTests
{
    static readonly string[] Series = ["A/write", "B/write"];

    [Fact]
    public void EveryFieldOfASampleSurvivesAFrame()
    {
        var samples = new List<Sample>
        {
            new() { Index = 7, OffsetNs = 123_456_789_012, LatencyNs = 1_234_567, LagNs = 89, HeadersNs = 1_000_000, ConnectNs = 0, StatusCode = 200, Bytes = 4096, Error = ErrorKind.None, Connection = 3 },
            new() { Index = 8, OffsetNs = 1, LatencyNs = 2, Error = ErrorKind.Timeout, IsWarmup = true, Series = "B/write", Hit = false, Connection = 0 },
            new() { Index = int.MaxValue, OffsetNs = long.MaxValue, LatencyNs = 0, Series = "A/write", Hit = true, Bytes = long.MaxValue },
        };
        var frame = SampleFrames.Encode(new(2, 5, 11, 3), samples, Series);
        Assert.Equal(SampleFrames.SizeOf(3), frame.Length);

        var (header, decoded) = SampleFrames.Decode(frame, Series);
        Assert.Equal(new SampleBatchHeader(2, 5, 11, 3), header);
        Assert.Equal(samples.Select(Fields), decoded.Select(Fields));
    }

    static string Fields(Sample s) =>
        $"{s.Index} {s.OffsetNs} {s.LatencyNs} {s.LagNs} {s.HeadersNs} {s.ConnectNs} {s.StatusCode} {s.Bytes} {s.Error} {s.IsWarmup} {s.Hit} {s.Series} {s.Connection}";

    [Fact]
    public void AFrameThatDoesNotAddUpIsRefused()
    {
        var frame = SampleFrames.Encode(new(0, 1, 0, 1), [new Sample { LatencyNs = 1 }], Series);
        Assert.Throws<InvalidDataException>(() => SampleFrames.Decode(frame.AsSpan(0, frame.Length - 1), Series)); // truncated
        var wrongVersion = (byte[])frame.Clone();
        wrongVersion[0] = 9;
        Assert.Throws<InvalidDataException>(() => SampleFrames.Decode(wrongVersion, Series));
        var unknownSeries = SampleFrames.Encode(new(0, 1, 0, 1), [new Sample { Series = "B/write" }], Series);
        Assert.Throws<InvalidDataException>(() => SampleFrames.Decode(unknownSeries, ["A/write"])); // index 1 of a table of one
        Assert.Throws<ArgumentException>(() => SampleFrames.Encode(new(0, 1, 0, 1), [new Sample { Series = "C" }], Series));
    }

    [Fact]
    public void TheInboxStoresEachFrameOnceInOrderAndOnlyFromTheLeasesEpoch()
    {
        var inbox = new ShardInbox();
        inbox.Lease(0, epoch: 1);
        Assert.Equal((FrameVerdict.Accepted, 0L), inbox.Accept(new(0, 1, 0, 10)));
        Assert.Equal((FrameVerdict.Accepted, 1L), inbox.Accept(new(0, 1, 1, 10)));
        Assert.Equal((FrameVerdict.Repeated, 1L), inbox.Accept(new(0, 1, 1, 10)));   // resent after a reconnect
        Assert.Equal((FrameVerdict.Gap, 1L), inbox.Accept(new(0, 1, 3, 10)));        // 2 is missing: resend from there
        Assert.Equal((FrameVerdict.NotOwner, 1L), inbox.Accept(new(0, 0, 2, 10)));   // an older epoch
        Assert.Equal(FrameVerdict.NotOwner, inbox.Accept(new(5, 1, 0, 10)).Verdict); // a shard never leased

        inbox.Lease(0, epoch: 2); // re-leased to another link: the old epoch is refused, the sequence goes on
        Assert.Equal(FrameVerdict.NotOwner, inbox.Accept(new(0, 1, 2, 10)).Verdict);
        Assert.Equal((FrameVerdict.Accepted, 2L), inbox.Accept(new(0, 2, 2, 10)));
        Assert.Equal(2, inbox.AckedThrough(0));
    }

    [Fact]
    public async Task AFullWindowMakesTheSenderWaitUntilAnAcknowledgement()
    {
        var window = new AckWindow(capacity: 2);
        Assert.Equal(0, await window.AddAsync(default));
        Assert.Equal(1, await window.AddAsync(default));

        var third = window.AddAsync(default);
        await Task.Delay(50);
        Assert.False(third.IsCompleted); // full: the sender waits
        Assert.Equal(2, window.InFlight);

        window.Acknowledge(0);
        Assert.Equal(2, await third.WaitAsync(TimeSpan.FromSeconds(5)));
        Assert.Equal(2, window.InFlight); // 1 and 2
        window.Acknowledge(2);
        Assert.Equal(0, window.InFlight);
        window.Acknowledge(2); // a repeated acknowledgement frees nothing twice
        Assert.Equal(3, await window.AddAsync(default));
        Assert.Equal(4, await window.AddAsync(default));
        var waiting = window.AddAsync(default);
        await Task.Delay(50);
        Assert.False(waiting.IsCompleted);
    }
}
