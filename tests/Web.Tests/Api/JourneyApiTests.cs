using System.Net;
using System.Net.Http.Json;
using System.Text;
using System.Text.Json;

namespace BenchDashboard.Web.Tests.Api;

/// <summary>A journey's steps through POST /api/runs, the benchmarks API and export/import: accepted whole, refused with errors keyed by step, never a 500.</summary>
public sealed class JourneyApiTests
{
    const string Key = "journey-key";

    static DashboardFactory Dashboard() =>
        new(new() { ["Runner:Embedded"] = "false", ["Auth:ApiKey"] = Key, ["Auth:Required"] = "always", ["Targets:AllowLoopback"] = "true" });

    static HttpClient Client(DashboardFactory app)
    {
        var client = app.CreateClient();
        client.DefaultRequestHeaders.Add("X-Api-Key", Key);
        return client;
    }

    static StringContent Body(string json) => new(json, Encoding.UTF8, "application/json");

    const string Steps = """
        [{"name":"login","method":"POST","url":"http://127.0.0.1:1/signin","headers":{"Content-Type":"application/json"},"body":"{\"user\":\"u{{connection}}\"}",
          "extract":[{"name":"token","json":"$.token"}],"checks":[{"status":200}],"thinkTime":{"minMs":5,"maxMs":10}},
         {"name":"orders","url":"http://127.0.0.1:1/orders","headers":{"Authorization":"Bearer {{token}}"},
          "extract":[{"name":"first","json":"$.items[0].id"}],"checks":[{"status":200},{"json":"$.items","exists":true}]},
         {"name":"detail","url":"http://127.0.0.1:1/orders/{{first}}","checks":[{"json":"$.status","equals":"shipped"}]}]
        """;

    public static TheoryData<string, string> BadSteps => new()
    {
        { """[{"name":"a","url":"http://127.0.0.1:1/{{nope}}"}]""", "steps[0].url" },
        { """[{"name":"a","url":"http://127.0.0.1:1/","extract":[{"name":"t","json":"items"}]},{"name":"b","url":"http://127.0.0.1:1/"},{"name":"c","url":"http://127.0.0.1:1/","extract":[{"name":"x","json":"$..*"}]}]""", "steps[2].extract[0].json" },
        { """[{"name":"a","url":"http://127.0.0.1:1/","checks":[{"status":200,"contains":"x"}]}]""", "steps[0].checks[0]" },
        { """[{"name":"a","url":"http://127.0.0.1:1/"},{"name":"a","url":"http://127.0.0.1:1/"}]""", "steps[1].name" },
        { """[{"name":"iteration","url":"http://127.0.0.1:1/"}]""", "steps[0].name" },
        { """[{"name":"a","url":"http://169.254.169.254/latest"}]""", "steps[0].url" },
        { """[{"name":"a","url":"http://127.0.0.1:1/","thinkTime":{"ms":5,"meanMs":3}}]""", "steps[0].thinkTime" },
        { """[{"name":"a","url":"http://127.0.0.1:1/","extract":[{"name":"guid","header":"X"}]}]""", "steps[0].extract[0].name" },
        { """[{"name":"a","url":"http://127.0.0.1:1/","extract":[{"name":"v","regex":"("}]}]""", "steps[0].extract[0].regex" },
        { """[{"name":"a","url":"http://127.0.0.1:1/","headers":{"Host":"x"}}]""", "steps[0].headers" },
        { """[null]""", "steps[0]" },
        { """[]""", "steps" },
        { "[" + string.Join(",", Enumerable.Range(0, 51).Select(i => $$"""{"name":"s{{i}}","url":"http://127.0.0.1:1/"}""")) + "]", "steps" },
    };

    [Theory]
    [MemberData(nameof(BadSteps))]
    public async Task ABadStepIsA400KeyedByStepAndNothingIsQueued(string steps, string field)
    {
        await using var app = Dashboard();
        var client = Client(app);

        var response = await client.PostAsync("/api/runs", Body($$"""{"kind":"http","requests":5,"steps":{{steps}}}"""));

        var text = await response.Content.ReadAsStringAsync();
        Assert.True(response.StatusCode == HttpStatusCode.BadRequest, $"{response.StatusCode}: {text}");
        Assert.True(JsonDocument.Parse(text).RootElement.GetProperty("errors").TryGetProperty(field, out _), text);
        Assert.Equal(0, (await client.GetFromJsonAsync<JsonElement>("/api/runs")).GetArrayLength());
    }

    [Theory]
    [InlineData("""{"kind":"http","requests":5,"url":"http://127.0.0.1:1/","steps":[{"name":"a","url":"http://127.0.0.1:1/"}]}""", "url")]
    [InlineData("""{"kind":"http","requests":5,"steps":[{"name":"a","url":"http://127.0.0.1:1/","extract":[{"name":"t","json":5}]}]}""", null)]
    [InlineData("""{"kind":"http","requests":5,"steps":[{"name":"a","url":"http://127.0.0.1:1/","urll":"x"}]}""", null)]
    [InlineData("""{"kind":"http","requests":5,"url":"http://127.0.0.1:1/","variants":[{"name":"A"},{"name":"B","steps":[{"name":"a","url":"http://127.0.0.1:1/"}]}]}""", "variants[1].steps")]
    public async Task AJourneyMixedWithOneRequestOrMistypedIsA400NotA500(string body, string? field)
    {
        await using var app = Dashboard();

        var response = await Client(app).PostAsync("/api/runs", Body(body));

        var text = await response.Content.ReadAsStringAsync();
        Assert.True(response.StatusCode == HttpStatusCode.BadRequest, $"{response.StatusCode}: {text}");
        if (field is not null) Assert.True(JsonDocument.Parse(text).RootElement.GetProperty("errors").TryGetProperty(field, out _), text);
    }

