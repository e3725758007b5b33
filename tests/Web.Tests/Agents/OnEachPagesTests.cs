using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using BenchDashboard.Web.Tests.Pages;
using Microsoft.AspNetCore.Mvc.Testing;

namespace BenchDashboard.Web.Tests.Agents;

/// <summary>
/// The pages that save benchmarks know a run on each agent: saving such a run keeps its agents (not a load to
/// divide between that many), and editing such a benchmark in the form, which has no field for them, keeps them.
/// </summary>
public sealed class OnEachPagesTests
{
    [Fact]
    public async Task SavingARunOnEachAgentAndEditingItsBenchmarkKeepTheAgentsItRunsOn()
    {
        await using var app = new DashboardFactory(new() { ["Runner:Embedded"] = "false" });
        var client = app.CreateClient(new WebApplicationFactoryClientOptions { AllowAutoRedirect = false });
        var run = await DashboardFactory.CreateRunAsync(client, new { kind = "cache", requests = 50, keyCount = 5, onEach = new[] { "cfg0", "cfg1" }, rounds = 2 });

        var token = FormPost.Token(await client.GetStringAsync($"/runs/{run}"));
        var saved = await client.PostAsync($"/runs/{run}?handler=Save", new FormUrlEncodedContent(new Dictionary<string, string> { ["name"] = "on each", ["__RequestVerificationToken"] = token }));
        Assert.Equal(HttpStatusCode.Redirect, saved.StatusCode);
        var id = int.Parse(saved.Headers.Location!.ToString().Split('/').Last());
        var again = await client.PostAsync($"/runs/{run}?handler=Again", new FormUrlEncodedContent(new Dictionary<string, string> { ["__RequestVerificationToken"] = token }));
        var rerun = await client.GetFromJsonAsync<JsonElement>($"/api/runs/{again.Headers.Location!.ToString()["/runs/".Length..]}?includeStats=false");
        Assert.Equal(["cfg0", "cfg1"], rerun.GetProperty("onEach").GetProperty("agents").EnumerateArray().Select(a => a.GetString()));
        Assert.Equal(2, rerun.GetProperty("agentsAsked").GetInt32());
        var benchmark = await client.GetFromJsonAsync<JsonElement>($"/api/benchmarks/{id}");
        Assert.Equal(["cfg0", "cfg1"], benchmark.GetProperty("onEach").EnumerateArray().Select(a => a.GetString()));
        Assert.Equal(2, benchmark.GetProperty("rounds").GetInt32());
        Assert.Equal(JsonValueKind.Null, benchmark.GetProperty("agents").ValueKind);

        var edit = await client.GetStringAsync($"/benchmarks/edit/{id}");
        // Neither agent is linked, so the editor offers them as typed names, and posts them back as a browser would.
        Assert.Contains("id=\"on-each-typed\" name=\"OnEach\" type=\"text\" value=\"cfg0, cfg1\"", edit);
        List<KeyValuePair<string, string>> fields =
        [
            new("Cache.Backend", "memory"), new("Cache.Mode", "requests"), new("Cache.Requests", "60"), new("Cache.KeyCount", "5"),
            new("Cache.ValueBytes", "32"), new("Cache.Concurrency", "1"), new("Cache.TimeoutMs", "1000"), new("Cache.KeyPrefix", "form"),
            new("Cache.Cleanup", "true"), new("Cache.Phases", ""), new("Cache.Phases", "write"),
            new("OnEach", "cfg0, cfg1"), new("Rounds", "2"), new("Name", "on each"), new("kind", "cache"), new("Enabled", "true"), new("__RequestVerificationToken", FormPost.Token(edit)),
        ];
        var posted = await client.PostAsync($"/benchmarks/edit/{id}", new FormUrlEncodedContent(fields));
        Assert.True(posted.StatusCode == HttpStatusCode.Redirect, await posted.Content.ReadAsStringAsync());
        var edited = await client.GetFromJsonAsync<JsonElement>($"/api/benchmarks/{id}");
        Assert.Equal(60, edited.GetProperty("parameters").GetProperty("requests").GetInt32());
        Assert.Equal(["cfg0", "cfg1"], edited.GetProperty("onEach").EnumerateArray().Select(a => a.GetString()));
        Assert.Equal(2, edited.GetProperty("rounds").GetInt32());
    }
}
