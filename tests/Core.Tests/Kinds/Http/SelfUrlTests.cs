using System.Net;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Security;
using Microsoft.Extensions.Options;

namespace BenchDashboard.Core.Tests.Kinds.Http;

/// <summary>{{self}} URLs: what the dashboard accepts, and where an agent sends them.</summary>
public class SelfUrlTests
{
    static readonly RunLimits Limits = new() { MaxRequests = 1000, MaxDurationSeconds = 60, MaxConcurrency = 8 };
    static readonly TargetPolicy Production = new(new TargetOptions(), isDevelopment: false, siteHostName: null);

    [Theory]
    [InlineData("{{self}}/target/delay?ms=2")]
    [InlineData("{{self}}/target/files?count=64&x=%20y")]
    [InlineData("{{self}}/")]
    [InlineData("{{self}}")]
    [InlineData("{{SELF}}/target/static.html")]
    public void APathAndQueryAfterSelfAreAcceptedWithoutATargetCheck(string url) =>
        Assert.Empty(HttpParametersValidator.Validate(new HttpParameters { Url = url, Requests = 10 }, Limits));

    [Theory]
    [InlineData("{{self}}target/delay", "beginning with '/'")]
    [InlineData("{{self}}:8080/target", "beginning with '/'")]
    [InlineData("{{self}}@evil.example/", "beginning with '/'")]
    [InlineData("{{self}}//evil.example/target", "not a path on the agent's own site")]
    [InlineData("{{self}}/target/delay?ms=2 x", "plain path and query")]
    [InlineData("{{self}}/target\\..\\x", "plain path and query")]
    [InlineData("{{self}}/target#top", "plain path and query")]
    [InlineData("{{self}}/tärget", "plain path and query")]
    public void AnythingButAPathAfterSelfIsRefusedNamingTheUrlField(string url, string message)
    {
        var errors = HttpParametersValidator.Validate(new HttpParameters { Url = url, Requests = 10 }, Limits);
        Assert.Contains(message, Assert.Single(errors["url"]));
    }

    [Fact]
    public void AVariantsSelfUrlIsCheckedAsItsOwnField()
    {
        var p = new HttpParameters { Url = "{{self}}/target/delay?ms=1", Requests = 10, Variants = [new HttpVariant(), new HttpVariant { Url = "{{self}}target" }] };
        Assert.Contains("beginning with '/'", Assert.Single(HttpParametersValidator.Validate(p, Limits)["variants[1].url"]));
    }

    [Fact]
    public async Task TheDashboardsTargetPolicyDoesNotJudgeSelfUrlsButStillJudgesTheOthers()
    {
        var kind = new HttpKind(Options.Create(Limits), Production);
        var self = new HttpParameters { Url = "{{self}}/target/delay?ms=2", Requests = 10, Variants = [new HttpVariant(), new HttpVariant { Url = "{{self}}/target/bytes" }] };
        Assert.Empty(await kind.ValidateAsync(self, CancellationToken.None));

        var mixed = self with { Variants = [new HttpVariant(), new HttpVariant { Url = "http://127.0.0.1:5080/target/bytes" }] };
        Assert.Contains("loopback", Assert.Single((await kind.ValidateAsync(mixed, CancellationToken.None))["variants[1].url"]));
    }

    [Fact]
    public void ResolvingPutsTheSitesAddressInPlaceOfSelfInTheRunAndEveryVariant()
    {
        var p = new HttpParameters
        {
            Url = "{{self}}/target/delay?ms=2", Requests = 10,
            Variants = [new HttpVariant { Name = "own" }, new HttpVariant { Name = "files", Url = "{{self}}/target/files?count=4" }, new HttpVariant { Name = "out", Url = "https://example.com/x" }],
        };

        var resolved = SelfUrl.Resolve(p, new Uri("http://127.0.0.1:5123"));

        Assert.Equal("http://127.0.0.1:5123/target/delay?ms=2", resolved.Url);
        Assert.Equal(
            ["http://127.0.0.1:5123/target/delay?ms=2", "http://127.0.0.1:5123/target/files?count=4", "https://example.com/x"],
            resolved.Resolved().Select(v => v.Parameters.Url));
        Assert.True(SelfUrl.Uses(p));
        Assert.False(SelfUrl.Uses(resolved));
    }

    [Fact]
    public void ASiteUnderAPathKeepsItsPathInFrontOfTheRunsPath() =>
        Assert.Equal("http://127.0.0.1:8080/app/target/bytes", SelfUrl.Resolve("{{self}}/target/bytes", new Uri("http://127.0.0.1:8080/app/")));

    [Theory]
    [InlineData(null, "8080", null, "http://127.0.0.1:8080/")]                          // App Service: PORT
    [InlineData(null, null, "http://+:5000", "http://127.0.0.1:5000/")]                 // every interface
    [InlineData(null, null, "http://*:5000;https://*:5001", "http://127.0.0.1:5000/")]  // the first address
    [InlineData(null, null, "http://localhost:5002", "http://127.0.0.1:5002/")]
    [InlineData(null, null, "http://[::]:5003", "http://127.0.0.1:5003/")]
    [InlineData(null, "8080", "http://127.0.0.1:5004", "http://127.0.0.1:5004/")]       // ASPNETCORE_URLS wins, as the web host's own choice
    [InlineData("http://127.0.0.1:7000", "8080", "http://+:5000", "http://127.0.0.1:7000/")] // Runner:SelfUrl wins
    [InlineData("http://localhost:7001", null, null, "http://127.0.0.1:7001/")]
    public void TheOwnSitesAddressComesFromSelfUrlThenTheListeningAddressOnLoopback(string? configured, string? port, string? urls, string expected) =>
        Assert.Equal(expected, SelfUrl.SiteAddress(configured, port, urls)?.ToString());

    [Theory]
    [InlineData(null, null, null)]
    [InlineData(null, "not a port", null)]
    [InlineData(null, "0", null)]
    [InlineData("ftp://127.0.0.1/", null, null)]
    [InlineData("not a url", "8080", null)]
    public void WithoutAnAddressThereIsNoOwnSite(string? configured, string? port, string? urls) =>
        Assert.Null(SelfUrl.SiteAddress(configured, port, urls));

    [Fact]
    public void AnOwnSiteOnLoopbackIsAllowedWithoutOpeningLoopbackOrWhatIsNeverAllowed()
    {
        var own = Production.AllowingOwnSite(IPAddress.Loopback);

        Assert.Null(own.CheckAddress(IPAddress.Loopback, "127.0.0.1"));
        Assert.Contains("loopback", Production.CheckAddress(IPAddress.Loopback, "127.0.0.1"));  // the policy itself is unchanged
        Assert.Contains("loopback", own.CheckAddress(IPAddress.Parse("127.0.0.2"), "127.0.0.2")); // only that address
        Assert.Contains("metadata", own.CheckAddress(IPAddress.Parse("169.254.169.254"), "169.254.169.254"));
        Assert.Contains("scm", own.CheckHost("mysite.scm.azurewebsites.net"));
    }
}
