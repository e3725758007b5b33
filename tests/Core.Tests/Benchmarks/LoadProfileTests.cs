using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Kinds.Http;

namespace BenchDashboard.Core.Tests.Benchmarks;

public class LoadProfileTests
{
    const long Ms = 1_000_000;

    static LoadProfile Open(double rate, int? durationSeconds = null, int? requests = null, params RateStage[] stages) =>
        LoadProfile.Of(new HttpParameters { Model = LoadModel.Open, Rate = rate, DurationSeconds = durationSeconds, Requests = requests, Stages = stages.Length == 0 ? null : [.. stages] })!;

    [Fact]
    public void AConstantRateIsEvenlySpacedAndEndsBeforeTheDuration()
    {
        var profile = Open(200, durationSeconds: 6);

        Assert.Equal(1200, profile.Operations);
        Assert.Equal(6_000 * Ms, profile.DurationNs);
        Assert.Equal(0, profile.DueNs(0));
        Assert.Equal(5 * Ms, profile.DueNs(1));
        Assert.Equal(5_995 * Ms, profile.DueNs(1199));
        Assert.Null(profile.DueNs(1200));
        Assert.Null(profile.DueNs(-1));
    }

    [Fact]
    public void ACountAtARateLastsCountOverRate()
    {
        var profile = Open(400, requests: 150);

        Assert.Equal(150, profile.Operations);
        Assert.Equal(372_500_000, profile.DueNs(149));

        // 150 / 7 s is not a whole number of ns: the count is still the count asked for.
        var odd = Open(7, requests: 150);
        Assert.Equal(150, odd.Operations);
        Assert.True(odd.DueNs(149) < odd.DurationNs);
    }

    [Fact]
    public void ALinearRampUpDuesOperationsAtTheSquareRootOfTheArrivals()
    {
        // 0 → 500 /s over 4 s: A(t) = 62.5 t², so operation k is due at √(k / 62.5) s; then 500 /s for 2 s.
        var profile = Open(0, stages: [new RateStage(4, 500), new RateStage(2, 500)]);

        Assert.Equal(2000, profile.Operations);
        Assert.Equal(6_000 * Ms, profile.DurationNs);
        Assert.Equal(0, profile.DueNs(0));
        Assert.Equal(2_000 * Ms, profile.DueNs(250));
        Assert.Equal((long)Math.Round(Math.Sqrt(63 / 62.5) * 1e9), profile.DueNs(63));
        Assert.Equal(4_000 * Ms, profile.DueNs(1000));
        Assert.Equal(4_002 * Ms, profile.DueNs(1001));
        Assert.Equal(5_998 * Ms, profile.DueNs(1999));
        Assert.Equal(250, profile.RateAt(2_000 * Ms));
        Assert.Equal(500, profile.RateAt(5_000 * Ms));
    }

    [Fact]
    public void ARampDownSlowsTheArrivals()
    {
        // 500 → 0 /s over 2 s: A(t) = 500 t − 125 t², 500 arrivals; A(1 s) = 375.
        var profile = Open(500, stages: [new RateStage(2, 0)]);

        Assert.Equal(500, profile.Operations);
        Assert.Equal(1_000 * Ms, profile.DueNs(375));
        Assert.True(profile.DueNs(499) < 2_000 * Ms);
    }

    [Fact]
    public void AStepAndAPauseChangeTheRateAtOnce()
    {
        // From 100 /s: a step to 300 /s for 1 s, a step to 0 held for 1 s (nothing due), then 10 /s for 1 s.
        var profile = Open(100, stages: [new RateStage(0, 300), new RateStage(1, 300), new RateStage(0, 0), new RateStage(1, 0), new RateStage(0, 10), new RateStage(1, 10)]);

        Assert.Equal(310, profile.Operations);
        Assert.Equal(996_666_667, profile.DueNs(299)); // 299 / 300 s
        Assert.Equal(2_000 * Ms, profile.DueNs(300));
        Assert.Equal(2_900 * Ms, profile.DueNs(309));
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    public void DueTimesNeverGoBackwardsAndStayInsideTheProfile(int seed)
    {
        var random = new Random(seed);
        var stages = Enumerable.Range(0, 8).Select(_ => new RateStage(random.Next(0, 3) == 0 ? 0 : random.NextDouble() * 3, random.NextDouble() * 900)).ToArray();
        var profile = Open(random.NextDouble() * 900, stages: stages);

        long previous = 0;
        for (long k = 0; k < profile.Operations; k++)
        {
            var due = profile.DueNs(k)!.Value;
            Assert.True(due >= previous, $"operation {k} due at {due} before {previous}");
            Assert.InRange(due, 0, profile.DurationNs);
            previous = due;
        }
        Assert.Null(profile.DueNs(profile.Operations));
    }

    [Fact]
    public void TheClosedModelHasNoProfile() =>
        Assert.Null(LoadProfile.Of(new HttpParameters { Requests = 10 }));

    [Fact]
    public void TheScheduleIsDescribedInWords()
    {
        Assert.Equal("200 /s for 6 s, at most 8 in flight",
            LoadProfile.Describe(new HttpParameters { Model = LoadModel.Open, Rate = 200, DurationSeconds = 6, Concurrency = 8 }));
        Assert.Equal("0 → 500 /s over 4 s, then 500 /s for 2 s, then step to 800 /s, at most 1 in flight",
            LoadProfile.Describe(new HttpParameters { Model = LoadModel.Open, Rate = 0, Stages = [new(4, 500), new(2, 500), new(0, 800)] }));
        Assert.Null(LoadProfile.Describe(new HttpParameters { Requests = 5 }));
    }
}
