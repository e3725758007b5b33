using System.Net.Security;
using System.Security.Authentication;
using System.Text;
using System.Text.Json;
using Azure;
using Azure.Core;
using BenchDashboard.Core.Kinds.Tables;
using BenchDashboard.Runner.Tables;
using BenchDashboard.TestSupport;

namespace BenchDashboard.Runner.Tests.Tables;

/// <summary>
/// Microsoft Entra sign-in through the SDK's bearer-token path, against Azurite over HTTPS checking tokens
/// (--oauth basic: issuer, audience, lifetime). The client trusts exactly the certificate this test made.
/// </summary>
public sealed class TableEntraTests
{
    const string Tenant = "https://sts.windows.net/72f988bf-86f1-41af-91ab-2d7cd011db47/";

    /// <summary>Hands out one fixed token and remembers what it was asked for, as a managed identity would be.</summary>
    sealed class FixedTokenCredential(string token) : TokenCredential
    {
        readonly List<string[]> requests = [];
        public IReadOnlyList<string[]> Requests { get { lock (requests) return requests.ToList(); } }

        public override AccessToken GetToken(TokenRequestContext context, CancellationToken ct)
        {
            lock (requests) requests.Add(context.Scopes);
            return new AccessToken(token, DateTimeOffset.UtcNow.AddHours(1));
        }

        public override ValueTask<AccessToken> GetTokenAsync(TokenRequestContext context, CancellationToken ct) => new(GetToken(context, ct));
    }

    /// <summary>An unsigned-looking JWT with the claims Azurite's basic check reads (it does not verify signatures).</summary>
    static string Jwt(string audience = "https://storage.azure.com", string issuer = Tenant, int expiresInMinutes = 60)
    {
        static string Part(object value) => Convert.ToBase64String(JsonSerializer.SerializeToUtf8Bytes(value)).TrimEnd('=').Replace('+', '-').Replace('/', '_');
        var now = DateTimeOffset.UtcNow.ToUnixTimeSeconds();
        var claims = new { aud = audience, iss = issuer, iat = now - 600, nbf = now - 600, exp = now + expiresInMinutes * 60, oid = Guid.NewGuid() };
        return $"{Part(new { alg = "RS256", typ = "JWT" })}.{Part(claims)}.{Part("not-a-signature")}";
    }

    static TableConnection Connect(Azurite azurite, TokenCredential credential, string table, RemoteCertificateValidationCallback? trust = null)
    {
        var account = TableAccount.Parse($"TableEndpoint={azurite.Endpoint};Credential=ManagedIdentity");
        return new TableConnection(new TableTarget(account, credential, trust ?? LoopbackCertificate.TrustOnly(azurite.Certificate!)), table,
            new TableVariant(TableOperation.Batch, Expect100Continue: true, Nagle: false), TimeSpan.FromSeconds(10));
    }

    static List<BenchEntity> Entities(string partition, int count) =>
        Enumerable.Range(0, count).Select(i => new BenchEntity(partition, $"r{i:D3}", new string('x', 100))).ToList();

    [Fact]
    public async Task AManagedIdentitysTokenAuthorisesEveryCallOverHttps()
    {
        await using var azurite = await Azurite.StartWithOAuthAsync();
        var credential = new FixedTokenCredential(Jwt());
        using var connection = Connect(azurite, credential, "entra");
        var client = connection.Client;

        Assert.True(await client.CreateTableIfNotExistsAsync(default));
        Assert.Equal(204, (await client.InsertAsync(new BenchEntity("p", "single", "x"), default)).Status);
        Assert.Equal(Enumerable.Repeat(204, 10), (await client.SubmitBatchAsync(Entities("p", 10), default)).OperationStatuses);
        Assert.Equal(11, await client.CountAsync("p", default));
        Assert.Equal(11, await client.DeleteEntitiesAsync("p", default));

        // The storage audience, asked for once: the SDK caches the token for the client's later calls.
        Assert.Equal(["https://storage.azure.com/.default"], Assert.Single(credential.Requests));
    }

    [Theory]
    [InlineData("expired", "Lifetime validation failed. The token is expired.")]
    [InlineData("audience", "Invalid token audience.")]
    [InlineData("issuer", "Invalid token issuer.")]
    public async Task ATokenTheServiceRefusesStopsAtTheFirstCallWithTheServicesReason(string fault, string reason)
    {
        await using var azurite = await Azurite.StartWithOAuthAsync();
        var token = fault switch
        {
            "expired" => Jwt(expiresInMinutes: -5),
            "audience" => Jwt(audience: "https://vault.azure.net"),
            _ => Jwt(issuer: "https://issuer.example/"),
        };
        var credential = new FixedTokenCredential(token);
        using var connection = Connect(azurite, credential, "refused");

        var refused = await Assert.ThrowsAsync<TableServiceException>(() => connection.Client.CreateTableIfNotExistsAsync(default));

        Assert.Equal(403, refused.Status);
        Assert.Equal($"403 AuthenticationFailed: Server failed to authenticate the request. Make sure the value of the Authorization header is formed correctly including the signature. ({reason})", refused.Message);
        Assert.Single(credential.Requests);
    }

