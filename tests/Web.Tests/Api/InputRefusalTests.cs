using System.Net;
using System.Net.Http.Json;
using System.Text;
using System.Text.Json;

namespace BenchDashboard.Web.Tests.Api;

/// <summary>Each malformed request the reliability probe turned into a 500 is now a 400 (or 413/415) naming the field, in both environments.</summary>
public sealed class InputRefusalTests
{
    const string Key = "refusal-key";

    static DashboardFactory Dashboard(string environment) =>
        new(new() { ["environment"] = environment, ["Runner:Embedded"] = "false", ["Auth:ApiKey"] = Key, ["Auth:Required"] = "always", ["Targets:AllowLoopback"] = "true" });

    static HttpClient Client(DashboardFactory app)
    {
        var client = app.CreateClient();
        client.DefaultRequestHeaders.Add("X-Api-Key", Key);
        return client;
    }

    public static TheoryData<string, string, string, int> Bodies => new()
    {
        { "Development", "null", "body", 400 },
        { "Production", "[]", "body", 400 },
        { "Development", "{", "body", 400 },
        { "Production", """{"kind":"http","url":"http://127.0.0.1:1/","requests":NaN}""", "body", 400 },
        { "Development", """{"kind":"http","url":"http://127.0.0.1:1/","requests":10,"requests":20}""", "requests", 400 },
        { "Production", """{"kind":"http","url":"http://127.0.0.1:1/","Url":"http://127.0.0.1:2/","requests":10}""", "Url", 400 },
        { "Development", """{"kind":"http","url":"http://127.0.0.1:1/\ud800","requests":10}""", "url", 400 },
        { "Production", """{"kind":"cache","requests":10,"keyPrefix":"\udc00"}""", "keyPrefix", 400 },
        { "Development", """{"kind":"http","url":"http://127.0.0.1:1/","requests":2147483648}""", "requests", 400 },
        { "Production", """{"kind":"http","url":"http://127.0.0.1:1/","requests":10,"x":""" + new string('[', 70) + new string(']', 70) + "}", "body", 400 },
        { "Development", """{"kind":"http","url":"http://127.0.0.1:0/","requests":10}""", "url", 400 },
        { "Production", """{"kind":"http","url":"http://127.0.0.1:1/","requests":10,"headers":{"X":"a\r\nHost: x.scm.azurewebsites.net"}}""", "headers", 400 },
        { "Development", """{"kind":"http","url":"http://127.0.0.1:1/","requests":10,"headers":{"Transfer-Encoding":"chunked"}}""", "headers", 400 },
    };

    [Theory]
    [MemberData(nameof(Bodies))]
    public async Task AMalformedBodyIsRefusedNamingTheFieldAndNothingIsQueued(string environment, string body, string field, int status)
    {
        await using var app = Dashboard(environment);
        var client = Client(app);

        var response = await client.PostAsync("/api/runs", new StringContent(body, Encoding.UTF8, "application/json"));

        Assert.Equal(status, (int)response.StatusCode);
        var problem = await response.Content.ReadFromJsonAsync<JsonElement>();
        Assert.True(problem.GetProperty("errors").TryGetProperty(field, out _), problem.GetRawText());
        Assert.Equal(0, (await client.GetFromJsonAsync<JsonElement>("/api/runs")).GetArrayLength());
    }

    [Theory]
    [InlineData("Development")]
    [InlineData("Production")]
    public async Task BytesThatAreNotUtf8TooLargeABodyAndNotJsonAreRefused(string environment)
    {
        await using var app = Dashboard(environment);
        var client = Client(app);

        var notUtf8 = new ByteArrayContent([.. "{\"kind\":\"http\",\"url\":\""u8, 0xFF, 0xFE, .. "\"}"u8]);
        notUtf8.Headers.ContentType = new("application/json");
        Assert.Equal(HttpStatusCode.BadRequest, (await client.PostAsync("/api/runs", notUtf8)).StatusCode);

        var huge = JsonSerializer.Serialize(new { kind = "http", url = "http://127.0.0.1:1/", requests = 10, method = "POST", body = new string('x', 2 * 1024 * 1024) });
        Assert.Equal(HttpStatusCode.RequestEntityTooLarge, (await client.PostAsync("/api/runs", new StringContent(huge, Encoding.UTF8, "application/json"))).StatusCode);

        var big = JsonSerializer.Serialize(new { kind = "http", url = "http://127.0.0.1:1/", requests = 10, method = "POST", body = new string('x', 65 * 1024) });
        var bigResponse = await client.PostAsync("/api/runs", new StringContent(big, Encoding.UTF8, "application/json"));
        Assert.Contains("at most 64 KiB", await bigResponse.Content.ReadAsStringAsync());

        Assert.Equal(HttpStatusCode.UnsupportedMediaType, (await client.PostAsync("/api/runs", new StringContent("{}", Encoding.UTF8, "text/plain"))).StatusCode);
        Assert.Equal(0, (await client.GetFromJsonAsync<JsonElement>("/api/runs")).GetArrayLength());
    }

    [Theory]
    [InlineData("Development", "/api/runs?benchmarkId=abc", "benchmarkId")]
    [InlineData("Production", "/api/runs/1?includeStats=0", "includeStats")]
    [InlineData("Development", "/api/runs/1/analysis?window=2147483648", "window")]
    [InlineData("Production", "/api/benchmarks/1/trend?take=abc", "take")]
    [InlineData("Development", "/api/compare?items=1,2&seed=abc", "seed")]
    public async Task AQueryValueThatCannotBeReadIsA400NamingIt(string environment, string path, string field)
    {
        await using var app = Dashboard(environment);

        var response = await Client(app).GetAsync(path);

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.True((await response.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("errors").TryGetProperty(field, out _));
    }
}
