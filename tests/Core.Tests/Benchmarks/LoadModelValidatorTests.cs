using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Kinds.Cache;
using BenchDashboard.Core.Kinds.Http;

namespace BenchDashboard.Core.Tests.Benchmarks;

public class LoadModelValidatorTests
{
    static readonly RunLimits Limits = new() { MaxRequests = 10_000, MaxDurationSeconds = 60, MaxConcurrency = 8 };
    static readonly HttpParameters Open = new() { Url = "http://127.0.0.1:5080/target/bytes", Model = LoadModel.Open, Rate = 100, DurationSeconds = 5 };

    static Dictionary<string, string[]> Errors(HttpParameters p) => HttpParametersValidator.Validate(p, Limits);

    [Fact]
    public void AScheduleWithMoreOperationsThanTheSampleBudgetIsRefusedAndAClosedDurationRunIsToldOfIt()
    {
        var limits = new RunLimits { MaxRequests = 1_000_000, MaxDurationSeconds = 600, MaxConcurrency = 8, MaxSamplesPerRun = 50_000 };

        var errors = HttpParametersValidator.Validate(Open with { Rate = 1_000, DurationSeconds = 60 }, limits);

        Assert.Equal("That schedule has 60,000 operations; a run stores at most 50,000 samples (RunLimits:MaxSamplesPerRun).", errors["durationSeconds"].Single());
        Assert.Empty(HttpParametersValidator.Validate(Open with { Rate = 500, DurationSeconds = 60 }, limits));
        Assert.Empty(LoadModelValidator.Notices(Open, PlannedLoad.Of(Open), limits)); // an open run knows its count
        var closed = Open with { Model = LoadModel.Closed, Rate = null, DurationSeconds = 60 };
        Assert.StartsWith("This run lasts 60 s unless it reaches 50,000 samples first", LoadModelValidator.Notices(closed, PlannedLoad.Of(closed), limits).Single());
        var counted = closed with { DurationSeconds = null, Requests = 10 };
        Assert.Empty(LoadModelValidator.Notices(counted, PlannedLoad.Of(counted), limits));
        // A count within the budget whose warm-up takes it past: told, as a duration run is.
        var warmed = closed with { DurationSeconds = null, Requests = 50_000, WarmupRequests = 100 };
        Assert.StartsWith("This run asks for about 50,100 samples, warm-up included; a run stores at most 50,000", LoadModelValidator.Notices(warmed, PlannedLoad.Of(warmed), limits).Single());
    }

    [Fact]
    public void AnOpenRunWithARateAndADurationOrCountIsValid()
    {
        Assert.Empty(Errors(Open));
        Assert.Empty(Errors(Open with { DurationSeconds = null, Requests = 300 }));
        Assert.Empty(Errors(Open with { DurationSeconds = null, Rate = 0, Stages = [new(10, 200), new(0, 50), new(5, 50)] }));
    }

    [Fact]
    public void ARateOrStagesWithoutTheOpenModelAreRefusedRatherThanIgnored()
    {
        var closed = Open with { Model = LoadModel.Closed };
        Assert.Contains("open", Errors(closed)["rate"].Single());
        Assert.Contains("stages", Errors(closed with { Rate = null, DurationSeconds = null, Requests = 5, Stages = [new(1, 1)] }).Keys);
        Assert.Empty(Errors(closed with { Rate = null }));
    }

    [Theory]
    [InlineData(null)]
    [InlineData(0.0)]
    [InlineData(-1.0)]
    [InlineData(double.NaN)]
    [InlineData(double.PositiveInfinity)]
    [InlineData(2_000_000.0)]
    public void AnOpenRunNeedsAPositiveFiniteRate(double? rate) =>
        Assert.Contains("rate", Errors(Open with { Rate = rate }).Keys);

    [Fact]
    public void StagesSetTheLengthAndEachIsCheckedWhereItIs()
    {
        Assert.Contains("leave out requests and durationSeconds", Errors(Open with { Stages = [new(1, 1)] })["stages"].Single());
        var errors = Errors(Open with { DurationSeconds = null, Stages = [new(1, 10), new(-1, 10), new(1, -5), null!] });
        Assert.Contains("stages[1].durationSeconds", errors.Keys);
        Assert.Contains("stages[2].rate", errors.Keys);
        Assert.Contains("stages[3]", errors.Keys);
        Assert.Contains("stages", Errors(Open with { DurationSeconds = null, Stages = Enumerable.Repeat(new RateStage(0.1, 1), 101).ToList() }).Keys);
    }

    [Fact]
    public void TheScheduleIsHeldToTheRunLimits()
    {
        Assert.Contains("RunLimits:MaxDurationSeconds", Errors(Open with { DurationSeconds = null, Stages = [new(61, 10)] })["stages"].Single());
        Assert.Contains("RunLimits:MaxRequests", Errors(Open with { Rate = 5000, DurationSeconds = 3 })["durationSeconds"].Single());
        Assert.Contains("RunLimits:MaxDurationSeconds", Errors(Open with { DurationSeconds = null, Requests = 1000, Rate = 10 })["requests"].Single());
        Assert.Contains("no operation", Errors(Open with { DurationSeconds = null, Rate = 0, Stages = [new(5, 0)] })["stages"].Single());
    }

    [Fact]
    public void ACacheScheduleRunsOncePerPhaseAndCountsSo()
    {
        var cache = new CacheParameters { Model = LoadModel.Open, Rate = 10, Requests = 200 }; // four phases of 20 s: 80 s
        Assert.Contains("80 s", CacheParametersValidator.Validate(cache, Limits, _ => true)["requests"].Single());
        Assert.Empty(CacheParametersValidator.Validate(cache with { Requests = 150 }, Limits, _ => true));
    }
}
