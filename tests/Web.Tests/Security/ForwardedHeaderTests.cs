using System.Net;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Mvc.Testing;

namespace BenchDashboard.Web.Tests.Security;

/// <summary>
/// X-Forwarded-Proto and X-Forwarded-For count only from a proxy in Proxies:*, whether the dashboard reads them
/// or the framework does (ASPNETCORE_FORWARDEDHEADERS_ENABLED=true, as App Service for Linux sets it).
/// </summary>
public sealed class ForwardedHeaderTests
{
    const string ApiKey = "the-real-key";
    const int Guesses = 3;
    const string Proxy = "10.1.2.3";

    static DashboardFactory Dashboard(string frameworkForwarding, string? proxy)
    {
        Dictionary<string, string?> settings = new()
        {
            ["environment"] = "Production", ["Runner:Embedded"] = "false", ["Agents:Keys:alpha"] = "alpha-key",
            ["Auth:ApiKey"] = ApiKey, ["Auth:GuessesPerMinute"] = Guesses.ToString(),
            ["FORWARDEDHEADERS_ENABLED"] = frameworkForwarding, ["Proxies:AppServiceFrontEnd"] = "false",
        };
        if (proxy is not null) settings["Proxies:KnownProxies:0"] = proxy;
        return new(settings);
    }

    /// <summary>Opens the agents' link as a plain ws:// request from <paramref name="peer"/> that claims https.</summary>
    static async Task<string> ConnectAgentAsync(WebApplicationFactory<Program> app, string peer)
    {
        var ws = app.Server.CreateWebSocketClient();
        ws.ConfigureRequest = request =>
        {
            request.HttpContext.Connection.RemoteIpAddress = IPAddress.Parse(peer);
            request.Headers[Core.Agents.AgentProtocol.NameHeader] = "alpha";
            request.Headers.Authorization = "Bearer alpha-key";
            request.Headers["X-Forwarded-Proto"] = "https";
            request.Headers["X-Forwarded-For"] = "198.51.100.7";
        };
        try
        {
            using var socket = await ws.ConnectAsync(new Uri("ws://localhost" + Core.Agents.AgentProtocol.Path), CancellationToken.None);
            return "linked";
        }
        catch (InvalidOperationException ex)
        {
            return ex.Message;
        }
    }

    /// <summary>
    /// Wrong API keys from <paramref name="peer"/>, each naming another client in X-Forwarded-For: the statuses.
    /// Believed, each is a client of its own and none reaches the guess limit.
    /// </summary>
    static async Task<List<int>> GuessFromManyClaimedAddressesAsync(WebApplicationFactory<Program> app, string peer)
    {
        var statuses = new List<int>();
        for (var i = 0; i < Guesses + 2; i++)
        {
            var context = await app.Server.SendAsync(c =>
            {
                c.Connection.RemoteIpAddress = IPAddress.Parse(peer);
                c.Request.Method = HttpMethods.Post;
                c.Request.Scheme = "http";
                c.Request.Host = new HostString("localhost");
                c.Request.Path = "/api/runs/1/cancel";
                c.Request.Headers["X-Api-Key"] = $"guess-{i}";
                c.Request.Headers["X-Forwarded-For"] = $"198.51.100.{i + 1}";
            });
            statuses.Add(context.Response.StatusCode);
        }
        return statuses;
    }

    [Theory]
    [InlineData("true")]  // the framework's own middleware, in front of everything
    [InlineData("false")]
    public async Task WithNoProxyConfiguredNoPeersForwardedHeadersCount(string frameworkForwarding)
    {
        await using var app = Dashboard(frameworkForwarding, proxy: null);
        _ = app.CreateClient();

        Assert.Contains("403", await ConnectAgentAsync(app, "203.0.113.9")); // a client's own "https" is not believed
        Assert.Contains("403", await ConnectAgentAsync(app, "127.0.0.1"));   // not even loopback's
        var statuses = await GuessFromManyClaimedAddressesAsync(app, "203.0.113.9");
        Assert.Equal(Enumerable.Repeat(401, Guesses), statuses.Take(Guesses)); // one client, one budget
        Assert.All(statuses.Skip(Guesses), s => Assert.Equal(429, s));
    }

    [Theory]
    [InlineData("true")]
    [InlineData("false")]
    public async Task AClientsOwnForwardedHeadersAreIgnoredAndOnlyAConfiguredProxysCount(string frameworkForwarding)
    {
        await using var app = Dashboard(frameworkForwarding, Proxy);
        _ = app.CreateClient();

        Assert.Contains("403", await ConnectAgentAsync(app, "203.0.113.9")); // anyone: its header is ignored
        Assert.Contains("403", await ConnectAgentAsync(app, "127.0.0.1"));   // not even loopback, unless configured
        Assert.Equal("linked", await ConnectAgentAsync(app, Proxy));         // the configured proxy says it was HTTPS

        var fromClient = await GuessFromManyClaimedAddressesAsync(app, "203.0.113.9");
        Assert.All(fromClient.Skip(Guesses), s => Assert.Equal(429, s));
        // Through the proxy, each reported client has a budget of its own: one wrong key each, none limited.
        Assert.All(await GuessFromManyClaimedAddressesAsync(app, Proxy), s => Assert.Equal(401, s));
    }
}