    [Fact]
    public async Task AJourneyIsQueuedAndItsPlannedSeriesAreItsStepsThenTheIteration()
    {
        await using var app = Dashboard();
        var client = Client(app);

        var response = await client.PostAsync("/api/runs", Body($$"""{"kind":"http","requests":5,"concurrency":2,"steps":{{Steps}}}"""));

        var text = await response.Content.ReadAsStringAsync();
        Assert.True(response.StatusCode == HttpStatusCode.Created, $"{response.StatusCode}: {text}");
        var run = JsonDocument.Parse(text).RootElement;
        var stored = run.GetProperty("parameters");
        Assert.Equal(3, stored.GetProperty("steps").GetArrayLength());
        Assert.Equal("$.items[0].id", stored.GetProperty("steps")[1].GetProperty("extract")[0].GetProperty("json").GetString());
        // A reader without the key sees the Authorization value of a step as a fingerprint, as a run's own.
        var shown = await app.CreateClient().GetStringAsync($"/api/runs/{run.GetProperty("id").GetInt32()}");
        Assert.DoesNotContain("Bearer {{token}}", shown);
        Assert.Contains("(hidden, ", shown);
    }

    [Fact]
    public async Task AJourneyBenchmarkSurvivesExportAndImport()
    {
        string exported;
        await using (var source = Dashboard())
        {
            var admin = Client(source);
            var created = await admin.PostAsync("/api/benchmarks", Body("""{"name":"journey","kind":"http","parameters":{"requests":5,"steps":""" + Steps + "}}"));
            Assert.True(created.StatusCode == HttpStatusCode.Created, await created.Content.ReadAsStringAsync());
            exported = await admin.GetStringAsync("/api/benchmarks/export");
        }
        Assert.Contains("\"steps\"", exported);

        await using var empty = Dashboard();
        var target = Client(empty);
        var imported = await target.PostAsync("/api/benchmarks/import", Body(exported));
        Assert.True(imported.StatusCode == HttpStatusCode.OK, await imported.Content.ReadAsStringAsync());
        Assert.Equal(exported, await target.GetStringAsync("/api/benchmarks/export"));
    }
}

/// <summary>A journey run end to end through the dashboard: the run page, its Markdown and its text lead with the step table.</summary>
public sealed class JourneyAnswerTests
{
    [Fact]
    public async Task TheRunPageMarkdownAndTextShowARowPerStepWithTheIterationLast()
    {
        await using var target = await BenchDashboard.TestSupport.KestrelTarget.StartAsync();
        await using var app = new DashboardFactory(new() { ["Auth:Required"] = "always", ["Auth:ApiKey"] = "journey-answer" });
        var admin = app.CreateClient();
        admin.DefaultRequestHeaders.Add("X-Api-Key", "journey-answer");
        var body = new
        {
            kind = "http", requests = 10, concurrency = 1,
            steps = new object[]
            {
                new { name = "signin", method = "POST", url = target.Url("/journey/signin").ToString(), headers = new Dictionary<string, string> { ["Content-Type"] = "application/json" },
                      body = """{"user":"a","password":"secret"}""", extract = new[] { new { name = "token", json = "$.token" } }, checks = new[] { new { status = 200 } } },
                // A wrong token: the check fails as scripted, and the iteration ends there.
                new { name = "orders", url = target.Url("/journey/orders").ToString(), headers = new Dictionary<string, string> { ["Authorization"] = "Bearer {{token}}-not" },
                      checks = new[] { new { status = 200 } } },
            },
        };
        var id = await DashboardFactory.CreateRunAsync(admin, body);
        await DashboardFactory.WaitForEndAsync(admin, id);

        var page = await app.CreateClient().GetStringAsync($"/runs/{id}");
        Assert.Contains("id=\"answer-steps\"", page);
        foreach (var series in new[] { "signin", "orders", "iteration" }) Assert.Contains($"data-series=\"{series}\"", page);

        var markdown = await admin.GetStringAsync($"/api/runs/{id}?format=markdown");
        var table = BenchDashboard.TestSupport.MarkdownTables.Find(markdown, "Step");
        Assert.Equal(["Step", "Count", "Errors", "Failed checks", "p50", "p90", "p99", "Share"], table[0]);
        Assert.Equal(["signin", "orders", "iteration"], table.Skip(1).Select(r => r[0]));
        Assert.Equal(["10", "0", "0"], table[1].Skip(1).Take(3));
        Assert.Equal(["10", "10", "10"], table[2].Skip(1).Take(3));
        Assert.Equal(["10", "10", "10"], table[3].Skip(1).Take(3)); // every iteration ended at the orders check
        Assert.Equal("100 %", table[3][^1]);

        var text = await admin.GetStringAsync($"/api/runs/{id}?format=text");
        Assert.Contains("Per step (ms), the whole iteration last", text);
    }
}
