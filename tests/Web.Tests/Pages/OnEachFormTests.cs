using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using System.Text.RegularExpressions;
using BenchDashboard.Core.Agents;
using Microsoft.AspNetCore.Mvc.Testing;

namespace BenchDashboard.Web.Tests.Pages;

/// <summary>The "On each agent" choice of the new-run form and the benchmark editor: linked agents to check, names to type, rounds.</summary>
public class OnEachFormTests
{
    static readonly WebApplicationFactoryClientOptions NoRedirects = new() { AllowAutoRedirect = false };

    static DashboardFactory Dashboard() => new(new() { ["Runner:Process"] = "None", ["Agents:Keys:cfg0"] = "cfg0-key" });

    static List<KeyValuePair<string, string>> HttpFields(string html) =>
    [
        new("kind", "http"), new("Http.Url", "http://127.0.0.1:1/"), new("Http.Method", "GET"), new("Http.Mode", "requests"),
        new("Http.Requests", "5"), new("Http.Concurrency", "1"), new("Http.TimeoutMs", "1000"), new("Http.WarmupRequests", "0"),
        new("__RequestVerificationToken", FormPost.Token(html)),
    ];

    /// <summary>Links an agent named cfg0 that says its base address in its hello, as a configuration's agent would.</summary>
    static async Task<FrameLink> LinkAsync(DashboardFactory app, HttpClient client)
    {
        var ws = app.Server.CreateWebSocketClient();
        ws.ConfigureRequest = request => { request.Headers[AgentProtocol.NameHeader] = "cfg0"; request.Headers.Authorization = "Bearer cfg0-key"; };
        var link = new FrameLink(await ws.ConnectAsync(new Uri("ws://localhost" + AgentProtocol.Path), CancellationToken.None));
        await link.SendAsync(new AgentFrame { Type = AgentFrameTypes.Hello, Machine = "slot", Version = AgentProtocol.Version, BaseUrl = "https://bench-cfg0.azurewebsites.net" }, CancellationToken.None);
        for (var tries = 0; tries < 100; tries++)
        {
            var agents = await client.GetFromJsonAsync<JsonElement>("/api/agents");
            if (agents.EnumerateArray().Any(a => a.GetProperty("baseUrl").GetString() is not null)) return link;
            await Task.Delay(50);
        }
        throw new TimeoutException("cfg0's hello was not taken");
    }

    [Fact]
    public async Task TheNewRunFormOffersTheLinkedAgentsAndQueuesARunOnEachCheckedAndTypedOneInOrder()
    {
        await using var app = Dashboard();
        var client = app.CreateClient(NoRedirects);
        var plain = await client.GetStringAsync("/runs/new?kind=http");
        Assert.Matches("<details class=\"field\" id=\"on-each\">", plain); // closed: the simple form stays simple
        Assert.Contains("id=\"on-each-none\"", plain);

        await LinkAsync(app, client);
        var html = WebUtility.HtmlDecode(await client.GetStringAsync("/runs/new?kind=http"));
        Assert.Matches("<input type=\"checkbox\" name=\"OnEach\" value=\"cfg0\" data-base-url=\"https://bench-cfg0.azurewebsites.net\" />", html);

        var posted = await client.PostAsync("/runs/new", new FormUrlEncodedContent(
            [.. HttpFields(html), new("OnEach", "cfg0"), new("OnEach", "cfg1, cfg2"), new("Rounds", "2")]));

        Assert.Equal(HttpStatusCode.Redirect, posted.StatusCode);
        var id = Regex.Match(posted.Headers.Location!.ToString(), "/runs/(\\d+)").Groups[1].Value;
        var run = await client.GetFromJsonAsync<JsonElement>($"/api/runs/{id}");
        Assert.Equal(["cfg0", "cfg1", "cfg2"], run.GetProperty("onEach").GetProperty("agents").EnumerateArray().Select(a => a.GetString()));
        Assert.Equal(2, run.GetProperty("onEach").GetProperty("rounds").GetInt32());
    }

