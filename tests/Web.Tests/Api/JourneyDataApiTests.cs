using System.Net;
using System.Net.Http.Json;
using System.Text;
using System.Text.Json;

namespace BenchDashboard.Web.Tests.Api;

/// <summary>
/// A journey's data file through the API: refused with errors keyed by its field, kept whole through the benchmarks
/// API and export/import, and never shown to a reader, nor printed on a run's page or in its report.
/// </summary>
public sealed class JourneyDataApiTests
{
    const string Key = "journey-data-key";

    static DashboardFactory Dashboard(bool embedded = false) =>
        new(new() { ["Runner:Embedded"] = embedded ? "true" : "false", ["Auth:ApiKey"] = Key, ["Auth:Required"] = "always", ["Targets:AllowLoopback"] = "true" });

    static HttpClient Admin(DashboardFactory app)
    {
        var client = app.CreateClient();
        client.DefaultRequestHeaders.Add("X-Api-Key", Key);
        return client;
    }

    static StringContent Body(string json) => new(json, Encoding.UTF8, "application/json");

    const string Steps = """
        [{"name":"signin","method":"POST","url":"http://127.0.0.1:1/signin","body":"{\"user\":\"{{user}}\",\"password\":\"{{password}}\"}",
          "extract":[{"name":"token","json":"$.token"}]}]
        """;

    static string Data(string content, string mode = "once", string format = "csv") =>
        JsonSerializer.Serialize(new { name = "users.csv", format, mode, content });

    const string Users = "user,password\nann,hunter2\nbob,swordfish\n";

    public static TheoryData<string, string> BadData => new()
    {
        { $$"""{"kind":"http","requests":5,"url":"http://127.0.0.1:1/","data":{{Data(Users)}}}""", "data" },
        { $$"""{"kind":"http","requests":5,"steps":{{Steps}},"data":{{Data(Users, mode: "shuffle")}}}""", "data.mode" },
        { $$"""{"kind":"http","requests":5,"steps":{{Steps}},"data":{{Data(Users, format: "xlsx")}}}""", "data.format" },
        { $$"""{"kind":"http","requests":5,"steps":{{Steps}},"data":{{Data("user,password\nann,x\nbob\n")}}}""", "data.content" },
        { $$"""{"kind":"http","requests":5,"steps":{{Steps}},"data":{{Data("user\nann\n")}}}""", "steps[0].body" }, // {{password}} is no column
        { $$"""{"kind":"http","requests":5,"steps":{{Steps}},"data":{{Data("user,password,token\nann,x,t\n")}}}""", "data.content" },
    };

    [Theory]
    [MemberData(nameof(BadData))]
    public async Task ABadDataFileIsA400KeyedByItsFieldAndNothingIsQueued(string body, string field)
    {
        await using var app = Dashboard();
        var client = Admin(app);

        var response = await client.PostAsync("/api/runs", Body(body));

        var text = await response.Content.ReadAsStringAsync();
        Assert.True(response.StatusCode == HttpStatusCode.BadRequest, $"{response.StatusCode}: {text}");
        Assert.True(JsonDocument.Parse(text).RootElement.GetProperty("errors").TryGetProperty(field, out _), text);
        Assert.Equal(0, (await client.GetFromJsonAsync<JsonElement>("/api/runs")).GetArrayLength());
    }

    [Theory]
    [InlineData("""{"kind":"http","requests":5,"steps":[{"name":"a","url":"http://127.0.0.1:1/"}],"data":"users.csv"}""")]
    [InlineData("""{"kind":"http","requests":5,"steps":[{"name":"a","url":"http://127.0.0.1:1/"}],"data":{"name":"f","format":"csv","content":5}}""")]
    [InlineData("""{"kind":"http","requests":5,"steps":[{"name":"a","url":"http://127.0.0.1:1/"}],"data":{"name":"f","format":"csv","content":null}}""")]
    [InlineData("""{"kind":"http","requests":5,"steps":[{"name":"a","url":"http://127.0.0.1:1/"}],"variants":[{"name":"A"},{"name":"B","data":{"name":"f","format":"csv","content":"a\n1\n"}}]}""")]
    public async Task AMistypedDataFileOrOneInAVariantIsA400NotA500(string body)
    {
        await using var app = Dashboard();

        var response = await Admin(app).PostAsync("/api/runs", Body(body));

        Assert.True(response.StatusCode == HttpStatusCode.BadRequest, $"{response.StatusCode}: {await response.Content.ReadAsStringAsync()}");
    }

