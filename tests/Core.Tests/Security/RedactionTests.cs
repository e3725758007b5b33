using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Security;
using BenchDashboard.Core.Benchmarks.Http;

namespace BenchDashboard.Core.Tests.Security;

public class RedactionTests
{
    [Fact]
    public void HeaderValuesAndBodiesAreShownAsFingerprintsOnly()
    {
        var json = Json.Serialize(new HttpParameters { Url = "https://api.example.com/", Method = "POST", Body = "{\"password\":\"hunter2\"}", Requests = 1,
            Headers = new() { ["Authorization"] = "Bearer s3cr3t-token", ["Accept"] = "application/json" } });

        var shown = ParameterRedaction.Redact(json);

        Assert.DoesNotContain("s3cr3t-token", shown);
        Assert.DoesNotContain("hunter2", shown);
        Assert.Contains("\"Authorization\":\"(hidden, 19 chars, sha256 ", shown);
        Assert.Contains("https://api.example.com/", shown); // the URL stays
        Assert.NotEqual(ParameterRedaction.Fingerprint("a"), ParameterRedaction.Fingerprint("b")); // differences stay visible
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
