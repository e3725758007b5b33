using System.Net;
using System.Net.Http.Headers;
using System.Net.Http.Json;
using System.Text;
using System.Text.Json;
using Microsoft.Extensions.DependencyInjection;

namespace BenchDashboard.Web.Tests.Api;

/// <summary>Saved benchmarks through the API: whole definitions, entity tags, the administrator's key, runs kept with their benchmark's name.</summary>
public class BenchmarksApiTests
{
    const string Key = "benchmarks-key";

    /// <summary>A dashboard that asks for the key (as off loopback) and runs nothing: queued runs stay queued.</summary>
    static DashboardFactory Dashboard() => new(new() { ["Auth:Required"] = "always", ["Auth:ApiKey"] = Key, ["Runner:Embedded"] = "false" });

    static HttpClient Admin(DashboardFactory app)
    {
        var client = app.CreateClient();
        client.DefaultRequestHeaders.Add("X-Api-Key", Key);
        return client;
    }

    static object Latency(string name = "latency", string? schedule = null) => new
    {
        name, kind = "http",
        parameters = new { url = "http://127.0.0.1:1/x?sig=q-secret", requests = 20, concurrency = 2, timeoutMs = 1000, headers = new Dictionary<string, string> { ["Authorization"] = "Bearer h-secret" } },
        schedule, timeZone = "Europe/Berlin", enabled = true, thresholds = new { maxP95Ms = 50.0, trailingRuns = 5 }, agents = (int?)null,
    };

    static StringContent Body(string json) => new(json, Encoding.UTF8, "application/json");

    static HttpRequestMessage WithIfMatch(HttpMethod method, string path, string etag, object? body = null)
    {
        var request = new HttpRequestMessage(method, path) { Content = body is null ? null : JsonContent.Create(body) };
        request.Headers.IfMatch.Add(EntityTagHeaderValue.Parse(etag));
        return request;
    }

