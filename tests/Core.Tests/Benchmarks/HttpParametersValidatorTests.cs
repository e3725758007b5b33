using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Benchmarks.Http;

namespace BenchDashboard.Core.Tests.Benchmarks;

public class HttpParametersValidatorTests
{
    static readonly RunLimits Limits = new() { MaxRequests = 1000, MaxDurationSeconds = 60, MaxConcurrency = 8 };
    static readonly HttpParameters Valid = new() { Url = "http://127.0.0.1:5080/target/bytes", Requests = 10 };

    [Fact]
    public void ValidParametersHaveNoErrors() => Assert.Empty(HttpParametersValidator.Validate(Valid, Limits));

    [Theory]
    [InlineData("not a url")]
    [InlineData("ftp://127.0.0.1/")]
    [InlineData("/relative")]
    public void OnlyAbsoluteHttpUrlsAreAccepted(string url) =>
        Assert.Contains("url", HttpParametersValidator.Validate(Valid with { Url = url }, Limits).Keys);

    [Fact]
    public void LimitsAreEnforcedWithMessagesThatNameTheSetting()
    {
        var errors = HttpParametersValidator.Validate(Valid with { Requests = 5000, Concurrency = 9 }, Limits);

        Assert.Contains("RunLimits:MaxRequests", errors["requests"].Single());
        Assert.Contains("between 1 and 8", errors["concurrency"][0]);
    }

    [Fact]
    public void DurationIsLimitedToo() =>
        Assert.Contains("RunLimits:MaxDurationSeconds",
            HttpParametersValidator.Validate(Valid with { Requests = null, DurationSeconds = 61 }, Limits)["durationSeconds"].Single());

    [Fact]
    public void ExactlyOneOfRequestsAndDurationIsRequired()
    {
        Assert.Contains("requests", HttpParametersValidator.Validate(Valid with { Requests = null }, Limits).Keys);
        Assert.Contains("requests", HttpParametersValidator.Validate(Valid with { DurationSeconds = 5 }, Limits).Keys);
    }

    [Fact]
    public void BadMethodHeaderTimeoutAndWarmupAreEachReported()
    {
        var errors = HttpParametersValidator.Validate(Valid with
        {
            Method = "FETCH",
            Headers = new() { ["Bad Name"] = "x" },
            TimeoutMs = 0,
            WarmupRequests = -1,
        }, Limits);

        Assert.Equal(["headers", "method", "timeoutMs", "warmupRequests"], errors.Keys.Order());
    }

    [Fact]
    public void GetWithABodyIsRejected() =>
        Assert.Contains("body", HttpParametersValidator.Validate(Valid with { Body = "x" }, Limits).Keys);

    [Fact]
    public void AHostHeaderIsRefusedTheUrlNamesTheHost() =>
        Assert.Contains("Host header comes from the URL", HttpParametersValidator.Validate(Valid with { Headers = new() { ["host"] = "app.scm.azurewebsites.net" } }, Limits)["headers"].Single());
}
