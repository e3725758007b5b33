using BenchDashboard.Core.Agents;

namespace BenchDashboard.Core.Tests.Agents;

/// <summary>An agent's own public address: the option, else App Service's host name; and the hello frame that carries it.</summary>
public class AgentBaseUrlTests
{
    [Theory]
    [InlineData("https://cfg1.example.net/", "bench-cfg1.azurewebsites.net", "https://cfg1.example.net")] // the option wins
    [InlineData(null, "bench-cfg1.azurewebsites.net", "https://bench-cfg1.azurewebsites.net")] // App Service: its own host name
    [InlineData("  ", "bench-cfg1.azurewebsites.net", "https://bench-cfg1.azurewebsites.net")]
    [InlineData("http://127.0.0.1:5071/app/", null, "http://127.0.0.1:5071/app")]
    [InlineData(null, null, null)] // neither: no base address, never a guess
    [InlineData("ftp://cfg1.example.net", null, null)]
    [InlineData("cfg1.example.net", null, null)] // not absolute
    [InlineData("https://cfg1.example.net/?sv=2024&sig=abc", null, null)] // a query may carry a secret
    [InlineData("https://user:pass@cfg1.example.net", null, null)]
    public void TheOptionElseTheAppServiceHostNameAndOnlyAnHttpAddress(string? publicUrl, string? websiteHostname, string? expected) =>
        Assert.Equal(expected, AgentBaseUrl.Resolve(publicUrl, websiteHostname));

    [Fact]
    public void TheHelloFrameCarriesTheBaseUrlThroughItsJson()
    {
        var hello = new AgentFrame { Type = AgentFrameTypes.Hello, Machine = "m", Version = AgentProtocol.Version, BaseUrl = "https://bench-cfg1.azurewebsites.net" };

        var json = Json.Serialize(hello);
        var read = Json.Deserialize<AgentFrame>(json);

        Assert.Contains("\"baseUrl\":\"https://bench-cfg1.azurewebsites.net\"", json);
        Assert.Equal(hello, read);
    }
}
