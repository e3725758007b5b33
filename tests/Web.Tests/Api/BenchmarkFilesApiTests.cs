using System.Net;
using System.Net.Http.Json;
using System.Text;
using System.Text.Json;
using BenchDashboard.TestSupport;

namespace BenchDashboard.Web.Tests.Api;

/// <summary>Benchmarks as code: export, import by name (all or nothing, dry run), and a round trip that changes nothing.</summary>
public class BenchmarkFilesApiTests
{
    const string Key = "files-key";

    static DashboardFactory Dashboard() => new(new() { ["Auth:Required"] = "always", ["Auth:ApiKey"] = Key, ["Runner:Embedded"] = "false" });

    static HttpClient Admin(DashboardFactory app)
    {
        var client = app.CreateClient();
        client.DefaultRequestHeaders.Add("X-Api-Key", Key);
        return client;
    }

    static StringContent Body(string json) => new(json, Encoding.UTF8, "application/json");

    static readonly string[] Definitions =
    [
        """{"name":"zeta latency","kind":"http","parameters":{"url":"http://u:pw@127.0.0.1:1/x?sig=s3cret","requests":20,"concurrency":2,"headers":{"Authorization":"Bearer t"}},"schedule":"30 2 * * 1-5","timeZone":"Europe/Berlin","thresholds":{"maxP95Ms":40,"maxErrorPercent":1,"latency":"service","trailingRuns":5}}""",
        """{"name":"alpha cache","kind":"cache","parameters":{"requests":5,"keyCount":5},"enabled":false}""",
        """{"name":"Middle files","kind":"fileSystem","parameters":{"directories":["temp"],"fileCount":1,"largeFileMiB":0},"schedule":"*/15 * * * *"}""",
    ];

    static async Task<string> ExportAsync(HttpClient client)
    {
        var response = await client.GetAsync("/api/benchmarks/export");
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        return await response.Content.ReadAsStringAsync();
    }

    static async Task<JsonElement> ImportAsync(HttpClient client, string document, bool dryRun = false, HttpStatusCode expected = HttpStatusCode.OK)
    {
        var response = await client.PostAsync("/api/benchmarks/import" + (dryRun ? "?dryRun=true" : ""), Body(document));
        var text = await response.Content.ReadAsStringAsync();
        Assert.True(expected == response.StatusCode, $"{response.StatusCode}: {text}");
        return JsonDocument.Parse(text).RootElement.Clone();
    }

    static List<string?> Names(JsonElement result, string list) => result.GetProperty(list).EnumerateArray().Select(n => n.GetString()).ToList();

    [Fact]
    public async Task AnExportImportedIntoAnEmptyDashboardExportsIdentically()
    {
        string exported;
        await using (var source = Dashboard())
        {
            var admin = Admin(source);
            foreach (var definition in Definitions) Assert.Equal(HttpStatusCode.Created, (await admin.PostAsync("/api/benchmarks", Body(definition))).StatusCode);
            exported = await ExportAsync(admin);
        }
        var names = JsonDocument.Parse(exported).RootElement.GetProperty("benchmarks").EnumerateArray().Select(b => b.GetProperty("name").GetString()).ToList();
        Assert.Equal(["Middle files", "alpha cache", "zeta latency"], names); // by name, ordinally
        Assert.DoesNotContain("\"id\"", exported);
        Assert.Contains("s3cret", exported); // the administrator's export carries what a run needs

        await using var empty = Dashboard();
        var target = Admin(empty);
        var imported = await ImportAsync(target, exported);

        Assert.False(imported.GetProperty("dryRun").GetBoolean());
        Assert.Equal(names, Names(imported, "created"));
        Assert.Empty(Names(imported, "updated"));
        Assert.Equal(exported, await ExportAsync(target));
        var again = await ImportAsync(target, exported);
        Assert.Equal(names, Names(again, "unchanged"));
        Assert.Empty(Names(again, "created"));
    }

    [Fact]
    public async Task ADryRunSaysWhatWouldChangeAndChangesNothing()
    {
        await using var app = Dashboard();
        var admin = Admin(app);
        await ImportAsync(admin, $$"""{"benchmarks":[{{Definitions[0]}},{{Definitions[1]}}]}""");
        var before = await ExportAsync(admin);
        var changedCache = Definitions[1].Replace("\"keyCount\":5", "\"keyCount\":7");
        var document = $$"""{"benchmarks":[{{Definitions[0]}},{{changedCache}},{{Definitions[2]}}]}""";

        var dry = await ImportAsync(admin, document, dryRun: true);

        Assert.True(dry.GetProperty("dryRun").GetBoolean());
        Assert.Equal(["Middle files"], Names(dry, "created"));
        Assert.Equal(["alpha cache"], Names(dry, "updated"));
        Assert.Equal(["zeta latency"], Names(dry, "unchanged"));
        Assert.Equal(before, await ExportAsync(admin));

        var real = await ImportAsync(admin, document);
        Assert.Equal(Names(dry, "created").Concat(Names(dry, "updated")).Concat(Names(dry, "unchanged")), Names(real, "created").Concat(Names(real, "updated")).Concat(Names(real, "unchanged")));
        Assert.Contains("\"keyCount\":7", await ExportAsync(admin));
    }

