using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Kinds.Http;

namespace BenchDashboard.Core.Tests.Benchmarks;

public class HttpParametersValidatorTests
{
    static readonly RunLimits Limits = new() { MaxRequests = 1000, MaxDurationSeconds = 60, MaxConcurrency = 8 };
    static readonly HttpParameters Valid = new() { Url = "http://127.0.0.1:5080/target/bytes", Requests = 10 };

    [Fact]
    public void ValidParametersHaveNoErrors() => Assert.Empty(HttpParametersValidator.Validate(Valid, Limits));

    [Fact]
    public void VariantsCountAgainstTheConnectionLimitOnlyWhereTheyCannotShareAWorkersConnection()
    {
        // 4 workers: three same-origin variants share each worker's connection (4 in all, within 8); three
        // timeouts need three connections per worker (12 in all, over 8).
        var sharing = Valid with { Concurrency = 4, Variants = [new HttpVariant(), new HttpVariant { Url = "http://127.0.0.1:5080/target/delay" }, new HttpVariant { Method = "HEAD" }] };
        Assert.False(HttpParametersValidator.Validate(sharing, Limits).ContainsKey("concurrency"));

        var apart = Valid with { Concurrency = 4, Variants = [new HttpVariant(), new HttpVariant { TimeoutMs = 2000 }, new HttpVariant { TimeoutMs = 3000 }] };
        Assert.Contains("3 connections per worker", HttpParametersValidator.Validate(apart, Limits)["concurrency"].Single());
    }

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

    [Fact]
    public void HeadersThatFrameOrBreakTheRequestAreRefused()
    {
        var valid = new HttpParameters { Url = "http://example.com/", Requests = 1 };
        Dictionary<string, string[]> With(Dictionary<string, string> headers) => HttpParametersValidator.Validate(valid with { Headers = headers }, new RunLimits());

        Assert.Contains("line break", With(new() { ["X-A"] = "a\r\nHost: mysite.scm.azurewebsites.net" })["headers"].Single());
        Assert.Contains("line break", With(new() { ["X-A"] = "a\0b" })["headers"].Single());
        Assert.Contains("not a valid header name", With(new() { ["X-A\r\nHost"] = "x" })["headers"].Single());
        foreach (var framing in new[] { "content-length", "Transfer-Encoding", "Connection", "Upgrade" })
            Assert.Contains("is set by the client", With(new() { [framing] = "x" })["headers"].Single());
        Assert.Contains("comes from the URL", With(new() { ["Host"] = "x" })["headers"].Single());
        Assert.Empty(With(new() { ["Authorization"] = "Bearer x", ["X-Trace"] = "1" }));
    }

    [Fact]
    public void SizesAreCappedForWhatIsStoredWithEveryRun()
    {
        var valid = new HttpParameters { Url = "http://example.com/", Requests = 1, Method = "POST" };
        Dictionary<string, string[]> Check(HttpParameters p) => HttpParametersValidator.Validate(p, new RunLimits());

        Assert.Contains("At most 64 headers", Check(valid with { Headers = Enumerable.Range(0, 65).ToDictionary(i => $"X-{i}", _ => "v") })["headers"].Single());
        Assert.Contains("at most 8,192 characters", Check(valid with { Headers = new() { ["X-A"] = new string('v', 8193) } })["headers"].Single());
        Assert.Contains("at most 64 KiB", Check(valid with { Body = new string('b', 64 * 1024 + 1) })["body"].Single());
        Assert.Contains("at most 2,048 characters", Check(valid with { Url = "http://example.com/" + new string('p', 2048) })["url"].Single());
        Assert.Contains("port must be between 1 and 65535", Check(valid with { Url = "http://127.0.0.1:0/" })["url"].Single());
        Assert.Empty(Check(valid with { Body = new string('b', 64 * 1024), Headers = Enumerable.Range(0, 64).ToDictionary(i => $"X-{i}", _ => new string('v', 8192)) }));
    }
}
