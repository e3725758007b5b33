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
}