    [Fact]
    public async Task AnImportWithAnyErrorStoresNothingAndNamesEveryBenchmarkAndField()
    {
        await using var app = Dashboard();
        var admin = Admin(app);
        await ImportAsync(admin, $$"""{"benchmarks":[{{Definitions[1]}}]}""");
        var before = await ExportAsync(admin);
        var document = $$$"""
            {"benchmarks":[
              {{{Definitions[0]}}},
              {{{Definitions[1].Replace("\"keyCount\":5", "\"keyCount\":7")}}},
              {"name":"bad schedule","kind":"http","parameters":{"url":"http://127.0.0.1:1/","requests":5},"schedule":"61 * * * *"},
              {"name":"bad limit","kind":"http","parameters":{"url":"http://127.0.0.1:1/","requests":5},"thresholds":{"maxP999Ms":3}},
              {"name":"wrong kind","kind":"ftp","parameters":{}},
              {"name":"zeta latency","kind":"http","parameters":{"url":"http://127.0.0.1:1/","requests":5}},
              {"name":"bad parameter","kind":"http","parameters":{"url":"http://127.0.0.1:1/","requests":0}},
              "not an object"
            ]}
            """;

        var problem = await ImportAsync(admin, document, expected: HttpStatusCode.BadRequest);

        var errors = problem.GetProperty("errors");
        string Error(string key) => errors.TryGetProperty(key, out var e) ? e[0].GetString()! : throw new Xunit.Sdk.XunitException($"no error for {key}: {errors}");
        Assert.StartsWith("'bad schedule': ", Error("benchmarks[2].schedule"));
        Assert.StartsWith("'bad limit': ", Error("benchmarks[3].thresholds.maxP999Ms"));
        Assert.StartsWith("'wrong kind': ", Error("benchmarks[4].kind"));
        Assert.Contains("'zeta latency' is also benchmarks[0]", Error("benchmarks[5].name"));
        Assert.StartsWith("'bad parameter': ", Error("benchmarks[6].parameters.requests"));
        Assert.True(errors.TryGetProperty("benchmarks[7]", out _));
        Assert.True(errors.EnumerateObject().Count() == 7, errors.ToString()); // requests 0 is also fewer than the 1 connection
        Assert.Equal(before, await ExportAsync(admin));
    }

    [Theory]
    [InlineData("""{"benchmarks":{}}""", "benchmarks")]
    [InlineData("""{"items":[]}""", "items")]
    [InlineData("""{"benchmarks":[{"name":"x","kind":"http","parameters":{"url":"http://127.0.0.1:1/","requests":5},"id":3}]}""", "benchmarks[0].id")]
    public async Task AMisshapenDocumentIsA400NamingWhatIsWrong(string document, string field)
    {
        await using var app = Dashboard();

        var problem = await ImportAsync(Admin(app), document, expected: HttpStatusCode.BadRequest);

        Assert.True(problem.GetProperty("errors").TryGetProperty(field, out _), problem.ToString());
    }

    static StringContent Document(int count, string prefix) => new(System.Text.Json.JsonSerializer.Serialize(new
    {
        benchmarks = Enumerable.Range(0, count).Select(i => new { name = $"{prefix} {i:D5}", kind = "http", parameters = new { url = $"http://127.0.0.1:1/x?i={i}", requests = 10 } }),
    }), System.Text.Encoding.UTF8, "application/json");

    [Fact]
    public async Task ADocumentOfMoreThanTwoThousandBenchmarksIsRefusedWholeNamingTheLimit()
    {
        await using var app = Dashboard();
        var admin = Admin(app);

        var refused = await admin.PostAsync("/api/benchmarks/import", Document(2_001, "too many"));

        Assert.Equal(HttpStatusCode.BadRequest, refused.StatusCode);
        Assert.Contains("at most 2,000 benchmarks", (await refused.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("errors").GetProperty("benchmarks")[0].GetString());
        Assert.Empty((await admin.GetFromJsonAsync<JsonElement>("/api/benchmarks")).EnumerateArray());
    }

    [Fact]
    public async Task TwoThousandBenchmarksImportWhileARunStoresItsSamplesAndTheRunLosesNone()
    {
        await using var target = await KestrelTarget.StartAsync();
        await using var app = new DashboardFactory(new() { ["Auth:Required"] = "always", ["Auth:ApiKey"] = Key });
        var admin = Admin(app);
        var run = await DashboardFactory.CreateRunAsync(admin, new { kind = "http", url = target.Url("/delay?ms=1").ToString(), durationSeconds = 4, concurrency = 2 });
        await DashboardFactory.WaitForProgressAsync(admin, run, 100);

        var started = System.Diagnostics.Stopwatch.StartNew();
        var imported = await admin.PostAsync("/api/benchmarks/import", Document(2_000, "bulk"));
        var took = started.Elapsed;
        var again = await admin.PostAsync("/api/benchmarks/import", Document(2_000, "bulk"));

        Assert.Equal(HttpStatusCode.OK, imported.StatusCode);
        Assert.Equal(2_000, (await imported.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("created").GetArrayLength());
        Assert.Equal(2_000, (await again.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("unchanged").GetArrayLength());
        Assert.True(took < TimeSpan.FromSeconds(30), $"the import took {took.TotalSeconds:N1} s"); // about 0.3 s here; the build before took 6 s
        var ended = await DashboardFactory.WaitForEndAsync(admin, run);
        Assert.Equal("completed", ended.GetProperty("status").GetString());
        Assert.Equal(JsonValueKind.Null, ended.GetProperty("error").ValueKind);
        Assert.Equal(ended.GetProperty("completedRequests").GetInt32(), ended.GetProperty("stats").GetProperty("count").GetInt32()
            + (ended.GetProperty("stats").TryGetProperty("warmupCount", out var warmup) ? warmup.GetInt32() : 0));
    }
}
