using System.Net.Http.Json;
using System.Net.WebSockets;
using System.Text.Json;
using BenchDashboard.Core.Agents;
using BenchDashboard.Web.Tests.Deployment;
using Microsoft.Playwright;

namespace BenchDashboard.Web.Tests.Browser;

/// <summary>
/// "HTTP from outside", seed 000's way, in chromium: choosing configurations' agents on the HTTP form fills its interleaved
/// variants, one per agent, named after it, at its base URL plus the path typed; an agent without a base URL is named.
/// </summary>
[Collection(PublishedApps.Collection)]
public sealed class FromOutsideBrowserTests(PublishedOutput published)
{
    /// <summary>An agent linked by hand, as a configuration's agent links: its hello with its base URL, then heartbeats for its lease.</summary>
    sealed class FakeAgent : IAsyncDisposable
    {
        readonly ClientWebSocket socket = new();
        readonly CancellationTokenSource end = new();
        Task? loops;

        public static async Task<FakeAgent> LinkAsync(string dashboard, string name, string? baseUrl)
        {
            var agent = new FakeAgent();
            agent.socket.Options.SetRequestHeader(AgentProtocol.NameHeader, name);
            agent.socket.Options.SetRequestHeader("Authorization", $"Bearer {name}-key");
            await agent.socket.ConnectAsync(new Uri(dashboard.Replace("http://", "ws://") + AgentProtocol.Path), CancellationToken.None);
            var link = new FrameLink(agent.socket);
            await link.SendAsync(new AgentFrame { Type = AgentFrameTypes.Hello, Machine = name, Version = AgentProtocol.Version, BaseUrl = baseUrl }, CancellationToken.None);
            agent.loops = Task.WhenAll(
                Task.Run(async () => { while (!agent.end.IsCancellationRequested) { await link.SendAsync(new AgentFrame { Type = AgentFrameTypes.Heartbeat }, agent.end.Token); await Task.Delay(500, agent.end.Token); } }),
                Task.Run(async () => { while (await link.ReceiveAsync(agent.end.Token) is not null) { } }));
            return agent;
        }

        public async ValueTask DisposeAsync()
        {
            await end.CancelAsync();
            socket.Abort();
            if (loops is not null) await loops.ContinueWith(_ => { });
            socket.Dispose();
            end.Dispose();
        }
    }

    [Fact]
    public async Task ChoosingAgentsFillsTheVariantsWithTheirBaseUrlsAndTheRunMeasuresEach()
    {
        await using var dashboard = await BrowserDashboard.StartAsync(published, settings: new()
        {
            ["Agents__Keys__cfg0"] = "cfg0-key", ["Agents__Keys__cfg1"] = "cfg1-key", ["Agents__Keys__cfg2"] = "cfg2-key",
        });
        // Two configurations' sites: the dashboard's own /target/ under two loopback names, as two slots' host names would be.
        var port = new Uri(dashboard.Url).Port;
        await using var cfg0 = await FakeAgent.LinkAsync(dashboard.Url, "cfg0", $"http://127.0.0.1:{port}");
        await using var cfg1 = await FakeAgent.LinkAsync(dashboard.Url, "cfg1", $"http://localhost:{port}/");
        await using var cfg2 = await FakeAgent.LinkAsync(dashboard.Url, "cfg2", null);
        for (var tries = 0; (await dashboard.Api.GetFromJsonAsync<JsonElement>("/api/agents")).EnumerateArray().Count(a => a.GetProperty("machine").ValueKind == JsonValueKind.String) < 3; tries++)
        {
            Assert.True(tries < 100, "the three agents did not link");
            await Task.Delay(50);
        }
        await using var browser = await Browser.StartAsync();
        var page = await browser.OpenAsync($"{dashboard.Url}/runs/new?kind=http");
        Assert.False(await page.Locator("#fill-variants").IsVisibleAsync()); // closed until opened

        await page.ClickAsync("#on-each > summary");
        await page.CheckAsync("#on-each-agents input[value='cfg0']");
        await page.CheckAsync("#on-each-agents input[value='cfg2']");
        await page.FillAsync("#from-outside-path", "/target/delay?ms=1");
        await page.ClickAsync("#fill-variants");
        await Assertions.Expect(page.Locator("#fill-variants-message")).ToContainTextAsync("cfg2 has no base URL: set Runner:PublicUrl");
        Assert.Equal("", await page.InputValueAsync("[name='Http.Variants[0].Name']")); // nothing filled half-way

        await page.UncheckAsync("#on-each-agents input[value='cfg2']");
        await page.CheckAsync("#on-each-agents input[value='cfg1']");
        await page.ClickAsync("#fill-variants");
        // The click's handler reads /api/agents before it fills anything: wait for it, then every field is filled at once.
        await Assertions.Expect(page.Locator("[name='Http.FirstVariantName']")).ToHaveValueAsync("cfg0");
        Assert.Equal($"http://127.0.0.1:{port}/target/delay?ms=1", await page.InputValueAsync("[name='Http.Url']"));
        Assert.Equal("cfg1", await page.InputValueAsync("[name='Http.Variants[0].Name']"));
        Assert.Equal($"http://localhost:{port}/target/delay?ms=1", await page.InputValueAsync("[name='Http.Variants[0].Url']"));
        Assert.True(await page.Locator("[name='Http.Variants[0].Url']").IsVisibleAsync());
        Assert.Equal("", await page.InputValueAsync("[name='Http.Variants[1].Name']"));
        Assert.Equal(0, await page.Locator("#on-each-agents input:checked").CountAsync()); // the run is this dashboard's now
        await Browser.ScreenshotAsync(page, "form-http-from-outside");

        // Queued as it stands: one run whose variants are the two configurations' sites.
        await page.FillAsync("input[name='Http.Requests']", "20");
        await page.ClickAsync("button[type='submit']");
        await page.WaitForURLAsync(new System.Text.RegularExpressions.Regex("/runs/\\d+$"));
        var id = long.Parse(page.Url[(page.Url.LastIndexOf('/') + 1)..]);
        var run = await dashboard.UntilEndedAsync(id);
        Assert.Equal("completed", run.GetProperty("status").GetString());
        var full = await dashboard.Api.GetFromJsonAsync<JsonElement>($"/api/runs/{id}");
        Assert.Equal(["cfg0", "cfg1"], full.GetProperty("series").EnumerateArray().Select(s => s.GetProperty("name").GetString()).Order());
        Assert.Empty(browser.Errors);
    }
}
