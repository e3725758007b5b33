using System.Net.Http.Json;

namespace BenchDashboard.Web.Tests.Security;

/// <summary>A target URL's user-info and query values, header values and bodies: fingerprints for readers, in full for the administrator.</summary>
public class SecretDisplayTests
{
    const string Key = "display-key";

    [Fact]
    public async Task AnonymousReadersSeeFingerprintsEverywhereAndTheAdministratorSeesTheValues()
    {
        await using var app = new DashboardFactory(new() { ["Auth:Required"] = "always", ["Auth:ApiKey"] = Key });
        var admin = app.CreateClient();
        admin.DefaultRequestHeaders.Add("X-Api-Key", Key);
        var body = new
        {
            kind = "http", url = "http://user:pw-secret@127.0.0.1:1/x?apikey=q-secret&page=2", requests = 1, timeoutMs = 500,
            headers = new Dictionary<string, string> { ["Authorization"] = "Bearer h-secret" },
        };
        var first = await DashboardFactory.CreateRunAsync(admin, body);
        var second = await DashboardFactory.CreateRunAsync(admin, body with { url = "http://user:pw-secret@127.0.0.1:1/x?apikey=q-secret-2&page=2" }); // the compare shows the difference
        await DashboardFactory.WaitForEndAsync(admin, second);

        var anonymous = app.CreateClient();
        foreach (var path in new[] { "/", $"/runs/{first}", $"/api/runs/{first}", $"/api/runs/{first}?includeStats=false", "/api/runs", "/compare",
                     $"/compare?items={first},{second}", $"/api/compare?items={first},{second}" })
        {
            var text = System.Net.WebUtility.HtmlDecode(await anonymous.GetStringAsync(path));
            foreach (var secret in new[] { "pw-secret", "q-secret", "h-secret" }) Assert.DoesNotContain(secret, text);
            Assert.True(text.Contains("(hidden, "), $"{path} shows no fingerprint"); // shown as a fingerprint, not dropped
        }

        var full = await admin.GetFromJsonAsync<System.Text.Json.JsonElement>($"/api/runs/{first}");
        Assert.Equal("http://user:pw-secret@127.0.0.1:1/x?apikey=q-secret&page=2", full.GetProperty("parameters").GetProperty("url").GetString());
        Assert.Contains("q-secret", await admin.GetStringAsync($"/runs/{first}"));
    }

    [Fact]
    public async Task SecretsInsideVariantsAndBareQueryPartsAreFingerprintedOnEveryPageReportAndFormat()
    {
        await using var app = new DashboardFactory(new() { ["Auth:Required"] = "always", ["Auth:ApiKey"] = Key });
        var admin = app.CreateClient();
        admin.DefaultRequestHeaders.Add("X-Api-Key", Key);
        object Body(string cookie) => new
        {
            kind = "http", url = "http://127.0.0.1:1/x?BARE-TOP-SECRET", requests = 2, timeoutMs = 500,
            variants = new object[]
            {
                new { name = "a", url = "http://u:pw-var-secret@127.0.0.1:1/a?token=q-var-secret&&BARE-VAR-SECRET", headers = new Dictionary<string, string> { ["Cookie"] = cookie } },
                new { name = "b", method = "POST", body = "body-var-secret" },
            },
        };
        var first = await DashboardFactory.CreateRunAsync(admin, Body("session=cookie-secret-1"));
        var second = await DashboardFactory.CreateRunAsync(admin, Body("session=cookie-secret-2"));
        await DashboardFactory.WaitForEndAsync(admin, first);
        await DashboardFactory.WaitForEndAsync(admin, second);
        var saved = await admin.PostAsJsonAsync("/api/benchmarks", new
        {
            name = "variants with secrets", kind = "http",
            parameters = new { url = "http://127.0.0.1:1/x?BARE-TOP-SECRET", requests = 2, variants = new object[] { new { name = "a", headers = new Dictionary<string, string> { ["Cookie"] = "session=cookie-secret-1" } }, new { name = "b" } } },
        });
        saved.EnsureSuccessStatusCode();
        var benchmark = (await saved.Content.ReadFromJsonAsync<System.Text.Json.JsonElement>()).GetProperty("id").GetInt32();
        string[] secrets = ["BARE-TOP-SECRET", "pw-var-secret", "q-var-secret", "BARE-VAR-SECRET", "cookie-secret", "body-var-secret"];

        var anonymous = app.CreateClient();
        var pages = new[]
        {
            "/api/runs", $"/api/runs/{first}", $"/api/runs/{first}?includeStats=false", $"/api/runs/{first}?format=text", $"/runs/{first}",
            $"/compare?items={first},{second}", $"/api/compare?items={first},{second}", $"/api/compare?items={first},{second}&format=markdown",
            $"/api/compare?items={first},{second}&format=text", $"/api/benchmarks/{benchmark}", "/api/benchmarks",
        };
        foreach (var path in pages)
        {
            var text = System.Net.WebUtility.HtmlDecode(await anonymous.GetStringAsync(path));
            foreach (var secret in secrets) Assert.False(text.Contains(secret), $"{path} shows {secret}");
        }
        // A report is a file to pass on: secrets are fingerprinted in it whoever downloads it.
        foreach (var path in new[] { $"/runs/{first}/report", $"/compare/report?items={first},{second}" })
        {
            var text = System.Net.WebUtility.HtmlDecode(await admin.GetStringAsync(path));
            foreach (var secret in secrets) Assert.False(text.Contains(secret), $"{path} (the administrator's copy) shows {secret}");
        }
        var differs = await anonymous.GetStringAsync($"/api/compare?items={first},{second}&format=markdown");
        Assert.Contains("(hidden, ", differs); // the cookies differ: shown as two fingerprints, not dropped

        var full = await admin.GetFromJsonAsync<System.Text.Json.JsonElement>($"/api/runs/{first}");
        Assert.Equal("session=cookie-secret-1", full.GetProperty("parameters").GetProperty("variants")[0].GetProperty("headers").GetProperty("Cookie").GetString());
    }
}
