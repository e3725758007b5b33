using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using System.Text.RegularExpressions;
using BenchDashboard.Web.Security;
using BenchDashboard.Web.Tests.Pages;
using Microsoft.AspNetCore.Mvc.Testing;

namespace BenchDashboard.Web.Tests.Security;

/// <summary>Off loopback (simulated with Auth:Required=always), nothing is started, changed or cancelled without an administrator.</summary>
public class AdminGateTests
{
    const string Key = "test-api-key-123";
    const string Password = "correct horse battery staple";

    static DashboardFactory Exposed(bool publicRead = true) => new(new()
    {
        ["Auth:Required"] = "always", ["Auth:ApiKey"] = Key, ["Auth:AdminPassword"] = Password, ["Auth:PublicRead"] = publicRead.ToString(),
    });

    static readonly object CacheRun = new { kind = "cache", requests = 10, keyCount = 5 };

    [Fact]
    public async Task TheApiRefusesMutationsWithoutTheKeyAndAcceptsThemWithIt()
    {
        await using var app = Exposed();
        var client = app.CreateClient();

        var anonymous = await client.PostAsJsonAsync("/api/runs", CacheRun);
        Assert.Equal(HttpStatusCode.Unauthorized, anonymous.StatusCode);
        Assert.Contains("X-Api-Key", await anonymous.Content.ReadAsStringAsync());
        var wrongKey = new HttpRequestMessage(HttpMethod.Post, "/api/runs") { Content = JsonContent.Create(CacheRun) };
        wrongKey.Headers.Add("X-Api-Key", Key + "x");
        Assert.Equal(HttpStatusCode.Unauthorized, (await client.SendAsync(wrongKey)).StatusCode);
        Assert.Equal(0, (await client.GetFromJsonAsync<JsonElement>("/api/runs")).GetArrayLength()); // reads stay public; nothing was queued

        var withKey = new HttpRequestMessage(HttpMethod.Post, "/api/runs") { Content = JsonContent.Create(CacheRun) };
        withKey.Headers.Add("X-Api-Key", Key);
        var created = await client.SendAsync(withKey);
        Assert.Equal(HttpStatusCode.Created, created.StatusCode);
        var id = (await created.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("id").GetInt64();
        await DashboardFactory.WaitForEndAsync(client, id);

        Assert.Equal(HttpStatusCode.Unauthorized, (await client.PostAsync($"/api/runs/{id}/cancel", null)).StatusCode);
        var bearer = new HttpRequestMessage(HttpMethod.Post, $"/api/runs/{id}/cancel");
        bearer.Headers.Authorization = new("Bearer", Key);
        Assert.Equal(HttpStatusCode.Conflict, (await client.SendAsync(bearer)).StatusCode); // allowed; the run has ended
    }

    [Fact]
    public async Task FormsNeedASignInAndTheApiDoesNotTakeTheCookie()
    {
        await using var app = Exposed();
        var client = app.CreateClient(new WebApplicationFactoryClientOptions { AllowAutoRedirect = false });
        var form = await client.GetStringAsync("/runs/new?kind=cache");
        var token = FormPost.Token(form);
        List<KeyValuePair<string, string>> fields =
        [
            new("Cache.Backend", "memory"), new("Cache.Mode", "requests"), new("Cache.Requests", "10"), new("Cache.KeyCount", "5"), new("Cache.ValueBytes", "8"),
            new("Cache.Concurrency", "1"), new("Cache.TimeoutMs", "1000"), new("Cache.KeyPrefix", "auth"), new("Cache.Phases", "write"), new("__RequestVerificationToken", token),
        ];

        var refused = await client.PostAsync("/runs/new?kind=cache", new FormUrlEncodedContent(fields));
        Assert.Equal(HttpStatusCode.Redirect, refused.StatusCode);
        Assert.StartsWith("/login?returnUrl=", refused.Headers.Location!.ToString());

        var login = await client.GetStringAsync("/login");
        var bad = await client.PostAsync("/login", new FormUrlEncodedContent([new("Password", "guess"), new("__RequestVerificationToken", FormPost.Token(login))]));
        Assert.Contains("not the administrator password", await bad.Content.ReadAsStringAsync());
        var good = await client.PostAsync("/login", new FormUrlEncodedContent([new("Password", Password), new("ReturnUrl", "https://evil.example/"), new("__RequestVerificationToken", FormPost.Token(login))]));
        Assert.Equal("/", good.Headers.Location!.ToString()); // never redirects off the site

        var signedIn = await client.GetStringAsync("/runs/new?kind=cache");
        fields[^1] = new("__RequestVerificationToken", FormPost.Token(signedIn));
        var queued = await client.PostAsync("/runs/new?kind=cache", new FormUrlEncodedContent(fields));
        Assert.Equal(HttpStatusCode.Redirect, queued.StatusCode);
        Assert.StartsWith("/runs/", queued.Headers.Location!.ToString());

        // The sign-in cookie is not a key: a cross-site form could send it to the API.
        Assert.Equal(HttpStatusCode.Unauthorized, (await client.PostAsJsonAsync("/api/runs", CacheRun)).StatusCode);
    }

    [Fact]
    public async Task WithoutPublicReadEvenPagesNeedASignInButTheHealthProbeAndTargetsDoNot()
    {
        await using var app = Exposed(publicRead: false);
        var client = app.CreateClient(new WebApplicationFactoryClientOptions { AllowAutoRedirect = false });

        Assert.Equal(HttpStatusCode.Redirect, (await client.GetAsync("/")).StatusCode);
        Assert.Equal(HttpStatusCode.Unauthorized, (await client.GetAsync("/api/runs")).StatusCode);
        Assert.Equal(HttpStatusCode.OK, (await client.GetAsync("/target/bytes?size=10")).StatusCode);
        Assert.Equal(HttpStatusCode.OK, (await client.GetAsync("/login")).StatusCode);
    }

    [Fact]
    public async Task ARequestThroughAProxyNeedsTheAdministratorEvenOnLoopbackInDevelopment()
    {
        await using var app = new DashboardFactory(new() { ["Auth:ApiKey"] = Key }); // Required=auto, Development, in-memory server
        var client = app.CreateClient();

        Assert.Equal(HttpStatusCode.Created, (await client.PostAsJsonAsync("/api/runs", CacheRun)).StatusCode); // loopback, Development: open
        var proxied = new HttpRequestMessage(HttpMethod.Post, "/api/runs") { Content = JsonContent.Create(CacheRun) };
        proxied.Headers.Add("X-Forwarded-For", "203.0.113.9");
        Assert.Equal(HttpStatusCode.Unauthorized, (await client.SendAsync(proxied)).StatusCode);
    }

    [Fact]
    public async Task EasyAuthPrincipalsAreAdministratorsOnlyWhenListed()
    {
        await using var app = new DashboardFactory(new()
        {
            ["Auth:Required"] = "always", ["Auth:TrustEasyAuth"] = "true", ["Auth:Admins:0"] = "alice@contoso.com",
        });
        var client = app.CreateClient(new WebApplicationFactoryClientOptions { AllowAutoRedirect = false });

        async Task<HttpStatusCode> EditorAs(string principal)
        {
            var request = new HttpRequestMessage(HttpMethod.Get, "/benchmarks/edit");
            request.Headers.Add("X-MS-CLIENT-PRINCIPAL-NAME", principal);
            return (await client.SendAsync(request)).StatusCode;
        }

        Assert.Equal(HttpStatusCode.OK, await EditorAs("alice@contoso.com"));
        Assert.Equal(HttpStatusCode.Redirect, await EditorAs("mallory@example.com")); // signed in to App Service, not an administrator
        Assert.Equal(HttpStatusCode.Redirect, (await client.GetAsync("/benchmarks/edit")).StatusCode); // the editor shows secrets: admin only
        Assert.Equal(HttpStatusCode.OK, (await client.GetAsync("/benchmarks")).StatusCode);            // the list is public
    }

    [Fact]
    public async Task TargetCredentialsAreHiddenWhereverSignInIsOffExceptInTheLocalMode()
    {
        // Auth:Required=never on a shared host: anyone may start runs, nobody is shown a target's credentials.
        await using var open = new DashboardFactory(new() { ["Auth:Required"] = "never" });
        var client = open.CreateClient();
        var id = await DashboardFactory.CreateRunAsync(client, new { kind = "http", url = "http://127.0.0.1:1/?ms=2&sig=do-not-leak-sig", requests = 1, timeoutMs = 500, headers = new Dictionary<string, string> { ["Authorization"] = "Bearer do-not-leak" } });
        await DashboardFactory.WaitForEndAsync(client, id);
        foreach (var path in new[] { $"/api/runs/{id}", $"/runs/{id}", "/api/runs" })
        {
            var text = await client.GetStringAsync(path);
            Assert.DoesNotContain("do-not-leak", text);
            Assert.Contains("ms=2", text); // a setting, not a credential: what a comparison is about
        }

        // The local mode (Development, loopback only, no proxy): the reader is at this machine and may change
        // anything, so is the administrator, and sees the run as it was asked for.
        await using var local = new DashboardFactory();
        client = local.CreateClient();
        id = await DashboardFactory.CreateRunAsync(client, new { kind = "http", url = "http://127.0.0.1:1/?ms=2", requests = 1, timeoutMs = 500, headers = new Dictionary<string, string> { ["Authorization"] = "Bearer mine" } });
        await DashboardFactory.WaitForEndAsync(client, id);
        Assert.Contains("http://127.0.0.1:1/?ms=2", await client.GetStringAsync($"/api/runs/{id}"));
        Assert.Contains("Bearer mine", await client.GetStringAsync($"/api/runs/{id}"));

        // Through a proxy the same app is no longer local: fingerprints again.
        var proxied = new HttpRequestMessage(HttpMethod.Get, $"/api/runs/{id}");
        proxied.Headers.Add("X-Forwarded-For", "203.0.113.9");
        Assert.DoesNotContain("Bearer mine", await (await client.SendAsync(proxied)).Content.ReadAsStringAsync());
    }

    [Theory]
    [InlineData(true, "http://127.0.0.1:5080")]
    [InlineData(true, "http://localhost:5000", "http://[::1]:5000")]
    [InlineData(false, "http://0.0.0.0:8080")]
    [InlineData(false, "http://+:8080")]
    [InlineData(false, "http://*:80")]
    [InlineData(false, "http://[::]:8080")]
    [InlineData(false, "http://127.0.0.1:5080", "http://10.0.0.4:5080")]
    public void OnlyLoopbackAddressesCountAsLoopbackOnly(bool expected, params string[] addresses) =>
        Assert.Equal(expected, AccessRules.LoopbackOnly(addresses));

    [Fact]
    public async Task InLocalModeAPageOfAnotherSiteChangesNothingWhateverItSends()
    {
        await using var app = new DashboardFactory(); // Development, loopback, no proxy: the local mode
        var client = app.CreateClient();
        var own = client.BaseAddress!.GetLeftPart(UriPartial.Authority); // the in-memory server's own origin
        HttpRequestMessage Post(string path, string? body, string contentType = "application/json", params (string, string)[] headers)
        {
            var request = new HttpRequestMessage(HttpMethod.Post, path);
            if (body is not null)
            {
                request.Content = new ByteArrayContent(System.Text.Encoding.UTF8.GetBytes(body));
                request.Content.Headers.TryAddWithoutValidation("Content-Type", contentType); // as a browser sends it, parsed or not
            }
            foreach (var (name, value) in headers) request.Headers.TryAddWithoutValidation(name, value);
            return request;
        }
        var cache = System.Text.Json.JsonSerializer.Serialize(CacheRun);

        // What a browser sends across sites without asking first: a text body that only mentions JSON.
        Assert.Equal(HttpStatusCode.UnsupportedMediaType, (await client.SendAsync(Post("/api/runs", cache, "text/plain; x=+json"))).StatusCode);
        Assert.Equal(HttpStatusCode.UnsupportedMediaType, (await client.SendAsync(Post("/api/runs", cache, "application/vnd.example+json"))).StatusCode);
        Assert.Equal(HttpStatusCode.UnsupportedMediaType, (await client.SendAsync(Post("/api/benchmarks/import", "{\"benchmarks\":[]}", "text/plain"))).StatusCode);
        // A page of another site, another port of localhost included (the same site to a browser, another origin).
        // (A page on a host other than this machine is not local at all: the key is asked for, 401.)
        foreach (var headers in new[] { new[] { ("Origin", "http://localhost:5196") }, [("Origin", "https://evil.example")], [("Sec-Fetch-Site", "cross-site")], [("Sec-Fetch-Site", "same-site"), ("Origin", "http://localhost:5196")] })
            foreach (var (path, body) in new[] { ("/api/runs", cache), ("/api/runs/1/cancel", null), ("/api/benchmarks/import", "{\"benchmarks\":[]}"), ("/api/benchmarks/1/runs", null) })
            {
                var status = (await client.SendAsync(Post(path, body, headers: headers))).StatusCode;
                Assert.True(status is HttpStatusCode.Forbidden or HttpStatusCode.Unauthorized, $"{path} with {string.Join(", ", headers)}: {status}");
            }
        Assert.Equal(0, (await client.GetFromJsonAsync<JsonElement>("/api/runs")).GetArrayLength());

        // The dashboard's own pages, and clients that are not browsers, still may.
        Assert.Equal(HttpStatusCode.Created, (await client.SendAsync(Post("/api/runs", cache, headers: [("Origin", own), ("Sec-Fetch-Site", "same-origin")]))).StatusCode);
        Assert.Equal(HttpStatusCode.Created, (await client.SendAsync(Post("/api/runs", cache, "application/json; charset=utf-8"))).StatusCode);
    }

    [Fact]
    public async Task AProxyThatAddsNoForwardingHeaderStillEndsTheLocalMode()
    {
        await using var app = new DashboardFactory(new() { ["Auth:ApiKey"] = Key });
        var client = app.CreateClient();
        var id = await DashboardFactory.CreateRunAsync(client, new { kind = "http", url = "http://127.0.0.1:1/", requests = 1, timeoutMs = 500, headers = new Dictionary<string, string> { ["Authorization"] = "Bearer mine" } });
        await DashboardFactory.WaitForEndAsync(client, id);

        // nginx's proxy_pass as it comes: HTTP/1.0 to the app, no X-Forwarded-For.
        var viaNginx = new HttpRequestMessage(HttpMethod.Post, "/api/runs") { Content = JsonContent.Create(CacheRun), Version = HttpVersion.Version10, VersionPolicy = HttpVersionPolicy.RequestVersionExact };
        Assert.Equal(HttpStatusCode.Unauthorized, (await client.SendAsync(viaNginx)).StatusCode);
        var read = new HttpRequestMessage(HttpMethod.Get, $"/api/runs/{id}") { Version = HttpVersion.Version10, VersionPolicy = HttpVersionPolicy.RequestVersionExact };
        Assert.DoesNotContain("Bearer mine", await (await client.SendAsync(read)).Content.ReadAsStringAsync());
        // A browser behind any proxy says which page it came from, on a host that is not this machine.
        var fromAfar = new HttpRequestMessage(HttpMethod.Get, $"/runs/{id}");
        fromAfar.Headers.Referrer = new Uri("https://bench.public.example/runs");
        Assert.DoesNotContain("Bearer mine", await (await client.SendAsync(fromAfar)).Content.ReadAsStringAsync());
        var via = new HttpRequestMessage(HttpMethod.Post, "/api/runs") { Content = JsonContent.Create(CacheRun) };
        via.Headers.Via.ParseAdd("1.1 proxy.example");
        Assert.Equal(HttpStatusCode.Unauthorized, (await client.SendAsync(via)).StatusCode);
        Assert.Contains("Bearer mine", await client.GetStringAsync($"/api/runs/{id}")); // this machine's own reader still is the administrator
    }
}
