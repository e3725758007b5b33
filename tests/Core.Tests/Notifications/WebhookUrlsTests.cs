using BenchDashboard.Core.Notifications;
using BenchDashboard.Core.Security;

namespace BenchDashboard.Core.Tests.Notifications;

public class WebhookUrlsTests
{
    static readonly TargetPolicy Production = new(new TargetOptions(), isDevelopment: false, siteHostName: null);
    static readonly TargetPolicy Development = new(new TargetOptions(), isDevelopment: true, siteHostName: null);

    [Theory]
    [InlineData("http://169.254.169.254/latest/meta-data/", "metadata")]
    [InlineData("http://168.63.129.16/", "metadata")]
    [InlineData("ftp://hooks.example.com/", "absolute http")]
    [InlineData("https://user:secret@hooks.example.com/", "user name or password")]
    public async Task AddressesTheTargetRulesRefuseAreRefusedEvenInDevelopment(string url, string reason)
    {
        var (_, error) = await WebhookUrls.ValidateAsync([url], Development, default);

        Assert.Contains(reason, error);
    }

    [Fact]
    public async Task LoopbackIsRefusedOutsideDevelopmentAndAllowedInIt()
    {
        var (_, refused) = await WebhookUrls.ValidateAsync(["http://127.0.0.1:9000/hook"], Production, default);
        var (urls, allowed) = await WebhookUrls.ValidateAsync(["  http://127.0.0.1:9000/hook ", "", "http://127.0.0.1:9000/hook"], Development, default);

        Assert.Contains("loopback", refused);
        Assert.Null(allowed);
        Assert.Equal(["http://127.0.0.1:9000/hook"], urls);
    }

    [Fact]
    public async Task MoreThanTenUrlsAreRefused()
    {
        var (_, error) = await WebhookUrls.ValidateAsync(Enumerable.Range(0, 11).Select(i => $"http://127.0.0.1:{9000 + i}/"), Development, default);

        Assert.Equal("Enter at most 10 webhook URLs.", error);
    }

    [Fact]
    public void TheSignatureIsHmacSha256OfTheTimestampADotAndTheBody()
    {
        // openssl: printf '1700000000.{"a":1}' | openssl dgst -sha256 -hmac 'test-signing-key-0123456789'
        var signature = WebhookSignature.Sign("test-signing-key-0123456789", 1_700_000_000, "{\"a\":1}"u8.ToArray());

        Assert.Equal("sha256=a23fe4de2a46589535768ed832356e4ada992eaf82ac5377fce1f63886c66401", signature);
    }

    [Fact]
    public void RetriesWaitTwiceAsLongEachTimeUpToTheCeiling()
    {
        var options = new WebhookOptions { FirstRetrySeconds = 10, MaxRetrySeconds = 60 };

        Assert.Equal([10, 20, 40, 60, 60], Enumerable.Range(1, 5).Select(a => options.RetryDelay(a).TotalSeconds));
    }
}