    [Theory]
    [InlineData("cfg0", "", "onEach names 2 to 8 agents (it names 1).")]
    [InlineData("cfg0", "cfg0", "onEach[1]: &#x27;cfg0&#x27; is named twice")]
    [InlineData("cfg0", "cfg1", "Give agents (one load divided between that many agents) or onEach", "2")]
    [InlineData("cfg0", "bad/name", "onEach[1]: An agent&#x27;s name is 1 to 64 letters")]
    public async Task ABadChoiceIsShownBesideTheFieldAndNothingIsQueued(string checkedName, string typed, string message, string? agents = null)
    {
        await using var app = Dashboard();
        var client = app.CreateClient(NoRedirects);
        var html = await client.GetStringAsync("/runs/new?kind=http");
        List<KeyValuePair<string, string>> fields = [.. HttpFields(html), new("OnEach", checkedName), new("OnEach", typed), new("Rounds", "3")];
        if (agents is not null) fields.Add(new("Agents", agents));

        var posted = await client.PostAsync("/runs/new", new FormUrlEncodedContent(fields));

        var page = await posted.Content.ReadAsStringAsync();
        Assert.NotEqual(HttpStatusCode.Redirect, posted.StatusCode);
        Assert.Matches($"data-valmsg-for=\"OnEach\"[^>]*>[^<]*{Regex.Escape(message)}", page);
        Assert.Contains("<details class=\"field\" id=\"on-each\" open=\"open\">", page); // open, with what was posted
        Assert.Equal(0, (await client.GetFromJsonAsync<JsonElement>("/api/runs")).GetArrayLength()); // nothing was queued
    }

    [Fact]
    public async Task RoundsOutOfRangeAreRefusedBesideTheirField()
    {
        await using var app = Dashboard();
        var client = app.CreateClient(NoRedirects);
        var html = await client.GetStringAsync("/runs/new?kind=http");

        var posted = await client.PostAsync("/runs/new", new FormUrlEncodedContent([.. HttpFields(html), new("OnEach", "cfg0, cfg1"), new("Rounds", "21")]));

        Assert.NotEqual(HttpStatusCode.Redirect, posted.StatusCode);
        Assert.Matches("data-valmsg-for=\"Rounds\"[^>]*>rounds is a whole number from 1 to 20", await posted.Content.ReadAsStringAsync());
    }

    [Fact]
    public async Task TheEditorSavesTheChoiceAndShowsItAgainAgentsNotLinkedAsTypedNames()
    {
        await using var app = Dashboard();
        var client = app.CreateClient(NoRedirects);
        var editor = await client.GetStringAsync("/benchmarks/edit?kind=http");

        var saved = await client.PostAsync("/benchmarks/edit", new FormUrlEncodedContent(
            [.. HttpFields(editor), new("Name", "seed 000 on each"), new("Enabled", "true"), new("OnEach", "cfg2, cfg0,cfg1"), new("Rounds", "5")]));

        Assert.Equal(HttpStatusCode.Redirect, saved.StatusCode);
        var benchmark = (await client.GetFromJsonAsync<JsonElement>("/api/benchmarks")).EnumerateArray().Single(b => b.GetProperty("name").GetString() == "seed 000 on each");
        Assert.Equal(["cfg2", "cfg0", "cfg1"], benchmark.GetProperty("onEach").EnumerateArray().Select(a => a.GetString()));
        Assert.Equal(5, benchmark.GetProperty("rounds").GetInt32());
        var again = WebUtility.HtmlDecode(await client.GetStringAsync($"/benchmarks/edit/{benchmark.GetProperty("id").GetInt32()}"));
        Assert.Contains("<details class=\"field\" id=\"on-each\" open=\"open\">", again);
        Assert.Contains("<input id=\"on-each-typed\" name=\"OnEach\" type=\"text\" value=\"cfg2, cfg0, cfg1\" />", again);
        Assert.Contains("id=\"Rounds\" name=\"Rounds\" type=\"number\" min=\"1\" max=\"20\" step=\"1\" value=\"5\"", again);
    }
}
