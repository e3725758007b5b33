using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using System.Text.RegularExpressions;
using Microsoft.AspNetCore.Mvc.Testing;

namespace BenchDashboard.Web.Tests.Pages;

/// <summary>A benchmark can be deleted from the list and the editor: an administrator only, after a confirmation; its runs stay.</summary>
public class BenchmarkDeleteTests
{
    const string Key = "delete-test-key";
    static readonly WebApplicationFactoryClientOptions NoRedirects = new() { AllowAutoRedirect = false };

    static async Task<int> SaveAsync(HttpClient client, string name, string? key = null)
    {
        var request = new HttpRequestMessage(HttpMethod.Post, "/api/benchmarks")
        {
            Content = JsonContent.Create(new { name, kind = "cache", parameters = new { requests = 5, keyCount = 5 } }),
        };
        if (key is not null) request.Headers.Add("X-Api-Key", key);
        var created = await client.SendAsync(request);
        Assert.Equal(HttpStatusCode.Created, created.StatusCode);
        return (await created.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("id").GetInt32();
    }

    /// <summary>Posts the delete form as the page renders it, with the page's anti-forgery token.</summary>
    static async Task<HttpResponseMessage> DeleteAsync(HttpClient client, string page, int id, bool confirm)
    {
        var html = await client.GetStringAsync(page);
        var fields = new Dictionary<string, string> { ["__RequestVerificationToken"] = FormPost.Token(html) };
        if (confirm) fields["confirm"] = "true";
        return await client.PostAsync($"/benchmarks?handler=Delete&id={id}", new FormUrlEncodedContent(fields));
    }

    [Fact]
    public async Task AnAdministratorDeletesABenchmarkFromTheListAfterConfirmingAndItsRunsStay()
    {
        await using var app = new DashboardFactory(); // Development on loopback: whoever reads is the administrator
        var client = app.CreateClient(NoRedirects);
        var id = await SaveAsync(client, "to go");
        var run = await client.PostAsync($"/api/benchmarks/{id}/runs", null);
        var runId = (await run.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("id").GetInt64();
        await DashboardFactory.WaitForEndAsync(client, runId);

        var list = WebUtility.HtmlDecode(await client.GetStringAsync("/benchmarks"));
        Assert.Matches($"data-confirm=\"Delete the benchmark 'to go'\\? Its runs are kept.\" action=\"/benchmarks\\?id={id}&handler=Delete\"", list);

        var unconfirmed = await DeleteAsync(client, "/benchmarks", id, confirm: false);
        Assert.Equal(HttpStatusCode.BadRequest, unconfirmed.StatusCode);
        Assert.Contains("tick the box", await unconfirmed.Content.ReadAsStringAsync());
        Assert.Equal(HttpStatusCode.OK, (await client.GetAsync($"/api/benchmarks/{id}")).StatusCode);

        var deleted = await DeleteAsync(client, "/benchmarks", id, confirm: true);
        Assert.Equal(HttpStatusCode.Redirect, deleted.StatusCode);
        Assert.Contains("Deleted 'to go'; its runs are kept", WebUtility.HtmlDecode(await client.GetStringAsync(deleted.Headers.Location!.OriginalString)));
        Assert.Equal(HttpStatusCode.NotFound, (await client.GetAsync($"/api/benchmarks/{id}")).StatusCode);
        var kept = await client.GetFromJsonAsync<JsonElement>($"/api/runs/{runId}?includeStats=false");
        Assert.Equal("to go", kept.GetProperty("benchmarkName").GetString());
    }

    [Fact]
    public async Task TheEditorOffersDeleteForASavedBenchmark()
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient(NoRedirects);
        var id = await SaveAsync(client, "edited");

        Assert.DoesNotContain("handler=Delete", await client.GetStringAsync("/benchmarks/edit?kind=cache")); // nothing to delete yet
        Assert.Contains($"handler=Delete", await client.GetStringAsync($"/benchmarks/edit/{id}"));

        var deleted = await DeleteAsync(client, $"/benchmarks/edit/{id}", id, confirm: true);
        Assert.Equal(HttpStatusCode.Redirect, deleted.StatusCode);
        Assert.Equal(HttpStatusCode.NotFound, (await client.GetAsync($"/api/benchmarks/{id}")).StatusCode);
    }

    [Fact]
    public async Task WithoutAnAdministratorNoDeleteIsOfferedAndAPostedOneDeletesNothing()
    {
        await using var app = new DashboardFactory(new() { ["Auth:Required"] = "always", ["Auth:ApiKey"] = Key, ["Auth:AdminPassword"] = "pw", ["Auth:PublicRead"] = "true" });
        var client = app.CreateClient(NoRedirects);
        var id = await SaveAsync(client, "guarded", Key);

        var list = await client.GetStringAsync("/benchmarks");
        Assert.Contains("guarded", list);
        Assert.DoesNotContain("handler=Delete", list);

        var refused = await DeleteAsync(client, "/benchmarks", id, confirm: true);
        Assert.Equal(HttpStatusCode.Redirect, refused.StatusCode);
        Assert.StartsWith("/login", refused.Headers.Location!.OriginalString);
        Assert.Equal(HttpStatusCode.OK, (await client.GetAsync($"/api/benchmarks/{id}")).StatusCode);
    }
}
