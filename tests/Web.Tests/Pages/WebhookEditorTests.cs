using System.Net;
using System.Text.RegularExpressions;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Stores;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.Extensions.DependencyInjection;

namespace BenchDashboard.Web.Tests.Pages;

/// <summary>The benchmark editor's webhook field: stored one URL a line, shown again, refused beside the field.</summary>
public class WebhookEditorTests
{
    static readonly WebApplicationFactoryClientOptions NoRedirects = new() { AllowAutoRedirect = false };

    static Dictionary<string, string> Fields(string name, string webhooks) => new()
    {
        ["Name"] = name, ["Enabled"] = "true", ["Http.Url"] = "http://127.0.0.1:1/", ["Http.Method"] = "GET", ["Http.Mode"] = "requests",
        ["Http.Requests"] = "5", ["Http.Concurrency"] = "1", ["Http.TimeoutMs"] = "1000", ["Http.WarmupRequests"] = "0", ["WebhookUrls"] = webhooks,
    };

    [Fact]
    public async Task WebhookUrlsAreStoredOneALineAndShownAgainInTheEditor()
    {
        await using var app = new DashboardFactory(new() { ["Webhooks:SigningKey"] = "a-signing-key-for-the-editor-test" });
        var client = app.CreateClient(NoRedirects);

        var saved = await FormPost.SubmitAsync(client, "/benchmarks/edit", Fields("hooked", "http://127.0.0.1:9/a\r\n\r\n  http://127.0.0.1:9/b  \r\n"));

        Assert.Equal(HttpStatusCode.Redirect, saved.StatusCode);
        await using var scope = app.Services.CreateAsyncScope();
        var benchmark = (await scope.ServiceProvider.GetRequiredService<BenchmarkStore>().ListAsync(default)).Single();
        Assert.Equal(["http://127.0.0.1:9/a", "http://127.0.0.1:9/b"], benchmark.WebhookUrls);
        var editor = WebUtility.HtmlDecode(await client.GetStringAsync($"/benchmarks/edit/{benchmark.Id}"));
        Assert.Matches(new Regex(@"<textarea[^>]*name=""WebhookUrls""[^>]*>\s*http://127\.0\.0\.1:9/a\nhttp://127\.0\.0\.1:9/b</textarea>"), editor);
        Assert.DoesNotContain("webhook-key-missing", editor);
    }

    [Fact]
    public async Task AMetadataAddressIsRefusedBesideTheFieldAndNothingIsStored()
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient(NoRedirects);

        var response = await FormPost.SubmitAsync(client, "/benchmarks/edit", Fields("metadata", "http://169.254.169.254/latest/meta-data/"));

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        var page = WebUtility.HtmlDecode(await response.Content.ReadAsStringAsync());
        Assert.Contains("169.254.169.254 is a link-local or cloud metadata address", page);
        Assert.Contains("webhook-key-missing", page); // no key on this dashboard: the editor says nothing would be sent
        Assert.DoesNotContain("/benchmarks/edit/", await client.GetStringAsync("/benchmarks"));
    }
}
