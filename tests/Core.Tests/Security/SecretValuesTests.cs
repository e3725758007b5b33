using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Security;

namespace BenchDashboard.Core.Tests.Security;

public class SecretValuesTests
{
    static readonly ParameterDisplay Display = new(System.Security.Cryptography.RandomNumberGenerator.GetBytes(32));

    [Theory]
    [InlineData("Authorization")]
    [InlineData("authorization")]
    [InlineData("Proxy-Authorization")]
    [InlineData("Cookie")]
    [InlineData("x-api-key")]
    [InlineData("Ocp-Apim-Subscription-Key")]
    [InlineData("X-Functions-Key")]
    [InlineData("X-My-Service-Token")]
    [InlineData("X-Client-Secret")]
    public void HeadersThatAuthenticateAreCredentials(string name) => Assert.True(SecretValues.IsCredentialHeader(name));

    [Theory]
    [InlineData("Accept")]
    [InlineData("Accept-Encoding")]
    [InlineData("Cache-Control")]
    [InlineData("Content-Type")]
    [InlineData("User-Agent")]
    [InlineData("X-Requested-With")]
    public void OrdinaryHeadersAreNotCredentials(string name) => Assert.False(SecretValues.IsCredentialHeader(name));

    [Theory]
    [InlineData("sig")]
    [InlineData("signature")]
    [InlineData("token")]
    [InlineData("access_token")]
    [InlineData("key")]
    [InlineData("apikey")]
    [InlineData("api-key")]
    [InlineData("code")]
    [InlineData("password")]
    [InlineData("pwd")]
    [InlineData("secret")]
    [InlineData("client_secret")]
    [InlineData("SIG")]
    [InlineData("X-Amz-Signature")]
    [InlineData("myApiKey")]
    public void QueryNamesThatCarryCredentialsAreCredentials(string name) => Assert.True(SecretValues.IsCredentialQueryName(name));

    [Theory]
    [InlineData("ms")]
    [InlineData("size")]
    [InlineData("page")]
    [InlineData("sv")]
    [InlineData("se")]
    [InlineData("sp")]
    [InlineData("coldMs")]
    [InlineData("count")]
    [InlineData("author")]
    public void OrdinaryQueryNamesAreNotCredentials(string name) => Assert.False(SecretValues.IsCredentialQueryName(name));

    [Theory]
    [InlineData("Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MA==")]
    [InlineData("sk_live_4eC39HqLyjWDarjtT1zdp7dc")]
    [InlineData("3f2a9c1e8b7d6a5f4e3d2c1b0a998877")]
    [InlineData("d9b2d63d-a233-4123-847a-76838bf2413a")]
    [InlineData("Bearer abc")]
    [InlineData("aGVsbG8gd29ybGQgZnJvbSBhIGtleQ/Q9x+Yz")]
    public void GeneratedKeysLookRandom(string value) => Assert.True(SecretValues.LooksRandom(value));

    [Theory]
    [InlineData("2")]
    [InlineData("4096")]
    [InlineData("application/json")]
    [InlineData("delay-twenty-milliseconds")]
    [InlineData("2024-01-01T00:00:00Z")]
    [InlineData("no-cache, no-store, must-revalidate")]
    [InlineData("text/html,application/xhtml+xml")]
    [InlineData("abc123")]
    [InlineData("12345678901234567890123")]
    [InlineData("averyveryverylongwordwithoutdigits")]
    [InlineData(null)]
    public void OrdinaryValuesDoNotLookRandom(string? value) => Assert.False(SecretValues.LooksRandom(value));

    [Fact]
    public void AnOrdinaryQueryValueStaysReadableAndACredentialsIsFingerprinted()
    {
        var shown = Display.Url("https://host.example.com/target/delay?ms=2&sig=abc&size=4096&sv=2024-05-04&t=Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MA");

        Assert.Matches(@"^https://host\.example\.com/target/delay\?ms=2&sig=\(hidden, 3 chars, id [0-9a-f]{8}\)&size=4096&sv=2024-05-04&t=\(hidden, 30 chars, id [0-9a-f]{8}\)$", shown);
    }

    [Fact]
    public void OnlyHeadersThatAuthenticateOrLookRandomAreFingerprinted()
    {
        var json = Json.Serialize(new HttpParameters
        {
            Url = "https://api.example.com/x?ms=10", Requests = 1,
            Headers = new() { ["Accept"] = "text/html", ["Ocp-Apim-Subscription-Key"] = "short", ["X-Trace"] = "d9b2d63d-a233-4123-847a-76838bf2413a" },
        });

        var shown = Display.Redact(json);

        Assert.Contains("\"Accept\":\"text/html\"", shown);
        Assert.Contains("\"Ocp-Apim-Subscription-Key\":\"(hidden, 5 chars, id ", shown);
        Assert.Contains("\"X-Trace\":\"(hidden, 36 chars, id ", shown);
        Assert.Contains("https://api.example.com/x?ms=10", shown);
    }
}
