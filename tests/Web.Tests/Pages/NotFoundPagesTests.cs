using System.Net;
using System.Net.Http.Json;
using System.Text.Json;

namespace BenchDashboard.Web.Tests.Pages;

/// <summary>Every page route that finds nothing answers with one page in the layout; the API keeps its problem documents.</summary>
public sealed class NotFoundPagesTests
{
    static async Task<HttpResponseMessage> BrowseAsync(HttpClient client, string path)
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, path);
        request.Headers.Accept.ParseAdd("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8");
        return await client.SendAsync(request);
    }

    [Theory]
    [InlineData("/runs/99999")] // a page whose handler finds no run
    [InlineData("/runs/abc")] // no route matches at all
    [InlineData("/benchmarks/999/trend")]
    [InlineData("/benchmarks/edit/999")]
    [InlineData("/no/such/page")]
    public async Task APageThatFindsNothingIsTheNotFoundPageInTheLayoutWithItsStatus(string path)
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient();

        var response = await BrowseAsync(client, path);

        Assert.Equal(HttpStatusCode.NotFound, response.StatusCode);
        Assert.Equal("text/html", response.Content.Headers.ContentType?.MediaType);
        var html = WebUtility.HtmlDecode(await response.Content.ReadAsStringAsync());
        Assert.Contains("<h1 id=\"status-page\">Not found</h1>", html);
        Assert.Contains($"<code>{path}</code>", html); // the address asked for, not /status/404
        Assert.Contains("class=\"brand\"", html); // the layout's bar, with its way back
        Assert.DoesNotContain("\"status\":404", html);
    }

    [Fact]
    public async Task TheApiAndTheTargetsKeepTheirOwnAnswers()
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient();

        var api = await BrowseAsync(client, "/api/runs/99999");
        Assert.Equal(HttpStatusCode.NotFound, api.StatusCode);
        Assert.Equal("application/problem+json", api.Content.Headers.ContentType?.MediaType);
        Assert.Equal(404, (await api.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("status").GetInt32());

        var unknownApi = await BrowseAsync(client, "/api/nothing-here");
        Assert.Equal(HttpStatusCode.NotFound, unknownApi.StatusCode);
        Assert.DoesNotContain("status-page", await unknownApi.Content.ReadAsStringAsync());

        // A target's status is what a benchmark measures: never dressed up as a page.
        var target = await BrowseAsync(client, "/target/status?code=404");
        Assert.Equal(HttpStatusCode.NotFound, target.StatusCode);
        Assert.DoesNotContain("status-page", await target.Content.ReadAsStringAsync());

        var script = await BrowseAsync(client, "/js/no-such-script.js");
        Assert.Equal(HttpStatusCode.NotFound, script.StatusCode);
        Assert.DoesNotContain("status-page", await script.Content.ReadAsStringAsync());
    }

    [Fact]
    public async Task TheStatusPageAskedForDirectlyStillAnswersWithItsStatus()
    {
        await using var app = new DashboardFactory();
        var response = await BrowseAsync(app.CreateClient(), "/status/404");
        Assert.Equal(HttpStatusCode.NotFound, response.StatusCode);
        Assert.Contains("Not found", await response.Content.ReadAsStringAsync());
    }
}
