using System.Net;
using System.Net.Http.Json;
using System.Text;
using System.Text.Json;
using System.Text.RegularExpressions;
using BenchDashboard.Core.Data;
using BenchDashboard.Web.Tests.Pages;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;

namespace BenchDashboard.Web.Tests.Security;

/// <summary>Bad input is a 400 naming its field and stores nothing; hosts, proxies and limits are as strict as the README says.</summary>
public sealed partial class HardeningTests
{
    static async Task<int> RunCountAsync(DashboardFactory app)
    {
        await using var scope = app.Services.CreateAsyncScope();
        return await scope.ServiceProvider.GetRequiredService<BenchDbContext>().Runs.CountAsync();
    }

    static async Task<HttpResponseMessage> PostJsonAsync(HttpClient client, string json) =>
        await client.PostAsync("/api/runs", new StringContent(json, Encoding.UTF8, "application/json"));

    static async Task<JsonElement> ErrorsAsync(HttpResponseMessage response) =>
        (await response.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("errors");

    [Theory]
    [InlineData("http", "\"url\":\"http://127.0.0.1:1/\",\"requests\":5,")]
    [InlineData("cache", "\"requests\":5,")]
    [InlineData("table", "\"connection\":\"tables\",\"requests\":5,")]
    public async Task NonFiniteRatesAndStagesAreRefusedNamingTheFieldForEveryKindAndStoreNothing(string kind, string fields)
    {
        await using var app = new DashboardFactory(new() { ["Runner:Embedded"] = "false" });
        var client = app.CreateClient();
        foreach (var (load, field) in new[]
        {
            ("\"model\":\"open\",\"rate\":\"NaN\"", "rate"), ("\"model\":\"open\",\"rate\":\"Infinity\"", "rate"), ("\"model\":\"open\",\"rate\":\"-Infinity\"", "rate"),
            ("\"model\":\"open\",\"rate\":1e400", "rate"),
            ("\"model\":\"open\",\"rate\":0,\"stages\":[{\"durationSeconds\":1,\"rate\":\"NaN\"}]", "stages[0].rate"),
            ("\"model\":\"open\",\"rate\":0,\"stages\":[{\"durationSeconds\":\"Infinity\",\"rate\":5}]", "stages[0].durationSeconds"),
        })
        {
            var body = $"{{\"kind\":\"{kind}\",{fields}{load}}}".Replace("\"requests\":5,\"model\":\"open\",\"rate\":0,\"stages\"", "\"model\":\"open\",\"rate\":0,\"stages\"");
            var response = await PostJsonAsync(client, body);
            Assert.True(response.StatusCode == HttpStatusCode.BadRequest, $"{body}: {(int)response.StatusCode} {await response.Content.ReadAsStringAsync()}");
            Assert.True((await ErrorsAsync(response)).TryGetProperty(field, out _), $"{body}: {await response.Content.ReadAsStringAsync()}");
        }

        // The forms bind "NaN" as a number: the validator refuses it before anything is serialized.
        var prefix = kind switch { "cache" => "Cache", "table" => "Table", _ => "Http" };
        var form = new Dictionary<string, string> { ["kind"] = kind, [$"{prefix}.Model"] = "open", [$"{prefix}.Mode"] = "requests", [$"{prefix}.Requests"] = "5" };
        if (kind == "http") form["Http.Url"] = "http://127.0.0.1:1/";
        if (kind == "table") form["Table.Connection"] = "tables";
        foreach (var rate in new[] { "NaN", "Infinity", "-Infinity" })
        {
            // The form again with the rate's error (the editor answers it as a 400), never a 500.
            var page = await FormPost.SubmitAsync(client, $"/runs/new?kind={kind}", new(form) { [$"{prefix}.Rate"] = rate });
            Assert.Equal(HttpStatusCode.OK, page.StatusCode);
            Assert.Contains("The rate must be between 0", WebUtility.HtmlDecode(await page.Content.ReadAsStringAsync()));
            var editor = await FormPost.SubmitAsync(client, $"/benchmarks/edit?kind={kind}", new(form) { [$"{prefix}.Rate"] = rate, ["Name"] = "nan " + rate });
            Assert.Equal(HttpStatusCode.BadRequest, editor.StatusCode);
            Assert.Contains("The rate must be between 0", WebUtility.HtmlDecode(await editor.Content.ReadAsStringAsync()));
        }
        Assert.Equal(0, await RunCountAsync(app));
        await using var scope = app.Services.CreateAsyncScope();
        Assert.Equal(0, await scope.ServiceProvider.GetRequiredService<BenchDbContext>().Benchmarks.CountAsync());
    }

    [Fact]
    public async Task ControlCharactersInADirectoryAreA400NamingDirectories()
    {
        await using var app = new DashboardFactory(new() { ["Runner:Embedded"] = "false" });
        var client = app.CreateClient();
        foreach (var directory in new[] { "/tmp\\u0000/etc", "temp\\u0000", "/tmp/a\\nb", "\\u001b[31m" })
        {
            var response = await PostJsonAsync(client, $"{{\"kind\":\"fileSystem\",\"directories\":[\"{directory}\"],\"fileCount\":1}}");
            Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
            Assert.Contains("control characters", (await ErrorsAsync(response)).GetProperty("directories")[0].GetString());
        }
        Assert.Equal(0, await RunCountAsync(app));
    }

    [Fact]
    public async Task InDevelopmentOnLoopbackOnlyLoopbackHostNamesAreAnsweredUnlessAllowedHostsSaysOtherwise()
    {
        await using var app = new DashboardFactory(new() { ["Runner:Embedded"] = "false" });
        var client = app.CreateClient();
        foreach (var host in new[] { "rebind.example", "rebind.example:5080", "127.0.0.2", "localhost.rebind.example" })
        {
            using var page = new HttpRequestMessage(HttpMethod.Get, "/runs/new") { Headers = { Host = host } };
            Assert.Equal(HttpStatusCode.BadRequest, (await client.SendAsync(page)).StatusCode);
            using var post = new HttpRequestMessage(HttpMethod.Post, "/api/runs") { Headers = { Host = host }, Content = JsonContent.Create(new { kind = "cache", requests = 5 }) };
            Assert.Equal(HttpStatusCode.BadRequest, (await client.SendAsync(post)).StatusCode);
        }
        Assert.Equal(0, await RunCountAsync(app));
        foreach (var host in new[] { "localhost", "127.0.0.1:5080", "[::1]:5080" })
        {
            using var page = new HttpRequestMessage(HttpMethod.Get, "/runs/new") { Headers = { Host = host } };
            Assert.Equal(HttpStatusCode.OK, (await client.SendAsync(page)).StatusCode);
        }

        // Configured names are answered instead; in Production (no local mode to abuse) any name is, unless configured.
        await using var named = new DashboardFactory(new() { ["Runner:Embedded"] = "false", ["AllowedHosts"] = "dash.example" });
        using (var request = new HttpRequestMessage(HttpMethod.Get, "/healthz") { Headers = { Host = "dash.example" } })
            Assert.Equal(HttpStatusCode.OK, (await named.CreateClient().SendAsync(request)).StatusCode);
        await using var production = new DashboardFactory(new() { ["Runner:Embedded"] = "false", ["environment"] = "Production" });
        using (var request = new HttpRequestMessage(HttpMethod.Get, "/healthz") { Headers = { Host = "dash.example" } })
            Assert.Equal(HttpStatusCode.OK, (await production.CreateClient().SendAsync(request)).StatusCode);

        // Listening on every interface (ASPNETCORE_HTTP_PORTS, as the .NET container images set it), Development answers any name.
        await using var ports = new DashboardFactory(new() { ["Runner:Embedded"] = "false", ["http_ports"] = "8080" });
        using (var request = new HttpRequestMessage(HttpMethod.Get, "/healthz") { Headers = { Host = "dash.example" } })
            Assert.Equal(HttpStatusCode.OK, (await ports.CreateClient().SendAsync(request)).StatusCode);
        await using var loopbackUrls = new DashboardFactory(new() { ["Runner:Embedded"] = "false", ["http_ports"] = "8080", ["urls"] = "http://127.0.0.1:5080" });
        using (var request = new HttpRequestMessage(HttpMethod.Get, "/healthz") { Headers = { Host = "dash.example" } })
            Assert.Equal(HttpStatusCode.BadRequest, (await loopbackUrls.CreateClient().SendAsync(request)).StatusCode); // urls come first, as for the host
    }

    [Theory]
    [InlineData("true")]  // as App Service for Linux runs it: the framework adds the middleware itself
    [InlineData("false")]
    public async Task BehindAppServicesFrontEndTheClientIsTheHopItReportsNotOneTheClientWrote(string frameworkForwarding)
    {
        await using var app = new DashboardFactory(new()
        {
            ["environment"] = "Production", ["Runner:Embedded"] = "false", ["Agents:Keys:alpha"] = "alpha-key",
            ["Proxies:AppServiceFrontEnd"] = "true", ["FORWARDEDHEADERS_ENABLED"] = frameworkForwarding,
        });
        var client = app.CreateClient();
        var ws = app.Server.CreateWebSocketClient();
        ws.ConfigureRequest = request =>
        {
            request.HttpContext.Connection.RemoteIpAddress = IPAddress.Parse("10.0.0.5"); // the front end
            request.Headers[Core.Agents.AgentProtocol.NameHeader] = "alpha";
            request.Headers.Authorization = "Bearer alpha-key";
            request.Headers["X-Forwarded-Proto"] = "https";
            request.Headers["X-Forwarded-For"] = "6.6.6.6, 198.51.100.7"; // the client wrote the first, the front end added its peer
        };
        using var socket = await ws.ConnectAsync(new Uri("ws://localhost" + Core.Agents.AgentProtocol.Path), CancellationToken.None);
        // The link is registered just after the upgrade completes, not before ConnectAsync returns: wait for it.
        JsonElement? alpha = null;
        for (var wait = System.Diagnostics.Stopwatch.StartNew(); alpha is null && wait.Elapsed < TimeSpan.FromSeconds(10); await Task.Delay(50))
            alpha = (await client.GetFromJsonAsync<JsonElement>("/api/agents")).EnumerateArray().Cast<JsonElement?>().SingleOrDefault(a => a!.Value.GetProperty("name").GetString() == "alpha");
        Assert.NotNull(alpha);
        Assert.Equal("198.51.100.7", alpha.Value.GetProperty("remote").GetString());
    }

    [Fact]
    public async Task EveryPageAndAnswerCarriesTheSecurityHeadersAndNoPageHasInlineScriptOrStyle()
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient(new WebApplicationFactoryClientOptions { AllowAutoRedirect = false });
        // Finished (a refused port fails at once): its page has the Delete and Run again forms.
        var run = await DashboardFactory.CreateRunAsync(client, new { kind = "http", url = "http://127.0.0.1:1/", requests = 5 });
        await DashboardFactory.WaitForEndAsync(client, run);
        int benchmark;
        await using (var scope = app.Services.CreateAsyncScope())
        {
            var (saved, errors) = await scope.ServiceProvider.GetRequiredService<BenchDashboard.Core.Stores.BenchmarkStore>()
                .SaveAsync(null, "headers", new Core.Kinds.Cache.CacheParameters { Requests = 5 }, cron: null, enabled: true, CancellationToken.None);
            Assert.Empty(errors);
            benchmark = saved!.Id;
        }
        string[] pages =
        [
            "/", "/benchmarks", "/benchmarks/edit", "/benchmarks/edit?kind=cache", "/benchmarks/edit?kind=fileSystem", "/benchmarks/edit?kind=table",
            $"/benchmarks/{benchmark}/trend", $"/benchmarks/{benchmark}/aa-check", "/runs/new", "/runs/new?kind=cache", "/runs/new?kind=fileSystem",
            "/runs/new?kind=table", $"/runs/{run}", $"/compare?items={run},{run}", "/compare", "/agents", "/login",
        ];
        string[] others = ["/api/runs", $"/api/runs/{run}", "/healthz", "/css/site.css", "/js/variants.js", "/api-docs/index.html", "/openapi/v1.json",
            "/target/status?code=404", "/runs/999999", "/api/runs/abc", "/nowhere"];
        static void AssertSecurityHeaders(HttpResponseMessage response, string path)
        {
            var headers = response.Headers;
            Assert.True(headers.TryGetValues("Content-Security-Policy", out var csp), $"{path}: no CSP ({(int)response.StatusCode})");
            Assert.Contains("frame-ancestors 'none'", csp!.Single());
            Assert.Contains("script-src 'self';", csp!.Single());
            if (!path.StartsWith("/api-docs", StringComparison.Ordinal)) Assert.Contains("style-src 'self';", csp!.Single());
            Assert.Equal("DENY", headers.GetValues("X-Frame-Options").Single());
            Assert.Equal("nosniff", headers.GetValues("X-Content-Type-Options").Single());
            Assert.Equal("same-origin", headers.GetValues("Referrer-Policy").Single());
        }

        // Host filtering's refusal (in Development on loopback, a name that is not loopback's) carries them too.
        using (var rebound = new HttpRequestMessage(HttpMethod.Get, "/") { Headers = { Host = "rebind.example" } })
        {
            using var refused = await client.SendAsync(rebound);
            Assert.Equal(HttpStatusCode.BadRequest, refused.StatusCode);
            AssertSecurityHeaders(refused, "/ as rebind.example");
        }
        foreach (var path in pages.Concat(others))
        {
            using var response = await client.GetAsync(path);
            AssertSecurityHeaders(response, path);
            if (!pages.Contains(path)) continue;
            Assert.True(response.StatusCode == HttpStatusCode.OK, $"{path}: {(int)response.StatusCode}");
            var html = await response.Content.ReadAsStringAsync();
            Assert.DoesNotMatch(InlineScript(), html);
            Assert.DoesNotMatch(InlineHandlerOrStyle(), html);
            if (path == $"/runs/{run}") Assert.Contains("data-confirm=\"Delete run", html); // the page a frame would abuse, with its forms
        }
    }

