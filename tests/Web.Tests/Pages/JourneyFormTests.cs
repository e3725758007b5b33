using System.Net;
using System.Net.Http.Json;
using System.Text;
using System.Text.Json;
using System.Text.RegularExpressions;
using Microsoft.AspNetCore.Mvc.Testing;

namespace BenchDashboard.Web.Tests.Pages;

/// <summary>The forms have no steps editor yet: a stored journey's steps are shown read-only and survive an edit of its load.</summary>
public sealed partial class JourneyFormTests
{
    [GeneratedRegex("name=\"Http.StepsJson\" value=\"([^\"]*)\"")]
    private static partial Regex StepsField();

    [Fact]
    public async Task EditingAJourneyBenchmarksLoadInTheFormKeepsItsSteps()
    {
        await using var app = new DashboardFactory(new() { ["Runner:Embedded"] = "false" });
        var client = app.CreateClient(new WebApplicationFactoryClientOptions { AllowAutoRedirect = false });
        const string definition = """
            {"name":"journey","kind":"http","parameters":{"requests":5,"steps":[
              {"name":"login","method":"POST","url":"http://127.0.0.1:1/signin","body":"{\"u\":1}","extract":[{"name":"token","json":"$.token"}],"checks":[{"status":200}]},
              {"name":"orders","url":"http://127.0.0.1:1/orders","headers":{"Authorization":"Bearer {{token}}"},"thinkTime":{"meanMs":50}}]}}
            """;
        var created = await client.PostAsync("/api/benchmarks", new StringContent(definition, Encoding.UTF8, "application/json"));
        Assert.True(created.StatusCode == HttpStatusCode.Created, await created.Content.ReadAsStringAsync());
        var id = (await created.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("id").GetInt32();
        var before = (await client.GetFromJsonAsync<JsonElement>($"/api/benchmarks/{id}")).GetProperty("parameters").GetProperty("steps").GetRawText();

        var edit = await client.GetStringAsync($"/benchmarks/edit/{id}");
        Assert.Contains("id=\"journey-steps\"", edit);
        var steps = WebUtility.HtmlDecode(StepsField().Match(edit).Groups[1].Value);
        Assert.Contains("\"login\"", steps);
        List<KeyValuePair<string, string>> fields =
        [
            new("Http.Url", ""), new("Http.Method", "GET"), new("Http.StepsJson", steps), new("Http.Mode", "requests"), new("Http.Requests", "9"),
            new("Http.Concurrency", "1"), new("Http.TimeoutMs", "10000"), new("Http.Model", "closed"), new("Http.KeepAlive", "true"),
            new("Name", "journey"), new("kind", "http"), new("Enabled", "true"), new("__RequestVerificationToken", FormPost.Token(edit)),
        ];
        var posted = await client.PostAsync($"/benchmarks/edit/{id}", new FormUrlEncodedContent(fields));
        Assert.True(posted.StatusCode == HttpStatusCode.Redirect, await posted.Content.ReadAsStringAsync());

        var edited = (await client.GetFromJsonAsync<JsonElement>($"/api/benchmarks/{id}")).GetProperty("parameters");
        Assert.Equal(9, edited.GetProperty("requests").GetInt32());
        Assert.Equal(before, edited.GetProperty("steps").GetRawText());
    }
}
