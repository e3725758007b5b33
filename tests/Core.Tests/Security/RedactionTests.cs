using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Data;
using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Security;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;

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
        var shown = Display.Url("https://user:p%40ss@host.example.com:8443/api/x?code=abc123&sig=zzz&&BARESECRET");

        Assert.DoesNotContain("p@ss", shown);
        Assert.DoesNotContain("abc123", shown);
        Assert.DoesNotContain("BARESECRET", shown);
        // A part without "=" may be a flag or a token: it is fingerprinted whole; an empty part stays empty.
        Assert.Matches(@"^https://\(hidden, 9 chars, id [0-9a-f]{8}\)@host\.example\.com:8443/api/x\?code=\(hidden, 6 chars, id [0-9a-f]{8}\)&sig=\(hidden, 3 chars, id [0-9a-f]{8}\)&&\(hidden, 10 chars, id [0-9a-f]{8}\)$", shown);
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
    public void TheDashboardAndAStandaloneRunnerOnOneDatabaseShareTheFingerprintKey()
    {
        // The key once was a file each host protected with ASP.NET Core data protection, whose default application
        // name is the content root: a runner in another folder could not read the dashboard's key, made a new one
        // over it, and every fingerprint changed with whichever process started last. Now it is the database's.
        using var dir = new TestSupport.TempDirectory();
        string FingerprintFrom(string contentRoot, bool migrate = false)
        {
            Directory.CreateDirectory(contentRoot);
            var services = new Microsoft.Extensions.DependencyInjection.ServiceCollection();
            services.AddLogging();
            services.AddSingleton<Microsoft.Extensions.Hosting.IHostEnvironment>(new Microsoft.Extensions.Hosting.Internal.HostingEnvironment { ContentRootPath = contentRoot, EnvironmentName = "Production" });
            services.AddSingleton<Microsoft.Extensions.Configuration.IConfiguration>(new Microsoft.Extensions.Configuration.ConfigurationBuilder()
                .AddInMemoryCollection(new Dictionary<string, string?> { ["Database:Path"] = dir.File("bench.db") }).Build());
            services.AddBenchCore();
            using var provider = services.BuildServiceProvider();
            if (migrate) provider.MigrateDatabaseAsync().GetAwaiter().GetResult();
            return provider.GetRequiredService<ParameterDisplay>().Fingerprint("hunter2");
        }

        var dashboard = FingerprintFrom(dir.File("web"), migrate: true);
        var runner = FingerprintFrom(dir.File("runner"));

        Assert.Equal(dashboard, runner);
        Assert.Equal(dashboard, FingerprintFrom(dir.File("web"))); // and the dashboard's after the runner started
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
