using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using BenchDashboard.Core.Data;
using BenchDashboard.TestSupport;
using BenchDashboard.Web.Tests.Pages;
using Microsoft.AspNetCore.DataProtection;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;

namespace BenchDashboard.Web.Tests.Security;

/// <summary>
/// Two dashboards on one PostgreSQL database, as two App Service instances behind one address: the key ring and
/// the fingerprint key are the database's, so a sign-in on one is a sign-in on the other, a form one served posts
/// to the other, and both show a secret with the same fingerprint. A dashboard on another database (another key
/// ring) refuses the same cookie and form: what the test sees is the shared ring, not a lenient check.
/// </summary>
public sealed class SharedKeyRingTests
{
    const string Password = "correct horse battery staple", Key = "shared-ring-key";

    static Dictionary<string, string?> On(TestDatabase database, TempDirectory noOldRing) => new()
    {
        ["Database:Provider"] = "postgresql", ["ConnectionStrings:results"] = database.ConnectionString,
        ["Database:LegacyKeyRingPath"] = noOldRing.Path, // no ring on disk to copy in: each database's ring is its own
        ["Auth:Required"] = "always", ["Auth:ApiKey"] = Key, ["Auth:AdminPassword"] = Password,
    };

    static readonly WebApplicationFactoryClientOptions Manual = new() { AllowAutoRedirect = false, HandleCookies = false };

    [Fact]
    public async Task ASignInAFormAndFingerprintsFromOneDashboardHoldOnAnotherOnTheSameDatabase()
    {
        await using var database = await TestDatabase.CreateAsync("postgresql");
        await using var elsewhere = await TestDatabase.CreateAsync("postgresql");
        using var noOldRing = new TempDirectory();
        await using var a = new DashboardFactory(On(database, noOldRing));
        await using var b = new DashboardFactory(On(database, noOldRing));
        await using var other = new DashboardFactory(On(elsewhere, noOldRing));
        // A and B start at once: they take turns making the ring, so there is one first key, not one each.
        var clients = await Task.WhenAll(Task.Run(() => a.CreateClient(Manual)), Task.Run(() => b.CreateClient(Manual)), Task.Run(() => other.CreateClient(Manual)));
        var (onA, onB, onOther) = (clients[0], clients[1], clients[2]);

        // Signed in on A, with A's form.
        var jar = new CookieJar();
        var login = await jar.SendAsync(onA, HttpMethod.Get, "/login");
        var signIn = await jar.SendAsync(onA, HttpMethod.Post, "/login", [new("Password", Password), new("__RequestVerificationToken", FormPost.Token(await login.Content.ReadAsStringAsync()))]);
        Assert.Equal(HttpStatusCode.Redirect, signIn.StatusCode);
        Assert.True(jar.Has("BenchDashboard.Admin"), "no sign-in cookie");
        var form = await jar.SendAsync(onA, HttpMethod.Get, "/runs/new?kind=cache");
        List<KeyValuePair<string, string>> fields =
        [
            new("Cache.Backend", "memory"), new("Cache.Mode", "requests"), new("Cache.Requests", "10"), new("Cache.KeyCount", "5"), new("Cache.ValueBytes", "8"),
            new("Cache.Concurrency", "1"), new("Cache.TimeoutMs", "1000"), new("Cache.KeyPrefix", "shared"), new("Cache.Phases", "write"),
            new("__RequestVerificationToken", FormPost.Token(await form.Content.ReadAsStringAsync())),
        ];

        // Posted to B: B reads A's cookie and A's anti-forgery token, and queues the run.
        var queued = await jar.SendAsync(onB, HttpMethod.Post, "/runs/new?kind=cache", fields);
        Assert.Equal(HttpStatusCode.Redirect, queued.StatusCode);
        Assert.StartsWith("/runs/", queued.Headers.Location!.ToString());
        // The same post to a dashboard with a ring of its own is refused.
        var refused = await jar.SendAsync(onOther, HttpMethod.Post, "/runs/new?kind=cache", fields);
        Assert.False(refused.StatusCode == HttpStatusCode.Redirect && refused.Headers.Location!.ToString().StartsWith("/runs/"), "a dashboard on another database took the form");
        Assert.Empty((await onOther.GetFromJsonAsync<JsonElement>("/api/runs")).EnumerateArray());

        // A secret queued on A shows with the same fingerprint on A and B.
        var create = new HttpRequestMessage(HttpMethod.Post, "/api/runs")
        {
            Content = JsonContent.Create(new { kind = "http", url = "http://user:pw-secret@127.0.0.1:1/x?apikey=q-secret", requests = 1, timeoutMs = 500 }),
        };
        create.Headers.Add("X-Api-Key", Key);
        var created = await onA.SendAsync(create);
        Assert.Equal(HttpStatusCode.Created, created.StatusCode);
        var id = (await created.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("id").GetInt64();
        var shownOnA = (await onA.GetFromJsonAsync<JsonElement>($"/api/runs/{id}?includeStats=false")).GetProperty("parameters").GetProperty("url").GetString();
        var shownOnB = (await onB.GetFromJsonAsync<JsonElement>($"/api/runs/{id}?includeStats=false")).GetProperty("parameters").GetProperty("url").GetString();
        Assert.Contains("(hidden, ", shownOnA);
        Assert.DoesNotContain("secret", shownOnA);
        Assert.Equal(shownOnA, shownOnB);

        // Whatever either made, each reads the other's: what B protects now, A unprotects, and the other way round.
        // (Usually one key, though A and B started together; a second made meanwhile is in the ring both read.)
        var onRingA = a.Services.GetRequiredService<IDataProtectionProvider>().CreateProtector("shared-ring-test");
        var onRingB = b.Services.GetRequiredService<IDataProtectionProvider>().CreateProtector("shared-ring-test");
        Assert.Equal("from B", onRingA.Unprotect(onRingB.Protect("from B")));
        Assert.Equal("from A", onRingB.Unprotect(onRingA.Protect("from A")));
        await using var scope = a.Services.CreateAsyncScope();
        Assert.InRange(await scope.ServiceProvider.GetRequiredService<BenchDbContext>().KeyRing.CountAsync(), 1, 2);
    }

    /// <summary>Cookies carried by hand, so that what one dashboard set can be sent to another.</summary>
    sealed class CookieJar
    {
        readonly Dictionary<string, string> cookies = [];

        public bool Has(string name) => cookies.ContainsKey(name);

        public async Task<HttpResponseMessage> SendAsync(HttpClient client, HttpMethod method, string path, List<KeyValuePair<string, string>>? form = null)
        {
            var request = new HttpRequestMessage(method, path);
            if (form is not null) request.Content = new FormUrlEncodedContent(form);
            if (cookies.Count > 0) request.Headers.Add("Cookie", string.Join("; ", cookies.Select(c => $"{c.Key}={c.Value}")));
            var response = await client.SendAsync(request);
            if (response.Headers.TryGetValues("Set-Cookie", out var set))
                foreach (var pair in set.Select(v => v.Split(';')[0]))
                    cookies[pair[..pair.IndexOf('=')]] = pair[(pair.IndexOf('=') + 1)..];
            return response;
        }
    }
}
