using BenchDashboard.Core;
using BenchDashboard.Core.Runs;
using BenchDashboard.Processing.Executing;
using BenchDashboard.Runner.Execution;

namespace BenchDashboard.Runner.Tests.Execution;

/// <summary>
/// The live figures read their percentiles outside the adding side's lock now; for the same samples at the same
/// times they must say exactly what the former implementation (<see cref="LiveRunStatsBefore"/>) said.
/// </summary>
public sealed class LiveRunStatsAgreementTests
{
    static readonly ErrorKind[] Kinds = Enum.GetValues<ErrorKind>();

    [Theory]
    [InlineData(1, 0)]
    [InlineData(2, 2)]
    [InlineData(3, 3)]
    [InlineData(4, 1)]
    public void ScriptedRunsGiveTheSameSnapshotsAsBefore(int seed, int seriesCount)
    {
        var clock = new ScriptedClock();
        var (now, before) = (new LiveRunStats(clock.Read), new LiveRunStatsBefore(clock.Read));
        var random = new Random(seed);
        var compared = 0;
        for (var index = 0; index < 40_000; index++)
        {
            var roll = random.NextDouble();
            if (roll < 0.0005) clock.Advance(130 + random.Next(300)); // a stall longer than the seconds kept
            else if (roll < 0.003) clock.Advance(1 + random.NextDouble() * 6); // a few quiet seconds
            else clock.Advance(random.NextDouble() * 0.004);
            var sample = new Sample
            {
                Index = index,
                IsWarmup = index < 300,
                LatencyNs = (long)(Math.Exp(random.NextDouble() * 14) * 100),
                Error = random.NextDouble() < 0.05 ? Kinds[1 + random.Next(Kinds.Length - 1)] : ErrorKind.None,
                LagNs = random.NextDouble() < 0.1 ? 5_000_000 : 10_000,
                Series = seriesCount == 0 ? null : $"variant {random.Next(seriesCount)}",
            };
            now.Add(sample);
            before.Add(sample);
            // Mostly a heartbeat every few hundred samples; at times none for thousands (many closed seconds wait).
            if (random.NextDouble() < (index / 10_000 % 2 == 0 ? 0.004 : 0.0002))
            {
                if (random.NextDouble() < 0.1) clock.Advance(1 + random.Next(4)); // a stalled target: the snapshot closes seconds
                AssertSameSnapshot(before, now);
                compared++;
            }
        }
        clock.Advance(2.5);
        AssertSameSnapshot(before, now);
        Assert.True(compared > 20, $"{compared} snapshots compared");
    }

    [Fact]
    public void AThousandSecondsWithoutASnapshotGiveTheSameRowsAsBefore()
    {
        var clock = new ScriptedClock();
        var (now, before) = (new LiveRunStats(clock.Read), new LiveRunStatsBefore(clock.Read));
        AssertSameSnapshot(before, now); // nothing yet
        for (var index = 0; index < 10_000; index++)
        {
            var sample = new Sample { Index = index, LatencyNs = 1_000_000 + index % 100 * 10_000, Series = index % 3 == 0 ? "a" : "b" };
            now.Add(sample);
            before.Add(sample);
            clock.Advance(0.1);
            if (index == 50) AssertSameSnapshot(before, now);
        }
        AssertSameSnapshot(before, now);
        clock.Advance(3.7); // a stall: two snapshots close seconds in which nothing completed
        AssertSameSnapshot(before, now);
        clock.Advance(2);
        AssertSameSnapshot(before, now);
    }

    [Fact]
    public void AnErrorsOnlySecondAndAWarmupOnlyStartGiveTheSameRowsAsBefore()
    {
        var clock = new ScriptedClock();
        var (now, before) = (new LiveRunStats(clock.Read), new LiveRunStatsBefore(clock.Read));
        var samples = new[]
        {
            new Sample { Index = 0, IsWarmup = true, LatencyNs = 9_000_000 },
            new Sample { Index = 1, LatencyNs = 0, Error = ErrorKind.ConnectionRefused },
            new Sample { Index = 2, LatencyNs = 0, Error = ErrorKind.Timeout },
            new Sample { Index = 3, LatencyNs = 2_000_000, Error = ErrorKind.HttpStatus },
        };
        now.Add(samples[0]);
        before.Add(samples[0]);
        clock.Advance(2.2); // second 0 had only warm-up
        foreach (var sample in samples[1..3])
        {
            now.Add(sample);
            before.Add(sample);
        }
        clock.Advance(1); // second 2 had only failures without a latency
        now.Add(samples[3]);
        before.Add(samples[3]);
        clock.Advance(1);

        var snapshot = AssertSameSnapshot(before, now);

        Assert.Equal([new LiveSecond(1, 0, 0, null, null, null), new LiveSecond(2, 2, 2, null, null, null)], snapshot.Seconds.Take(2));
    }

    static LiveSnapshot AssertSameSnapshot(LiveRunStatsBefore before, LiveRunStats now)
    {
        var expected = before.Snapshot();
        var actual = now.Snapshot();
        Assert.Equal(Json.Serialize(expected), Json.Serialize(actual));
        return actual;
    }
}