    [Fact]
    public async Task ABenchmarkIsCreatedReadReplacedAndDeletedAndAStaleIfMatchChangesNothing()
    {
        await using var app = Dashboard();
        var admin = Admin(app);

        var created = await admin.PostAsJsonAsync("/api/benchmarks", Latency(schedule: "0 2 * * *"));
        Assert.Equal(HttpStatusCode.Created, created.StatusCode);
        var benchmark = await created.Content.ReadFromJsonAsync<JsonElement>();
        var id = benchmark.GetProperty("id").GetInt32();
        Assert.Equal($"/api/benchmarks/{id}", created.Headers.Location!.OriginalString);
        Assert.Equal(["id", "name", "kind", "parameters", "schedule", "timeZone", "enabled", "thresholds", "agents", "webhooks", "onEach", "rounds"], benchmark.EnumerateObject().Select(p => p.Name));
        Assert.Equal("http", benchmark.GetProperty("kind").GetString());
        Assert.Equal("0 2 * * *", benchmark.GetProperty("schedule").GetString());
        Assert.Equal("Europe/Berlin", benchmark.GetProperty("timeZone").GetString());
        Assert.Equal(50.0, benchmark.GetProperty("thresholds").GetProperty("maxP95Ms").GetDouble());
        Assert.Equal(20, benchmark.GetProperty("parameters").GetProperty("requests").GetInt32());
        var firstTag = created.Headers.ETag!.Tag;

        var read = await admin.GetAsync($"/api/benchmarks/{id}");
        Assert.Equal(firstTag, read.Headers.ETag!.Tag);

        var replaced = await admin.SendAsync(WithIfMatch(HttpMethod.Put, $"/api/benchmarks/{id}", firstTag, Latency("renamed")));
        Assert.Equal(HttpStatusCode.OK, replaced.StatusCode);
        var secondTag = replaced.Headers.ETag!.Tag;
        Assert.NotEqual(firstTag, secondTag);
        var now = await replaced.Content.ReadFromJsonAsync<JsonElement>();
        Assert.Equal("renamed", now.GetProperty("name").GetString());
        Assert.Equal(JsonValueKind.Null, now.GetProperty("schedule").ValueKind); // a replace: left out is its default

        var stalePut = await admin.SendAsync(WithIfMatch(HttpMethod.Put, $"/api/benchmarks/{id}", firstTag, Latency("lost update")));
        var staleDelete = await admin.SendAsync(WithIfMatch(HttpMethod.Delete, $"/api/benchmarks/{id}", firstTag));
        Assert.Equal(HttpStatusCode.PreconditionFailed, stalePut.StatusCode);
        Assert.Equal(HttpStatusCode.PreconditionFailed, staleDelete.StatusCode);
        var after = await admin.GetAsync($"/api/benchmarks/{id}");
        Assert.Equal("renamed", (await after.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("name").GetString());
        Assert.Equal(secondTag, after.Headers.ETag!.Tag);

        var deleted = await admin.SendAsync(WithIfMatch(HttpMethod.Delete, $"/api/benchmarks/{id}", secondTag));
        Assert.Equal(HttpStatusCode.NoContent, deleted.StatusCode);
        Assert.Equal(HttpStatusCode.NotFound, (await admin.GetAsync($"/api/benchmarks/{id}")).StatusCode);
        Assert.Equal(HttpStatusCode.NotFound, (await admin.DeleteAsync($"/api/benchmarks/{id}")).StatusCode);
    }

    [Fact]
    public async Task OfManyReplacesSentWithTheSameETagExactlyOneWins()
    {
        await using var app = Dashboard();
        var admin = Admin(app);
        var created = await admin.PostAsJsonAsync("/api/benchmarks", Latency());
        var id = (await created.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("id").GetInt32();

        var answers = await Task.WhenAll(Enumerable.Range(0, 8).Select(i =>
            admin.SendAsync(WithIfMatch(HttpMethod.Put, $"/api/benchmarks/{id}", created.Headers.ETag!.Tag, Latency($"writer {i}")))));

        Assert.Single(answers, a => a.StatusCode == HttpStatusCode.OK);
        Assert.Equal(7, answers.Count(a => a.StatusCode == HttpStatusCode.PreconditionFailed));
        var winner = await answers.Single(a => a.StatusCode == HttpStatusCode.OK).Content.ReadFromJsonAsync<JsonElement>();
        Assert.Equal(winner.GetProperty("name").GetString(), (await admin.GetFromJsonAsync<JsonElement>($"/api/benchmarks/{id}")).GetProperty("name").GetString());
    }

    [Fact]
    public async Task AChangeMadeOnThePageMakesTheApisETagStale()
    {
        await using var app = Dashboard();
        var admin = Admin(app);
        var created = await admin.PostAsJsonAsync("/api/benchmarks", Latency());
        var id = (await created.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("id").GetInt32();

        await using (var scope = app.Services.CreateAsyncScope()) // as the list page's toggle does
            await scope.ServiceProvider.GetRequiredService<BenchDashboard.Core.Stores.BenchmarkStore>().SetEnabledAsync(id, false, CancellationToken.None);

        var put = await admin.SendAsync(WithIfMatch(HttpMethod.Put, $"/api/benchmarks/{id}", created.Headers.ETag!.Tag, Latency()));
        Assert.Equal(HttpStatusCode.PreconditionFailed, put.StatusCode);
        Assert.False((await admin.GetFromJsonAsync<JsonElement>($"/api/benchmarks/{id}")).GetProperty("enabled").GetBoolean());
    }

    [Fact]
    public async Task ARunOfASavedBenchmarkKeepsItsBenchmarksNameAfterTheBenchmarkIsRenamedAndDeleted()
    {
        await using var app = Dashboard();
        var admin = Admin(app);
        var id = (await (await admin.PostAsJsonAsync("/api/benchmarks", Latency("nightly"))).Content.ReadFromJsonAsync<JsonElement>()).GetProperty("id").GetInt32();

        var queued = await admin.PostAsync($"/api/benchmarks/{id}/runs", null);
        Assert.Equal(HttpStatusCode.Created, queued.StatusCode);
        var run = await queued.Content.ReadFromJsonAsync<JsonElement>();
        var runId = run.GetProperty("id").GetInt64();
        Assert.Equal($"/api/runs/{runId}", queued.Headers.Location!.OriginalString);
        Assert.Equal(id, run.GetProperty("benchmarkId").GetInt32());
        Assert.Equal("nightly", run.GetProperty("benchmarkName").GetString());
        Assert.Equal("queued", run.GetProperty("status").GetString());

        Assert.Equal(HttpStatusCode.OK, (await admin.PutAsJsonAsync($"/api/benchmarks/{id}", Latency("nightly v2"))).StatusCode);
        Assert.Equal(HttpStatusCode.NoContent, (await admin.DeleteAsync($"/api/benchmarks/{id}")).StatusCode);

        var kept = await admin.GetFromJsonAsync<JsonElement>($"/api/runs/{runId}?includeStats=false");
        Assert.Equal(JsonValueKind.Null, kept.GetProperty("benchmarkId").ValueKind);
        Assert.Equal("nightly v2", kept.GetProperty("benchmarkName").GetString());
        Assert.Contains("nightly v2", await admin.GetStringAsync("/"));
        Assert.Equal(HttpStatusCode.NotFound, (await admin.PostAsync($"/api/benchmarks/{id}/runs", null)).StatusCode);
    }

    [Fact]
    public async Task OnlyTheAdministratorChangesBenchmarksAndOnlyTheAdministratorSeesTheirSecrets()
    {
        await using var app = Dashboard();
        var admin = Admin(app);
        var id = (await (await admin.PostAsJsonAsync("/api/benchmarks", Latency())).Content.ReadFromJsonAsync<JsonElement>()).GetProperty("id").GetInt32();
        var anonymous = app.CreateClient();

        Assert.Equal(HttpStatusCode.Unauthorized, (await anonymous.PostAsJsonAsync("/api/benchmarks", Latency("other"))).StatusCode);
        Assert.Equal(HttpStatusCode.Unauthorized, (await anonymous.PutAsJsonAsync($"/api/benchmarks/{id}", Latency("other"))).StatusCode);
        Assert.Equal(HttpStatusCode.Unauthorized, (await anonymous.DeleteAsync($"/api/benchmarks/{id}")).StatusCode);
        Assert.Equal(HttpStatusCode.Unauthorized, (await anonymous.PostAsync($"/api/benchmarks/{id}/runs", null)).StatusCode);
        Assert.Equal(HttpStatusCode.Unauthorized, (await anonymous.PostAsync("/api/benchmarks/import", Body("""{"benchmarks":[]}"""))).StatusCode);

        // An export is for moving definitions: with fingerprints for secrets it would import broken, so it needs the key.
        Assert.Equal(HttpStatusCode.Unauthorized, (await anonymous.GetAsync("/api/benchmarks/export")).StatusCode);
        Assert.Contains("q-secret", await admin.GetStringAsync("/api/benchmarks/export"));
        foreach (var path in new[] { "/api/benchmarks", $"/api/benchmarks/{id}" })
        {
            var text = await anonymous.GetStringAsync(path);
            Assert.DoesNotContain("q-secret", text);
            Assert.DoesNotContain("h-secret", text);
            Assert.Contains("(hidden, ", text);
        }
        var full = await admin.GetFromJsonAsync<JsonElement>($"/api/benchmarks/{id}");
        Assert.Equal("http://127.0.0.1:1/x?sig=q-secret", full.GetProperty("parameters").GetProperty("url").GetString());
        Assert.Equal("Bearer h-secret", full.GetProperty("parameters").GetProperty("headers").GetProperty("Authorization").GetString());
        Assert.Single(await admin.GetFromJsonAsync<JsonElement[]>("/api/benchmarks") ?? []);
    }

    public static TheoryData<string, string> BadDefinitions => new()
    {
        { """{"name":"b","kind":"http","parameters":{"url":"http://127.0.0.1:1/","requests":5},"colour":"red"}""", "colour" },
        { """{"name":"b","kind":"ftp","parameters":{"url":"http://127.0.0.1:1/","requests":5}}""", "kind" },
        { """{"name":"b","parameters":{"url":"http://127.0.0.1:1/","requests":5}}""", "kind" },
        { """{"name":"b","kind":"cache","parameters":{"url":"http://127.0.0.1:1/","requests":5}}""", "parameters.url" },
        { """{"name":"b","kind":"http","parameters":{"url":"http://127.0.0.1:1/","requests":5,"concurency":4}}""", "parameters.concurency" },
        { """{"name":"b","kind":"http","parameters":{"url":"http://127.0.0.1:1/","requests":"many"}}""", "parameters.requests" },
        { """{"name":"b","kind":"http","parameters":{"url":"not-a-url","requests":5}}""", "parameters.url" },
        { """{"name":"b","kind":"http"}""", "parameters" },
        { """{"name":"b","kind":"http","parameters":{"url":"http://127.0.0.1:1/","requests":5},"schedule":"61 * * * *"}""", "schedule" },
        { """{"name":"b","kind":"http","parameters":{"url":"http://127.0.0.1:1/","requests":5},"schedule":"every day"}""", "schedule" },
        { """{"name":"b","kind":"http","parameters":{"url":"http://127.0.0.1:1/","requests":5},"timeZone":"Mars/Olympus"}""", "timeZone" },
        { """{"name":"b","kind":"http","parameters":{"url":"http://127.0.0.1:1/","requests":5},"thresholds":{"maxP999Ms":5}}""", "thresholds.maxP999Ms" },
        { """{"name":"b","kind":"http","parameters":{"url":"http://127.0.0.1:1/","requests":5},"thresholds":{"maxP95Ms":-1}}""", "thresholds.maxP95Ms" },
        { """{"name":"b","kind":"http","parameters":{"url":"http://127.0.0.1:1/","requests":5},"thresholds":{"latency":"wall"}}""", "thresholds.latency" },
        { """{"name":"b","kind":"http","parameters":{"url":"http://127.0.0.1:1/","requests":5},"enabled":"yes"}""", "enabled" },
        { """{"name":"b","kind":"http","parameters":{"url":"http://127.0.0.1:1/","requests":5},"agents":"two"}""", "agents" },
        { """{"name":"b","kind":"cache","parameters":{"requests":5},"agents":2}""", "agents" },
        { """{"name":"","kind":"http","parameters":{"url":"http://127.0.0.1:1/","requests":5}}""", "name" },
        { """{"name":"b","kind":"http","parameters":{"url":"http://127.0.0.1:1/","requests":5},"id":7}""", "id" },
    };

    [Theory]
    [MemberData(nameof(BadDefinitions))]
    public async Task ABadDefinitionIsA400NamingItsFieldAndStoresNothing(string body, string field)
    {
        await using var app = Dashboard();
        var admin = Admin(app);

        var response = await admin.PostAsync("/api/benchmarks", Body(body));

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        var errors = (await response.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("errors");
        Assert.True(errors.TryGetProperty(field, out _), $"no error for {field}: {errors}");
        Assert.Empty(await admin.GetFromJsonAsync<JsonElement[]>("/api/benchmarks") ?? []);
    }

    [Fact]
    public async Task ANameTakenTwiceAKindChangedAndAnotherIdAreRefused()
    {
        await using var app = Dashboard();
        var admin = Admin(app);
        var id = (await (await admin.PostAsJsonAsync("/api/benchmarks", Latency("one"))).Content.ReadFromJsonAsync<JsonElement>()).GetProperty("id").GetInt32();

        var twice = await admin.PostAsJsonAsync("/api/benchmarks", Latency("one"));
        var otherKind = await admin.PutAsync($"/api/benchmarks/{id}", Body("""{"name":"one","kind":"cache","parameters":{"requests":5}}"""));
        var otherId = await admin.PutAsync($"/api/benchmarks/{id}", Body($$$"""{"id":{{{id + 1}}},"name":"one","kind":"http","parameters":{"url":"http://127.0.0.1:1/","requests":5}}"""));
        var sameId = await admin.PutAsync($"/api/benchmarks/{id}", Body($$$"""{"id":{{{id}}},"name":"one","kind":"http","parameters":{"url":"http://127.0.0.1:1/","requests":5}}"""));

        Assert.Contains("\"name\":[\"A benchmark with this name exists.\"]", await twice.Content.ReadAsStringAsync());
        Assert.Contains("its kind cannot change", await otherKind.Content.ReadAsStringAsync());
        Assert.Equal(HttpStatusCode.BadRequest, otherId.StatusCode);
        Assert.Equal(HttpStatusCode.OK, sameId.StatusCode); // a definition read with GET may be sent back as it is
        Assert.Equal(HttpStatusCode.NotFound, (await admin.PutAsJsonAsync($"/api/benchmarks/{id + 100}", Latency("ghost"))).StatusCode);
    }

    [Fact]
    public async Task TheOpenApiDocumentTypesEachKindsBenchmark()
    {
        await using var app = new DashboardFactory(new() { ["Runner:Embedded"] = "false" });

        using var document = JsonDocument.Parse(await app.CreateClient().GetStringAsync("/openapi/v1.json"));

        var paths = document.RootElement.GetProperty("paths");
        var create = paths.GetProperty("/api/benchmarks").GetProperty("post").GetProperty("requestBody").GetProperty("content").GetProperty("application/json").GetProperty("schema");
        var kinds = create.GetProperty("oneOf").EnumerateArray().Select(v => v.GetProperty("properties").GetProperty("kind").GetProperty("enum")[0].GetString()).ToList();
        Assert.Equal(["http", "cache", "fileSystem", "table"], kinds);
        Assert.All(create.GetProperty("oneOf").EnumerateArray(), v => Assert.True(v.GetProperty("properties").TryGetProperty("schedule", out _)));
        Assert.Equal("kind", create.GetProperty("discriminator").GetProperty("propertyName").GetString());
        foreach (var (path, method) in new[] { ("/api/benchmarks/{id}", "put"), ("/api/benchmarks/{id}", "delete"), ("/api/benchmarks/{id}/runs", "post"), ("/api/benchmarks/export", "get"), ("/api/benchmarks/import", "post") })
            Assert.True(paths.GetProperty(path).TryGetProperty(method, out _), $"{method} {path}");
    }
}
