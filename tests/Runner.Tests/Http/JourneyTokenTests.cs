using System.Net.Http.Json;
using BenchDashboard.Core;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Kinds.Http.Journeys;
using BenchDashboard.Core.Runs;
using BenchDashboard.TestSupport;

namespace BenchDashboard.Runner.Tests.Http;

/// <summary>
/// Token steps through Azure.Identity's ManagedIdentityCredential against the target's stand-in for App Service's
/// identity endpoint, announced as the platform does, by IDENTITY_ENDPOINT and IDENTITY_HEADER in this process's
/// environment (Azure.Identity reads them; the tests of this project run one at a time).
/// </summary>
public sealed class JourneyTokenTests
{
    const string Scope = "api://bench-target/.default";

    /// <summary>Points Azure.Identity at the stand-in (<paramref name="path"/>: /identity/{lifetime s}/{delay ms}/token) until disposed.</summary>
    sealed class IdentityEndpoint : IDisposable
    {
        public IdentityEndpoint(KestrelTarget target, string path)
        {
            Environment.SetEnvironmentVariable("IDENTITY_ENDPOINT", target.Url(path).ToString());
            Environment.SetEnvironmentVariable("IDENTITY_HEADER", "stand-in-secret");
        }

        public void Dispose()
        {
            Environment.SetEnvironmentVariable("IDENTITY_ENDPOINT", null);
            Environment.SetEnvironmentVariable("IDENTITY_HEADER", null);
        }
    }

    sealed record Issued(string Token, string Resource, string? ClientId, long ExpiresOn);

    static async Task<List<Issued>> IssuedAsync(KestrelTarget target)
    {
        using var client = new HttpClient();
        return (await client.GetFromJsonAsync<List<Issued>>(target.Url("/identity/issued"), Json.Options))!;
    }

    static HttpStep Token(string? clientId = null) => new() { Name = "token", Token = new() { Scope = Scope, ClientId = clientId } };

    // The target's orders answer names the user a token belongs to: "identity" for the stand-in's tokens.
    static HttpStep Orders(KestrelTarget target, string thinkMs = "0") => new()
    {
        Name = "orders",
        Url = target.Url("/journey/orders").ToString(),
        Headers = new() { ["Authorization"] = "Bearer {{token}}" },
        Extract = [new() { Name = "first", Json = "$.items[0].id" }],
        Checks = [new() { Status = 200 }, new() { Json = "$.user", EqualTo = "identity" }],
        ThinkTime = new() { Ms = double.Parse(thinkMs) },
    };

    static HttpStep Detail(KestrelTarget target) => new()
    {
        Name = "detail",
        Url = target.Url("/journey/orders/").ToString() + "{{first}}",
        Headers = new() { ["Authorization"] = "Bearer {{token}}" },
        Checks = [new() { Status = 200 }],
    };

    static List<Sample> Of(List<Sample> samples, string series) => samples.Where(s => s.Series == series && !s.IsWarmup).ToList();

    /// <summary>Nothing the run keeps (its samples, its notes) holds any token the endpoint issued.</summary>
    static void HoldsNoToken(IEnumerable<Issued> issued, List<Sample> samples, RunNotes notes)
    {
        var kept = Json.Serialize(samples) + Json.Serialize(notes);
        foreach (var token in issued) Assert.DoesNotContain(token.Token, kept);
    }

    [Fact]
    public async Task TheNextStepsSendTheTokenAndItIsRenewedBeforeItExpiresWithOneFetchAtATime()
    {
        await using var target = await KestrelTarget.StartAsync();
        // Tokens good for 5 s in a 7 s run on 4 workers: renewed halfway, never past their expiry (the target would answer 401).
        using var _ = new IdentityEndpoint(target, "/identity/5/0/token");
        var p = new HttpParameters { Steps = [Token(), Orders(target, thinkMs: "5"), Detail(target)], DurationSeconds = 7, Concurrency = 4 };
        Assert.Empty(HttpParametersValidator.Validate(p, new RunLimits()));

        var (samples, _, notes) = await HttpRun.ExecuteWithNotesAsync(p);

        var issued = await IssuedAsync(target);
        // At least one renewal, and no stampede: about one fetch every 2.5 s, whatever the number of workers.
        Assert.InRange(issued.Count, 2, 5);
        Assert.All(issued, t => Assert.Equal("api://bench-target", t.Resource));
        var orders = Of(samples, "orders");
        Assert.True(orders.Count > 100, $"{orders.Count} orders");
        Assert.All(orders.Concat(Of(samples, "detail")), s => { Assert.Equal(ErrorKind.None, s.Error); Assert.Equal(200, s.StatusCode); });
        Assert.All(Of(samples, "iteration"), s => Assert.Equal(ErrorKind.None, s.Error));
        Assert.Empty(Of(samples, "token")); // getting a cached token is not a request
        Assert.Empty(notes.ErrorMessages);
        Assert.Contains(notes.Notes, n => n.Contains($"Tokens from Microsoft Entra (managed identity, scope {Scope}: {issued.Count} fetched, none failed)"));
        HoldsNoToken(issued, samples, notes);
    }

