using System.Net;
using BenchDashboard.Core.Security;

namespace BenchDashboard.Core.Tests.Security;

public class TargetPolicyTests
{
    static readonly TargetPolicy Production = new(new TargetOptions(), isDevelopment: false, siteHostName: "mybench.azurewebsites.net");

    [Theory]
    [InlineData("169.254.169.254", "link-local or cloud metadata")] // AWS/Azure IMDS
    [InlineData("169.254.0.1", "link-local or cloud metadata")]
    [InlineData("fe80::1", "link-local or cloud metadata")]
    [InlineData("168.63.129.16", "link-local or cloud metadata")]   // Azure WireServer
    [InlineData("fd00:ec2::254", "link-local or cloud metadata")]
    [InlineData("100.100.100.200", "link-local or cloud metadata")]
    [InlineData("::ffff:169.254.169.254", "link-local or cloud metadata")] // IPv4-mapped
    [InlineData("::169.254.169.254", "link-local or cloud metadata")]     // IPv4-compatible
    [InlineData("64:ff9b::a9fe:a9fe", "link-local or cloud metadata")]    // NAT64 of 169.254.169.254
    [InlineData("2002:a9fe:a9fe::1", "link-local or cloud metadata")]     // 6to4 of 169.254.169.254
    [InlineData("64:ff9b:1::a9fe:a9fe", "link-local or cloud metadata")]  // local-use NAT64 (/96 position)
    [InlineData("64:ff9b:1:a9fe:a9:fe00::", "link-local or cloud metadata")] // local-use NAT64, RFC 6052's /48 position
    [InlineData("::ffff:0:a9fe:a9fe", "link-local or cloud metadata")]    // IPv4-translated (SIIT)
    [InlineData("2001:0:4136:e378:8000:63bf:5601:5601", "link-local or cloud metadata")] // Teredo: client bits inverted
    [InlineData("2001:db8::5efe:a9fe:a9fe", "link-local or cloud metadata")] // ISATAP interface id
    [InlineData("64:ff9b:1::5db8:d822", "local-use NAT64")]              // a public IPv4, but through a local translator
    [InlineData("64:ff9b::10.0.0.1", "private range")]
    [InlineData("fec0::1", "private range")]                               // deprecated site-local
    [InlineData("198.18.0.1", "private range")]                            // benchmarking range, not the internet
    [InlineData("0.1.2.3", "not a host address")]
    [InlineData("10.1.2.3", "private range")]
    [InlineData("172.16.0.1", "private range")]
    [InlineData("172.31.255.255", "private range")]
    [InlineData("192.168.1.1", "private range")]
    [InlineData("100.64.0.1", "private range")]
    [InlineData("fc00::1", "private range")]
    [InlineData("127.0.0.1", "loopback")]
    [InlineData("127.8.9.10", "loopback")]
    [InlineData("::1", "loopback")]
    [InlineData("0.0.0.0", "not a host address")]
    [InlineData("224.0.0.1", "not a host address")]
    public void EachRefusedAddressClassSaysWhy(string address, string reason) =>
        Assert.Contains(reason, Production.CheckAddress(IPAddress.Parse(address), address));

    [Theory]
    [InlineData("93.184.216.34")]
    [InlineData("172.32.0.1")] // just outside 172.16/12
    [InlineData("2606:4700::1111")]
    public void PublicAddressesAreAllowed(string address) => Assert.Null(Production.CheckAddress(IPAddress.Parse(address), address));

    [Fact]
    public void TheSitesOwnKuduHostIsRefused()
    {
        Assert.Contains("SCM/Kudu", Production.CheckHost("mybench.scm.azurewebsites.net"));
        Assert.Contains("SCM/Kudu", Production.CheckHost("other.scm.azurewebsites.net"));
        Assert.Contains("SCM/Kudu", Production.CheckHost("other.scm.westeurope-01.azurewebsites.net"));
        Assert.Contains("SCM/Kudu", Production.CheckHost("app.scm.myase.appserviceenvironment.net"));
        Assert.Null(Production.CheckHost("mybench.azurewebsites.net"));
    }

    [Fact]
    public void SettingsOpenLoopbackAndPrivateRangesButNeverMetadata()
    {
        var open = new TargetPolicy(new TargetOptions { AllowLoopback = true, AllowPrivateNetworks = true }, false, null);
        Assert.Null(open.CheckAddress(IPAddress.Loopback, "localhost"));
        Assert.Null(open.CheckAddress(IPAddress.Parse("10.0.0.5"), "10.0.0.5"));
        Assert.NotNull(open.CheckAddress(IPAddress.Parse("169.254.169.254"), "169.254.169.254"));

        var development = new TargetPolicy(new TargetOptions(), isDevelopment: true, null);
        Assert.Null(development.CheckAddress(IPAddress.Loopback, "127.0.0.1")); // the built-in targets
        Assert.NotNull(development.CheckAddress(IPAddress.Parse("192.168.0.1"), "192.168.0.1"));
    }

    [Fact]
    public void AnAllowListAdmitsOnlyWhatItNames()
    {
        var listed = new TargetPolicy(new TargetOptions { AllowedHosts = ["api.example.com", "*.contoso.net", "10.20.0.0/16"] }, false, null);

        Assert.Null(listed.CheckHost("api.example.com"));
        Assert.Null(listed.CheckAddress(IPAddress.Parse("93.184.216.34"), "api.example.com"));
        Assert.Null(listed.CheckAddress(IPAddress.Parse("93.184.216.35"), "eu.contoso.net"));
        Assert.Null(listed.CheckAddress(IPAddress.Parse("10.20.3.4"), "internal")); // a listed range opens a private address
        Assert.Contains("not in Targets:AllowedHosts", listed.CheckAddress(IPAddress.Parse("93.184.216.36"), "example.org"));
        Assert.Contains("not in Targets:AllowedHosts", listed.CheckAddress(IPAddress.Parse("10.21.0.1"), "internal"));
        Assert.NotNull(new TargetPolicy(new TargetOptions { AllowedHosts = ["169.254.0.0/16"] }, false, null)
            .CheckAddress(IPAddress.Parse("169.254.169.254"), "x"));
    }

    [Fact]
    public async Task AHostNameIsJudgedByTheAddressesItResolvesTo()
    {
        // "localhost" is a name, not an address: what it resolves to (loopback) is what the policy refuses.
        var refused = await Assert.ThrowsAsync<TargetRefusedException>(() => Production.AllowedAddressesAsync("localhost", default));
        Assert.Contains("loopback", refused.Message);
        Assert.Contains("loopback", await Production.CheckAsync(new Uri("http://localhost:5080/"), default));
    }
}
