using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Security;
using BenchDashboard.Core.Benchmarks.Http;

namespace BenchDashboard.Core.Tests.Security;

public class RedactionTests
{
    static readonly ParameterDisplay Display = new(System.Security.Cryptography.RandomNumberGenerator.GetBytes(32));

    [Fact]
    public void HeaderValuesAndBodiesAreShownAsFingerprintsOnly()
    {
        var json = Json.Serialize(new HttpParameters { Url = "https://api.example.com/", Method = "POST", Body = "{\"password\":\"hunter2\"}", Requests = 1,
            Headers = new() { ["Authorization"] = "Bearer s3cr3t-token", ["Accept"] = "application/json" } });

        var shown = Display.Redact(json);

        Assert.DoesNotContain("s3cr3t-token", shown);
        Assert.DoesNotContain("hunter2", shown);
        Assert.Contains("\"Authorization\":\"(hidden, 19 chars, id ", shown);
        Assert.Contains("https://api.example.com/", shown); // a URL without user-info or query stays as it is
        Assert.NotEqual(Display.Fingerprint("a"), Display.Fingerprint("b")); // differences stay visible
    }

    [Fact]
    public void AUrlsUserInfoAndQueryValuesAreFingerprintsAndItsNamesStay()
    {
        var shown = Display.Url("https://user:p%40ss@host.example.com:8443/api/x?code=abc123&sig=zzz&flag");

        Assert.DoesNotContain("p@ss", shown);
        Assert.DoesNotContain("abc123", shown);
        Assert.Matches(@"^https://\(hidden, 9 chars, id [0-9a-f]{8}\)@host\.example\.com:8443/api/x\?code=\(hidden, 6 chars, id [0-9a-f]{8}\)&sig=\(hidden, 3 chars, id [0-9a-f]{8}\)&flag$", shown);
    }

    [Fact]
    public void AFingerprintIsKeyedSoItCannotBeConfirmedWithoutTheInstallationsKey()
    {
        var other = new ParameterDisplay(System.Security.Cryptography.RandomNumberGenerator.GetBytes(32));
        var unkeyed = Convert.ToHexStringLower(System.Security.Cryptography.SHA256.HashData("hunter2"u8))[..8];

        Assert.Equal(Display.Fingerprint("hunter2"), Display.Fingerprint("hunter2")); // stable for one installation
        Assert.NotEqual(Display.Fingerprint("hunter2"), other.Fingerprint("hunter2"));
        Assert.DoesNotContain(unkeyed, Display.Fingerprint("hunter2"));
    }

    [Fact]
    public void OnlyKnownPlatformVariablesAreRecordedAndAPackageUrlIsNot()
    {
        Environment.SetEnvironmentVariable("WEBSITE_OWNER_NAME", "00000000-aaaa+rg-webspace");
        Environment.SetEnvironmentVariable("WEBSITE_RUN_FROM_PACKAGE", "https://store.blob.core.windows.net/p/app.zip?sig=SECRET");
        try
        {
            var snapshot = EnvironmentSnapshot.Capture();
            Assert.False(snapshot.PlatformVariables.ContainsKey("WEBSITE_OWNER_NAME"));
            Assert.Equal("(url)", snapshot.PlatformVariables["WEBSITE_RUN_FROM_PACKAGE"]);
        }
        finally
        {
            Environment.SetEnvironmentVariable("WEBSITE_OWNER_NAME", null);
            Environment.SetEnvironmentVariable("WEBSITE_RUN_FROM_PACKAGE", null);
        }
    }
}
