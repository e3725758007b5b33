using System.Net;
using System.Net.Http.Json;
using System.Text;
using System.Text.Json;
using BenchDashboard.TestSupport;

namespace BenchDashboard.Web.Tests.Api;

/// <summary>
/// Token steps through the API: refused at their field, never a 500; and a run with one, end to end through the
/// dashboard against the target's stand-in identity endpoint, keeps no token anywhere it stores or shows.
/// </summary>
public sealed class JourneyTokenApiTests
{
    const string Key = "token-key";

    static HttpClient Client(DashboardFactory app)
    {
        var client = app.CreateClient();
        client.DefaultRequestHeaders.Add("X-Api-Key", Key);
        return client;
    }

    const string Orders = """{"name":"orders","url":"http://127.0.0.1:1/orders","headers":{"Authorization":"Bearer {{token}}"}}""";

    public static TheoryData<string, string> BadSteps => new()
    {
        { """[{"name":"t","url":"http://127.0.0.1:1/","token":{"scope":"api://a/.default"}}]""", "steps[0].url" },
        { """[{"name":"t","token":{"scope":"api://a/.default"},"checks":[{"status":200}]}]""", "steps[0].checks" },
        { """[{"name":"t","token":{"scope":""}}]""", "steps[0].token.scope" },
        { """[{"name":"t","token":{"scope":"api://a/.default","clientId":"x"}}]""", "steps[0].token.clientId" },
        { """[{"name":"t","token":{"scope":"api://a/.default","variable":"time"}}]""", "steps[0].token.variable" },
        { "[" + Orders + """,{"name":"t","token":{"scope":"api://a/.default"}}]""", "steps[0].headers" },
    };

    [Theory]
    [MemberData(nameof(BadSteps))]
    public async Task ABadTokenStepIsA400KeyedByStep(string steps, string field)
    {
        await using var app = new DashboardFactory(new() { ["Runner:Embedded"] = "false", ["Auth:ApiKey"] = Key, ["Auth:Required"] = "always", ["Targets:AllowLoopback"] = "true" });

        var response = await Client(app).PostAsync("/api/runs", new StringContent($$"""{"kind":"http","requests":5,"steps":{{steps}}}""", Encoding.UTF8, "application/json"));

        var text = await response.Content.ReadAsStringAsync();
        Assert.True(response.StatusCode == HttpStatusCode.BadRequest, $"{response.StatusCode}: {text}");
        Assert.Contains(field, JsonDocument.Parse(text).RootElement.GetProperty("errors").EnumerateObject().Select(e => e.Name));
    }

    [Fact]
    public async Task AnUnknownCredentialIsA400NotA500()
    {
        await using var app = new DashboardFactory(new() { ["Runner:Embedded"] = "false", ["Auth:ApiKey"] = Key, ["Auth:Required"] = "always", ["Targets:AllowLoopback"] = "true" });

        var response = await Client(app).PostAsync("/api/runs", new StringContent(
            """{"kind":"http","requests":5,"steps":[{"name":"t","token":{"scope":"api://a/.default","credential":"password"}}]}""", Encoding.UTF8, "application/json"));

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
    }

    [Fact]
    public async Task ARunWithATokenStepShowsAndStoresNoTokenAnywhere()
    {
        await using var target = await KestrelTarget.StartAsync();
        // App Service announces its identity endpoint to the app's process; the runner (here in the dashboard's process) reads it.
        Environment.SetEnvironmentVariable("IDENTITY_ENDPOINT", target.Url("/identity/3/0/token").ToString());
        Environment.SetEnvironmentVariable("IDENTITY_HEADER", "stand-in-secret");
        try
        {
            await using var app = new DashboardFactory(new() { ["Auth:Required"] = "always", ["Auth:ApiKey"] = Key });
            var admin = Client(app);
            var body = new
            {
                kind = "http", durationSeconds = 4, concurrency = 2,
                steps = new object[]
                {
                    new { name = "signin", token = new { scope = "api://bench-target/.default" } },
                    new { name = "orders", url = target.Url("/journey/orders").ToString(), headers = new Dictionary<string, string> { ["Authorization"] = "Bearer {{token}}" },
                          checks = new object[] { new { status = 200 }, new { json = "$.user", equals = "identity" } }, thinkTime = new { ms = 2 } },
                },
            };
            var id = await DashboardFactory.CreateRunAsync(admin, body);
            var run = await DashboardFactory.WaitForEndAsync(admin, id);
            Assert.Equal("completed", run.GetProperty("status").GetString());

            using var plain = new HttpClient();
            var issued = (await plain.GetFromJsonAsync<JsonElement>(target.Url("/identity/issued"))).EnumerateArray().Select(t => t.GetProperty("token").GetString()!).ToList();
            Assert.True(issued.Count >= 2, $"{issued.Count} tokens issued in a 4 s run of 3 s tokens");

            var shown = new List<string>
            {
                await app.CreateClient().GetStringAsync($"/runs/{id}"),
                await admin.GetStringAsync($"/api/runs/{id}"),
                await admin.GetStringAsync($"/api/runs/{id}?format=markdown"),
                await admin.GetStringAsync($"/api/runs/{id}?format=text"),
                await admin.GetStringAsync($"/api/runs/{id}/samples"),
                await admin.GetStringAsync($"/api/runs/{id}/histogram.hlog"),
                string.Join("\n", app.Logs.Entries.Select(e => e.Message)),
            };
            Assert.Contains("Tokens from Microsoft Entra (managed identity, scope api://bench-target/.default: ", shown[1]);
            Assert.Contains("none failed", shown[1]);
            Assert.Contains("data-series=\"orders\"", shown[0]);
            // The database's files as they are (with its write-ahead log, where recent pages are).
            var stored = string.Concat(Directory.GetFiles(Path.GetDirectoryName(app.DatabasePath)!, "bench.db*").Where(f => !f.EndsWith(".lock", StringComparison.Ordinal)).Select(f =>
            {
                using var file = new FileStream(f, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
                using var copy = new MemoryStream();
                file.CopyTo(copy);
                return Encoding.Latin1.GetString(copy.ToArray());
            }));
            Assert.Contains("api://bench-target/.default", stored); // the file is readable as searched
            foreach (var token in issued)
            {
                Assert.All(shown, text => Assert.DoesNotContain(token, text));
                Assert.DoesNotContain(token, stored);
            }
        }
        finally
        {
            Environment.SetEnvironmentVariable("IDENTITY_ENDPOINT", null);
            Environment.SetEnvironmentVariable("IDENTITY_HEADER", null);
        }
    }
}
