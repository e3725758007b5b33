using System.Net;
using System.Text;
using System.Text.Json;

namespace BenchDashboard.Web.Tests.Api;

/// <summary>POST /api/journeys/har: a HAR file in, the run API's steps out (nothing stored), a bad file a 400 naming the field.</summary>
public sealed class HarApiTests
{
    const string Key = "har-key";

    static DashboardFactory Dashboard() =>
        new(new() { ["Runner:Embedded"] = "false", ["Auth:ApiKey"] = Key, ["Auth:Required"] = "always", ["Targets:AllowLoopback"] = "true" });

    static HttpClient Client(DashboardFactory app)
    {
        var client = app.CreateClient();
        client.DefaultRequestHeaders.Add("X-Api-Key", Key);
        return client;
    }

    static string Har => File.ReadAllText(Path.Combine(AppContext.BaseDirectory, "Fixtures", "journey.har"));

    static StringContent Body(string json) => new(json, Encoding.UTF8, "application/json");

    [Fact]
    public async Task AHarFileBecomesStepsThatTheRunApiQueuesAsTheyAre()
    {
        await using var app = Dashboard();
        var client = Client(app);

        var response = await client.PostAsync("/api/journeys/har", Body(Har.Replace("https://shop.example", "http://127.0.0.1:1")));

        var text = await response.Content.ReadAsStringAsync();
        Assert.True(response.StatusCode == HttpStatusCode.OK, $"{response.StatusCode}: {text}");
        var answer = JsonDocument.Parse(text).RootElement;
        var steps = answer.GetProperty("steps");
        Assert.Equal(["POST signin", "GET orders", "GET 17", "GET orders 2"], steps.EnumerateArray().Select(s => s.GetProperty("name").GetString()));
        Assert.Equal("Bearer abc", steps[1].GetProperty("headers").GetProperty("authorization").GetString());
        Assert.Equal(200, steps[0].GetProperty("checks")[0].GetProperty("status").GetInt32());
        Assert.False(steps[1].TryGetProperty("body", out _)); // unset fields are left out, not null
        Assert.Equal([1, 2, 3, 7, 8], answer.GetProperty("skipped").EnumerateArray().Select(s => s.GetProperty("entry").GetInt32()));
        Assert.Equal("a static asset (a script)", answer.GetProperty("skipped")[0].GetProperty("reason").GetString());

        var queued = await client.PostAsync("/api/runs", Body($$"""{"kind":"http","requests":5,"steps":{{steps.GetRawText()}}}"""));
        Assert.True(queued.StatusCode == HttpStatusCode.Created, await queued.Content.ReadAsStringAsync());
        Assert.Equal(0, JsonDocument.Parse(await client.GetStringAsync("/api/benchmarks")).RootElement.GetArrayLength()); // the import stored nothing
        Assert.Equal(1, JsonDocument.Parse(await client.GetStringAsync("/api/runs")).RootElement.GetArrayLength());
    }

    [Fact]
    public async Task KeepStaticKeepsTheScriptAndTheImage()
    {
        await using var app = Dashboard();

        var response = await Client(app).PostAsync("/api/journeys/har?keepStatic=true", Body(Har));

        var steps = JsonDocument.Parse(await response.Content.ReadAsStringAsync()).RootElement.GetProperty("steps");
        Assert.Equal(6, steps.GetArrayLength());
        Assert.Equal("GET app.js", steps[0].GetProperty("name").GetString());
    }

    [Theory]
    [InlineData("""{"log":{"entries":[{"startedDateTime":"2026-11-20T10:00:00Z","request":{"method":"GET","url":"http://a.example/","headers":[]},"response":{"status":200}},{"startedDateTime":"2026-11-20T10:00:01Z","request":{"method":"GET","url":"nope","headers":[]},"response":{"status":200}}]}}""", "log.entries[1].request.url")]
    [InlineData("""{"log":{"entries":{}}}""", "log.entries")]
    [InlineData("""{"entries":[]}""", "log")]
    [InlineData("""{"log":""", "body")]
    public async Task ABadHarFileIsA400NamingTheField(string har, string field)
    {
        await using var app = Dashboard();

        var response = await Client(app).PostAsync("/api/journeys/har", Body(har));

        var text = await response.Content.ReadAsStringAsync();
        Assert.True(response.StatusCode == HttpStatusCode.BadRequest, $"{response.StatusCode}: {text}");
        Assert.True(JsonDocument.Parse(text).RootElement.GetProperty("errors").TryGetProperty(field, out _), text);
    }

    [Fact]
    public async Task AFileOverTenMiBIsA413AndOnlyJsonIsRead()
    {
        await using var app = Dashboard();
        var client = Client(app);

        var big = await client.PostAsync("/api/journeys/har", Body("{\"log\":{\"comment\":\"" + new string('x', 10 * 1024 * 1024) + "\",\"entries\":[]}}"));
        var plain = await client.PostAsync("/api/journeys/har", new StringContent(Har, Encoding.UTF8, "text/plain"));

        Assert.Equal(HttpStatusCode.RequestEntityTooLarge, big.StatusCode);
        Assert.Contains("10 MiB", await big.Content.ReadAsStringAsync());
        Assert.Equal(HttpStatusCode.UnsupportedMediaType, plain.StatusCode);
    }

    [Fact]
    public async Task TheOpenApiDocumentDescribesTheImport()
    {
        await using var app = Dashboard();

        using var document = JsonDocument.Parse(await app.CreateClient().GetStringAsync("/openapi/v1.json"));

        var import = document.RootElement.GetProperty("paths").GetProperty("/api/journeys/har").GetProperty("post");
        Assert.True(import.GetProperty("requestBody").GetProperty("content").TryGetProperty("application/json", out _));
        Assert.True(import.GetProperty("responses").TryGetProperty("400", out _));
    }

    [Fact]
    public async Task TheFormsAddressConvertsOnlyWithTheFormsAntiForgeryToken()
    {
        await using var app = new DashboardFactory(new() { ["Runner:Embedded"] = "false" });
        var client = app.CreateClient(); // keeps the anti-forgery cookie, as a browser does
        var form = await client.GetStringAsync("/runs/new?kind=http");

        var without = await client.PostAsync("/journeys/har", Body(Har));
        using var request = new HttpRequestMessage(HttpMethod.Post, "/journeys/har?keepStatic=true") { Content = Body(Har) };
        request.Headers.Add("RequestVerificationToken", Pages.FormPost.Token(form));
        var with = await client.SendAsync(request);

        Assert.Equal(HttpStatusCode.BadRequest, without.StatusCode);
        var text = await with.Content.ReadAsStringAsync();
        Assert.True(with.StatusCode == HttpStatusCode.OK, $"{with.StatusCode}: {text}");
        Assert.Equal(6, JsonDocument.Parse(text).RootElement.GetProperty("steps").GetArrayLength());
        Assert.Equal(HttpStatusCode.NotFound, (await client.GetAsync("/journeys/har")).StatusCode);
    }
}
