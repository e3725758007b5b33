using System.Net;
using System.Net.Http.Json;
using System.Text.Json;

namespace BenchDashboard.Web.Tests.Api;

/// <summary>A saved benchmark's webhook URLs through the API: stored, checked like targets, hidden from readers, carried by definition files.</summary>
public class BenchmarkWebhooksApiTests
{
    const string Key = "webhooks-key";
    const string Hook = "http://127.0.0.1:9/hooks/bench?token=w-secret";

    static DashboardFactory Dashboard() => new(new() { ["Auth:Required"] = "always", ["Auth:ApiKey"] = Key, ["Runner:Embedded"] = "false" });

    static HttpClient Admin(DashboardFactory app)
    {
        var client = app.CreateClient();
        client.DefaultRequestHeaders.Add("X-Api-Key", Key);
        return client;
    }

    static object Definition(string name, params string[] webhooks) => new
    {
        name, kind = "http", parameters = new { url = "http://127.0.0.1:1/x", requests = 5 }, webhooks,
    };

    [Fact]
    public async Task WebhooksAreStoredShownInFullOnlyToTheAdministratorAndReplacedWithTheDefinition()
    {
        await using var app = Dashboard();
        var admin = Admin(app);
        var created = await admin.PostAsJsonAsync("/api/benchmarks", Definition("hooked", Hook));
        Assert.Equal(HttpStatusCode.Created, created.StatusCode);
        var id = (await created.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("id").GetInt32();
        var tag = created.Headers.ETag!.Tag;

        var full = await admin.GetFromJsonAsync<JsonElement>($"/api/benchmarks/{id}");
        Assert.Equal([Hook], full.GetProperty("webhooks").EnumerateArray().Select(u => u.GetString()));
        Assert.Contains("w-secret", await admin.GetStringAsync("/api/benchmarks/export"));
        foreach (var path in new[] { "/api/benchmarks", $"/api/benchmarks/{id}" })
        {
            var text = await app.CreateClient().GetStringAsync(path);
            Assert.DoesNotContain("w-secret", text);
            Assert.Contains("http://127.0.0.1:9/…", text);
        }

        // A replace leaves out what it does not give: no webhooks, and the entity tag changes with them.
        var replaced = await admin.PutAsJsonAsync($"/api/benchmarks/{id}", new { name = "hooked", kind = "http", parameters = new { url = "http://127.0.0.1:1/x", requests = 5 } });
        Assert.Equal(HttpStatusCode.OK, replaced.StatusCode);
        Assert.Empty((await replaced.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("webhooks").EnumerateArray());
        Assert.NotEqual(tag, replaced.Headers.ETag!.Tag);
    }

    [Theory]
    [InlineData("http://169.254.169.254/latest/meta-data/", "metadata")]
    [InlineData("ftp://127.0.0.1/hook", "http")]
    [InlineData("http://user:pass@127.0.0.1/hook", "user name or password")]
    public async Task AWebhookTheTargetPolicyRefusesIsA400OnWebhooksAndNothingIsStored(string url, string says)
    {
        await using var app = Dashboard();
        var admin = Admin(app);
        var response = await admin.PostAsJsonAsync("/api/benchmarks", Definition("refused", url));
        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        var errors = (await response.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("errors");
        Assert.Contains(says, errors.GetProperty("webhooks")[0].GetString());
        Assert.Empty(await admin.GetFromJsonAsync<JsonElement[]>("/api/benchmarks") ?? []);

        var notAList = await admin.PostAsync("/api/benchmarks", JsonContent.Create(new { name = "x", kind = "http", parameters = new { url = "http://127.0.0.1:1/x", requests = 5 }, webhooks = Hook }));
        Assert.Equal(HttpStatusCode.BadRequest, notAList.StatusCode);
        Assert.True((await notAList.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("errors").TryGetProperty("webhooks", out _));
    }

    [Fact]
    public async Task AnImportCarriesWebhooksAndAChangedWebhookIsAnUpdate()
    {
        await using var source = Dashboard();
        var admin = Admin(source);
        Assert.Equal(HttpStatusCode.Created, (await admin.PostAsJsonAsync("/api/benchmarks", Definition("hooked", Hook))).StatusCode);
        var file = await admin.GetStringAsync("/api/benchmarks/export");

        await using var target = Dashboard();
        var into = Admin(target);
        var first = await (await into.PostAsync("/api/benchmarks/import", new StringContent(file, System.Text.Encoding.UTF8, "application/json"))).Content.ReadFromJsonAsync<JsonElement>();
        Assert.Equal(["hooked"], first.GetProperty("created").EnumerateArray().Select(n => n.GetString()));
        Assert.Equal(file, await into.GetStringAsync("/api/benchmarks/export"));

        var again = await (await into.PostAsync("/api/benchmarks/import", new StringContent(file, System.Text.Encoding.UTF8, "application/json"))).Content.ReadFromJsonAsync<JsonElement>();
        Assert.Equal(["hooked"], again.GetProperty("unchanged").EnumerateArray().Select(n => n.GetString()));

        var changed = file.Replace("w-secret", "w-other");
        var third = await (await into.PostAsync("/api/benchmarks/import?dryRun=true", new StringContent(changed, System.Text.Encoding.UTF8, "application/json"))).Content.ReadFromJsonAsync<JsonElement>();
        Assert.Equal(["hooked"], third.GetProperty("updated").EnumerateArray().Select(n => n.GetString()));
    }
}
