using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Kinds.Cache;
using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Kinds.Tables;

namespace BenchDashboard.Core.Tests.Benchmarks;

public class LoadFieldsValidatorTests
{
    static readonly RunLimits Limits = new() { MaxRequests = 1_000, MaxDurationSeconds = 60, MaxConcurrency = 8, MaxTimeoutMs = 5_000, MaxWarmupRequests = 100 };

    static Dictionary<string, List<string>> Errors(LoadParameters p, LoadCounting counting)
    {
        var errors = new Dictionary<string, List<string>>();
        LoadFieldsValidator.Validate(p, Limits, counting, (field, message) =>
        {
            if (!errors.TryGetValue(field, out var list)) errors[field] = list = [];
            list.Add(message);
        });
        return errors;
    }

    static readonly HttpParameters Plain = new() { Url = "http://127.0.0.1/", Requests = 10, TimeoutMs = 1_000 };

    [Fact]
    public void ValidLoadFieldsHaveNoErrors() => Assert.Empty(Errors(Plain, new LoadCounting()));

    [Fact]
    public void ACountIsCheckedTimesTheVariantsItStandsFor()
    {
        // 300 per variant is 900 requests: within 1,000 alone, not times three.
        Assert.Empty(Errors(Plain with { Requests = 300 }, new LoadCounting("requests", Variants: 3)));
        var errors = Errors(Plain with { Requests = 400 }, new LoadCounting("requests", Variants: 3));

        Assert.Equal("Requests per variant must be at least 1 and, times the 3 variants, at most 1,000 (RunLimits:MaxRequests): 400 × 3 = 1,200.", errors["requests"].Single());
        Assert.Empty(Errors(Plain with { Requests = 333 }, new LoadCounting("requests", Variants: 3)));
    }

    [Fact]
    public void PhasesMultiplyACountAndADurationAndAreNamedInTheMessage()
    {
        var cache = new CacheParameters { Requests = 200, Concurrency = 1 };
        Assert.Contains("times the 4 phases and 2 variants", Errors(cache, new LoadCounting("operations", Variants: 2, Phases: 4))["requests"].Single());
        Assert.Equal("Seconds per phase must be at least 1 and, times the 4 phases, at most 60 (RunLimits:MaxDurationSeconds).",
            Errors(cache with { Requests = null, DurationSeconds = 20 }, new LoadCounting("operations", Phases: 4))["durationSeconds"].Single());
        Assert.Empty(Errors(cache with { Requests = null, DurationSeconds = 15 }, new LoadCounting("operations", Phases: 4)));
    }

    [Fact]
    public void NeitherOrBothOfACountAndADurationIsRefused()
    {
        Assert.Equal("Set either a number of requests per variant or a duration, not both.",
            Errors(Plain with { DurationSeconds = 5 }, new LoadCounting("requests", Variants: 2))["requests"].Single());
        Assert.Contains("Set either a number of requests or a duration, not both.", Errors(Plain with { Requests = null }, new LoadCounting())["requests"]);
    }

    [Theory]
    [InlineData(0, "concurrency", "Concurrency must be between 1 and 8 (RunLimits:MaxConcurrency).")]
    [InlineData(9, "concurrency", "Concurrency must be between 1 and 8 (RunLimits:MaxConcurrency).")]
    public void ConcurrencyOutsideTheLimitsIsRefused(int concurrency, string field, string message) =>
        Assert.Contains(message, Errors(Plain with { Concurrency = concurrency }, new LoadCounting())[field]);

    [Fact]
    public void ConcurrencyAboveTheCountTimeoutAndWarmUpAreCheckedForEveryKindAlike()
    {
        LoadParameters[] kinds = [Plain with { Concurrency = 11 }, new TableParameters { Requests = 10, Concurrency = 11 }, new CacheParameters { Requests = 10, Concurrency = 11 }];
        foreach (var p in kinds)
            Assert.Contains("Concurrency cannot exceed the requests (10).", Errors(p, new LoadCounting())["concurrency"]);

        Assert.Equal("Timeout must be between 1 and 5,000 ms (RunLimits:MaxTimeoutMs).", Errors(Plain with { TimeoutMs = 0 }, new LoadCounting())["timeoutMs"].Single());
        Assert.Equal("Timeout must be between 1 and 5,000 ms (RunLimits:MaxTimeoutMs).", Errors(new TableParameters { Requests = 10 }, new LoadCounting())["timeoutMs"].Single()); // Table's default 30 s is above this limit
        // Warm-up goes round the variants too: 40 each of 3 is 120, over 100.
        Assert.Empty(Errors(Plain with { WarmupRequests = 40 }, new LoadCounting()));
        Assert.StartsWith("Warm-up requests per variant must be at least 0 and, times the 3 variants, at most 100",
            Errors(Plain with { WarmupRequests = 40 }, new LoadCounting("requests", Variants: 3))["warmupRequests"].Single());
    }

    [Fact]
    public void TheLoadModelIsCheckedToo() =>
        Assert.Contains("rate", Errors(Plain with { Rate = 5 }, new LoadCounting()).Keys);

    [Fact]
    public void EachKindsValidatorUsesTheSharedOneWithItsOwnCounting()
    {
        var limits = new RunLimits { MaxRequests = 1_000, MaxDurationSeconds = 60, MaxConcurrency = 100, MaxTimeoutMs = 5_000, MaxWarmupRequests = 100 };
        // HTTP: a count is per variant, so three variants of 400 are 1,200 requests.
        var http = Plain with { Requests = 400, Variants = [new() { Name = "A" }, new() { Name = "B" }, new() { Name = "C" }] };
        Assert.Contains("times the 3 variants", HttpParametersValidator.Validate(http, limits)["requests"].Single());
        // Table: the matrix of 2 × 2 × 2 is 8 variants.
        Assert.Contains("times the 8 variants", TableParametersValidator.Validate(new TableParameters { Connection = "t", Requests = 200, TimeoutMs = 1_000 }, limits, _ => true)["requests"].Single());
        // Cache: four phases.
        Assert.Contains("times the 4 phases", CacheParametersValidator.Validate(new CacheParameters { Requests = 300 }, limits, _ => true)["requests"].Single());
    }

    [Fact]
    public void TheKindsKeepTheirOwnDefaultTimeouts()
    {
        Assert.Equal(10_000, new HttpParameters().TimeoutMs);
        Assert.Equal(30_000, new TableParameters().TimeoutMs);
        Assert.Equal(5_000, new CacheParameters().TimeoutMs);
        Assert.Equal(TimeSpan.FromSeconds(10), new HttpParameters().Timeout);
    }

    [Fact]
    public void WarmUpReachesTheLoadDriverThroughTheSharedInterfaceAndTheCacheHasNone()
    {
        Assert.Equal(7, ((ILoadParameters)(Plain with { WarmupRequests = 7 })).WarmupRequests);
        Assert.Equal(7, ((ILoadParameters)new TableParameters { WarmupRequests = 7 }).WarmupRequests);
        Assert.Equal(0, ((ILoadParameters)new CacheParameters()).WarmupRequests);
        Assert.Equal(3, ((ILoadParameters)(Plain with { Variants = [new(), new(), new()] })).OperationsPerRequest);
    }
}