    [Fact]
    public async Task TheTimeSpentGettingATokenIsInNoStepsNorIterationsLatency()
    {
        await using var target = await KestrelTarget.StartAsync();
        // Each fetch takes 800 ms and a token lasts 3 s: the first fetch and the renewals all fall inside iterations
        // (800 ms, not less: on a loaded machine a thread can stall for a few hundred ms, and that is not the fetch).
        using var _ = new IdentityEndpoint(target, "/identity/3/800/token");
        var p = new HttpParameters { Steps = [Token(), Orders(target)], DurationSeconds = 5, Concurrency = 2 };

        var (samples, _, notes) = await HttpRun.ExecuteWithNotesAsync(p);

        Assert.True((await IssuedAsync(target)).Count >= 2);
        var measured = samples.Where(s => !s.IsWarmup).ToList();
        Assert.True(Of(samples, "iteration").Count > 50);
        Assert.True(notes.ErrorMessages.Count == 0, string.Join("; ", notes.ErrorMessages));
        Assert.All(measured, s => Assert.Equal(ErrorKind.None, s.Error));
        var slowest = measured.MaxBy(s => s.LatencyNs)!;
        Assert.True(slowest.LatencyNs < 800_000_000, $"{slowest.Series} took {slowest.LatencyNs / 1e6:F1} ms at {slowest.OffsetNs / 1e6:F0} ms: a fetch's 800 ms is in it");
        Assert.Empty(notes.ErrorMessages);
    }

    [Fact]
    public async Task AFailedFetchIsAnErrorOfTheTokenStepThatEndsItsIterationAndQuotesNoToken()
    {
        await using var target = await KestrelTarget.StartAsync();
        using var _ = new IdentityEndpoint(target, "/identity/fail/token");
        var p = new HttpParameters { Steps = [Token(clientId: "0b5a8c2e-8d8f-4a1e-9a61-7f1f8b1d3c4e"), Orders(target)], Requests = 3, Concurrency = 1 };

        var (samples, _, notes) = await HttpRun.ExecuteWithNotesAsync(p);

        var token = Of(samples, "token");
        Assert.Equal(3, token.Count);
        Assert.All(token, s => { Assert.Equal(ErrorKind.Other, s.Error); Assert.Equal(0, s.LatencyNs); Assert.Null(s.StatusCode); });
        Assert.Empty(Of(samples, "orders"));
        Assert.All(Of(samples, "iteration"), s => Assert.Equal(ErrorKind.Other, s.Error));
        var error = Assert.Single(notes.ErrorMessages);
        Assert.Equal(3, error.Count);
        Assert.StartsWith("token: no token from Microsoft Entra: ", error.Message);
        // The exception's type and the platform's reason, as Azure.Identity quotes it.
        Assert.Contains(": AuthenticationFailedException: ", error.Message);
        Assert.True(error.Message.Contains("No managed identity is assigned to this app for that resource."), error.Message);
        Assert.DoesNotContain('\n', error.Message);
        Assert.Contains(notes.Notes, n => n.Contains("(managed identity, client id 0b5a8c2e-8d8f-4a1e-9a61-7f1f8b1d3c4e, scope api://bench-target/.default: 0 fetched, 3 failed)"));
        Assert.Equal(0, long.Parse(await new HttpClient().GetStringAsync(target.Url("/journey/served"))));
    }
}