    [Fact]
    public async Task ABenchmarksFileIsKeptWholeForTheAdministratorAndThroughExportAndImportButReadersSeeOnlyItsSummary()
    {
        string exported;
        await using (var source = Dashboard())
        {
            var admin = Admin(source);
            var created = await admin.PostAsync("/api/benchmarks", Body("""{"name":"journey","kind":"http","parameters":{"requests":5,"steps":""" + Steps + ""","data":""" + Data(Users) + "}}"));
            var text = await created.Content.ReadAsStringAsync();
            Assert.True(created.StatusCode == HttpStatusCode.Created, text);
            var id = JsonDocument.Parse(text).RootElement.GetProperty("id").GetInt32();

            var whole = await admin.GetFromJsonAsync<JsonElement>($"/api/benchmarks/{id}");
            var data = whole.GetProperty("parameters").GetProperty("data");
            Assert.Equal(Users, data.GetProperty("content").GetString());
            Assert.Equal("once", data.GetProperty("mode").GetString());

            var shown = await source.CreateClient().GetStringAsync($"/api/benchmarks/{id}");
            Assert.DoesNotContain("hunter2", shown);
            var summary = JsonDocument.Parse(shown).RootElement.GetProperty("parameters").GetProperty("data");
            Assert.Equal("users.csv", summary.GetProperty("name").GetString());
            Assert.Equal(2, summary.GetProperty("rows").GetInt32());
            Assert.StartsWith("(hidden, ", summary.GetProperty("content").GetString());

            exported = await admin.GetStringAsync("/api/benchmarks/export");
        }
        Assert.Contains("swordfish", exported);

        await using var empty = Dashboard();
        var target = Admin(empty);
        var imported = await target.PostAsync("/api/benchmarks/import", Body(exported));
        Assert.True(imported.StatusCode == HttpStatusCode.OK, await imported.Content.ReadAsStringAsync());
        Assert.Equal(exported, await target.GetStringAsync("/api/benchmarks/export"));
    }

    [Fact]
    public async Task ARunsPageAndReportShowTheFilesSummaryNeverItsRowsAndItsNotesSayTheRowsWereUsedUp()
    {
        await using var target = await BenchDashboard.TestSupport.KestrelTarget.StartAsync();
        await using var app = Dashboard(embedded: true);
        var admin = Admin(app);
        var body = new
        {
            kind = "http", requests = 50, concurrency = 2,
            steps = new object[]
            {
                new { name = "signin", method = "POST", url = target.Url("/journey/signin").ToString(), headers = new Dictionary<string, string> { ["Content-Type"] = "application/json" },
                      body = """{"user":"{{user}}","password":"{{password}}"}""", checks = new[] { new { status = 200 } } },
            },
            data = new { name = "users.csv", format = "csv", mode = "once", content = "user,password\nann,secret\nbob,secret\ncid,secret\n" },
        };
        var id = await DashboardFactory.CreateRunAsync(admin, body);
        var run = await DashboardFactory.WaitForEndAsync(admin, id);

        Assert.Equal("completed", run.GetProperty("status").GetString());
        var samples = (await admin.GetFromJsonAsync<JsonElement>($"/api/runs/{id}/samples")).EnumerateArray().ToList();
        Assert.Equal(3, samples.Count(s => s.GetProperty("series").GetString() == "iteration"));
        Assert.Equal(3, samples.Count(s => s.GetProperty("series").GetString() == "signin" && s.GetProperty("statusCode").GetInt32() == 200));
        Assert.Contains(run.GetProperty("notes").GetProperty("notes").EnumerateArray(), n => n.GetString()!.Contains("The data file's 3 rows were used up after 3 iterations", StringComparison.Ordinal));

        // Not even to the administrator: the page has no need of a megabyte of user names and passwords.
        foreach (var client in new[] { admin, app.CreateClient() })
        {
            var page = WebUtility.HtmlDecode(await client.GetStringAsync($"/runs/{id}"));
            Assert.DoesNotContain("ann,secret", page);
            Assert.DoesNotContain("ann\\nsecret", page);
            Assert.Contains("users.csv", page);
            Assert.Contains("\"rows\": 3", page);
        }
        var markdown = await app.CreateClient().GetStringAsync($"/api/runs/{id}?format=markdown");
        Assert.DoesNotContain("ann,secret", markdown);
        var shown = await app.CreateClient().GetStringAsync($"/api/runs/{id}");
        Assert.DoesNotContain("ann,secret", shown);
        Assert.DoesNotContain("ann\\nsecret", shown);
    }
}