    [Fact]
    public async Task TheClientTrustsOnlyTheCertificateItWasGivenAndSendsNoTokenToAnyOther()
    {
        await using var azurite = await Azurite.StartWithOAuthAsync();
        using var other = LoopbackCertificate.Create();
        var credential = new FixedTokenCredential(Jwt());

        // The system's trust store does not know the test's certificate either.
        foreach (var trust in new RemoteCertificateValidationCallback?[] { LoopbackCertificate.TrustOnly(other), (_, _, _, errors) => errors == SslPolicyErrors.None })
        {
            using var connection = Connect(azurite, credential, "untrusted", trust);
            var failed = await Assert.ThrowsAsync<RequestFailedException>(() => connection.Client.CreateTableIfNotExistsAsync(default));
            Assert.Equal(0, failed.Status); // a transport failure: the TLS handshake, before any header left
            Assert.IsType<AuthenticationException>(failed.InnerException?.InnerException ?? failed.InnerException, exactMatch: false);
        }
    }

    [Fact]
    public async Task OnAppServiceTheManagedIdentityCredentialFetchesTheTokenFromThePlatformsEndpoint()
    {
        await using var azurite = await Azurite.StartWithOAuthAsync();
        // App Service's identity endpoint, as the platform announces it to the app: IDENTITY_ENDPOINT and IDENTITY_HEADER.
        var expires = DateTimeOffset.UtcNow.AddHours(1).ToUnixTimeSeconds();
        await using var identity = new HttpRelay(null, _ => RelayReply.Respond(200, "OK", "application/json",
            JsonSerializer.Serialize(new { access_token = Jwt(), expires_on = expires.ToString(), resource = "https://storage.azure.com", token_type = "Bearer" })));
        var secret = Guid.NewGuid().ToString();
        Environment.SetEnvironmentVariable("IDENTITY_ENDPOINT", $"http://127.0.0.1:{identity.Port}/msi/token");
        Environment.SetEnvironmentVariable("IDENTITY_HEADER", secret);
        try
        {
            var target = TableTarget.For(TableAccount.Parse($"TableEndpoint={azurite.Endpoint};Credential=ManagedIdentity")) with { ServerCertificate = LoopbackCertificate.TrustOnly(azurite.Certificate!) };
            using var connection = new TableConnection(target, "appservice", new TableVariant(TableOperation.Single, false, false), TimeSpan.FromSeconds(10));

            Assert.True(await connection.Client.CreateTableIfNotExistsAsync(default));
            Assert.Equal(204, (await connection.Client.InsertAsync(new BenchEntity("p", "r", "x"), default)).Status);

            var request = Assert.Single(identity.Requests);
            Assert.Equal(secret, request.Header("X-IDENTITY-HEADER"));
            Assert.Contains("resource=https://storage.azure.com", Uri.UnescapeDataString(request.Target), StringComparison.Ordinal);
        }
        finally
        {
            Environment.SetEnvironmentVariable("IDENTITY_ENDPOINT", null);
            Environment.SetEnvironmentVariable("IDENTITY_HEADER", null);
        }
    }

    [Fact]
    public async Task ASignInThePlatformRefusesFailsTheRunAtOnceWithItsReasonAndNothingIsRetried()
    {
        // In this class, not beside it: the identity endpoint is announced through process-wide variables.
        await using var identity = new HttpRelay(null, _ => RelayReply.Respond(400, "Bad Request", "application/json",
            """{"statusCode":400,"message":"Unable to load the proper Managed Identity.","correlationId":"7"}"""));
        Environment.SetEnvironmentVariable("IDENTITY_ENDPOINT", $"http://127.0.0.1:{identity.Port}/msi/token");
        Environment.SetEnvironmentVariable("IDENTITY_HEADER", Guid.NewGuid().ToString());
        try
        {
            // A client id of its own, so no token another test cached can stand in; nothing listens at the endpoint.
            var connection = $"TableEndpoint=https://127.0.0.1:{Azurite.FreePort()}/{Azurite.AccountName};Credential=ManagedIdentity;ClientId={Guid.NewGuid()}";
            var (run, samples) = await TableRuns.ExecuteAsync(connection, TableRuns.Small("signin"));

            Assert.Equal(Core.Runs.RunStatus.Failed, run.Status);
            Assert.StartsWith("Signing in to Microsoft Entra for connection 'test' failed (https://127.0.0.1:", run.Error);
            Assert.Contains("Unable to load the proper Managed Identity.", run.Error);
            Assert.Empty(samples);
            Assert.Single(identity.Requests);
        }
        finally
        {
            Environment.SetEnvironmentVariable("IDENTITY_ENDPOINT", null);
            Environment.SetEnvironmentVariable("IDENTITY_HEADER", null);
        }
    }

    [Fact]
    public void ATokenIsNeverSentOverHttp()
    {
        var refused = Assert.Throws<FormatException>(() => TableAccount.Parse("TableEndpoint=http://127.0.0.1:10002/devstoreaccount1;Credential=DefaultAzureCredential"));
        Assert.Equal("Credential (Microsoft Entra sign-in) needs an https:// Table endpoint: a token is never sent over http.", refused.Message);
    }
}