    /// <summary>A script element without src that is not a JSON data block.</summary>
    [GeneratedRegex("<script(?![^>]*\\bsrc=)(?![^>]*type=\"application/json\")[^>]*>", RegexOptions.IgnoreCase)]
    private static partial Regex InlineScript();

    [GeneratedRegex("<[a-z][^>]*\\s(on[a-z]+|style)\\s*=", RegexOptions.IgnoreCase)]
    private static partial Regex InlineHandlerOrStyle();

    [Fact]
    public async Task NumbersAreReadStrictlyTheSampleBudgetIsNoticedForCountsAndAFullDiskIsRefused()
    {
        await using var app = new DashboardFactory(new() { ["Runner:Embedded"] = "false", ["RunLimits:MaxSamplesPerRun"] = "1000" });
        var client = app.CreateClient();

        var text = await PostJsonAsync(client, """{"kind":"cache","requests":"5"}""");
        Assert.Equal(HttpStatusCode.BadRequest, text.StatusCode);
        Assert.True((await ErrorsAsync(text)).TryGetProperty("requests", out _));
        var huge = await PostJsonAsync(client, """{"kind":"http","url":"http://127.0.0.1:1/","requests":99999999999}""");
        Assert.Equal(HttpStatusCode.BadRequest, huge.StatusCode);
        Assert.True((await ErrorsAsync(huge)).TryGetProperty("requests", out _));
        Assert.Equal(0, await RunCountAsync(app));

        // 1,000 requests with 100 warm-up: within MaxRequests, past the sample budget of 1,000.
        var warmed = await client.PostAsJsonAsync("/api/runs", new { kind = "http", url = "http://127.0.0.1:1/", requests = 1_000, warmupRequests = 100 });
        Assert.Equal(HttpStatusCode.Created, warmed.StatusCode);
        var notice = (await warmed.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("notices")[0].GetString();
        Assert.StartsWith("This run asks for about 1,100 samples, warm-up included; a run stores at most 1,000", notice);
        var within = await client.PostAsJsonAsync("/api/runs", new { kind = "http", url = "http://127.0.0.1:1/", requests = 900, warmupRequests = 100 });
        Assert.False((await within.Content.ReadFromJsonAsync<JsonElement>()).TryGetProperty("notices", out var none) && none.ValueKind == JsonValueKind.Array);

        // A disk that cannot hold the files and keep FileSystem:KeepFreeMiB free: refused before anything is queued.
        await using var full = new DashboardFactory(new() { ["Runner:Embedded"] = "false", ["FileSystem:KeepFreeMiB"] = int.MaxValue.ToString() });
        var refused = await PostJsonAsync(full.CreateClient(), """{"kind":"fileSystem","directories":["temp"],"fileCount":100,"fileBytes":1000,"largeFileMiB":1}""");
        Assert.Equal(HttpStatusCode.BadRequest, refused.StatusCode);
        Assert.Contains("to spare", (await ErrorsAsync(refused)).GetProperty("fileCount")[0].GetString());
        Assert.Equal(0, await RunCountAsync(full));
    }

    [Fact]
    public async Task TheStatusTargetRefusesInterimCodes()
    {
        await using var app = new DashboardFactory(new() { ["Runner:Embedded"] = "false" });
        var client = app.CreateClient();
        foreach (var code in new[] { 100, 101, 102, 103, 199, 0, -1, 600 })
        {
            var response = await client.GetAsync($"/target/status?code={code}");
            Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
            Assert.True((await ErrorsAsync(response)).TryGetProperty("code", out _));
        }
        Assert.Equal(HttpStatusCode.NoContent, (await client.GetAsync("/target/status?code=204")).StatusCode);
        Assert.Equal((HttpStatusCode)599, (await client.GetAsync("/target/status?code=599")).StatusCode);
    }
}
