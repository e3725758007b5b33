using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Benchmarks.Cache;
using BenchDashboard.Core.Benchmarks.FileSystem;
using BenchDashboard.Core.Benchmarks.Http;
using BenchDashboard.Core.Runs;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;

namespace BenchDashboard.Core.Tests.Benchmarks;

public class BenchmarkKindsTests
{
    static BenchmarkKinds Kinds()
    {
        var services = new ServiceCollection();
        services.AddSingleton<IHostEnvironment>(new Microsoft.Extensions.Hosting.Internal.HostingEnvironment { ContentRootPath = Path.GetTempPath(), EnvironmentName = "Development" });
        services.AddSingleton<IConfiguration>(new ConfigurationBuilder().AddInMemoryCollection(new Dictionary<string, string?>
        {
            ["ConnectionStrings:redis"] = "127.0.0.1:1", ["Database:Path"] = Path.Combine(Path.GetTempPath(), "benchdashboard-tests", "kinds.db"), // only its fingerprint key is written
        }).Build());
        services.AddLogging();
        services.AddBenchCore();
        return services.BuildServiceProvider().GetRequiredService<BenchmarkKinds>();
    }

    [Fact]
    public void EveryKindIsFoundByItsNameInAnyCaseAndByItsParametersType()
    {
        var kinds = Kinds();

        Assert.Equal(["http", "cache", "fileSystem"], kinds.All.Select(k => k.Name).Take(3));
        Assert.Same(kinds.Get("fileSystem"), kinds.Find("FILESYSTEM"));
        Assert.Same(kinds.Get("cache"), kinds.For(typeof(CacheParameters)));
        Assert.Null(kinds.Find("ftp"));
        Assert.Throws<InvalidOperationException>(() => kinds.For(typeof(string)));
    }

    [Fact]
    public async Task StoredParametersAreValidatedByTheirKindAndReturnedInCanonicalForm()
    {
        var kinds = Kinds();

        var (json, errors) = await kinds.ValidateStoredAsync("cache", """{"requests":10,"backend":"redis","connection":"redis"}""", default);
        Assert.Empty(errors);
        Assert.Contains("\"phases\":[\"write\",\"read-same\",\"read-distinct\",\"read-miss\"]", json);

        Assert.Contains("kind", (await kinds.ValidateStoredAsync("ftp", "{}", default)).Errors.Keys);
        Assert.Contains("parameters", (await kinds.ValidateStoredAsync("http", "[1]", default)).Errors.Keys);
        Assert.Contains("connection", (await kinds.ValidateStoredAsync("cache", """{"requests":10,"backend":"redis","connection":"nope"}""", default)).Errors.Keys);
    }

    [Fact]
    public void ARunIsDescribedAndItsSeriesPlannedByItsKindEvenWhenItsParametersCannotBeRead()
    {
        var kinds = Kinds();
        Run RunOf(string kind, object parameters) => new() { Kind = kind, ParametersJson = Json.Serialize(parameters) };

        Assert.Equal("GET http://x/", kinds.Describe(RunOf(HttpKind.KindName, new HttpParameters { Url = "http://x/", Requests = 1 })));
        Assert.Equal(["read-miss", "write"], kinds.PlannedSeries(RunOf(CacheKind.KindName, new CacheParameters { Phases = [CachePhase.ReadMiss, CachePhase.Write] })));
        Assert.Equal("temp/create", kinds.PlannedSeries(RunOf(FileSystemKind.KindName, new FileSystemParameters { Directories = ["temp"], LargeFileMiB = 0 }))[0]);
        Assert.DoesNotContain("temp/large-write", kinds.PlannedSeries(RunOf(FileSystemKind.KindName, new FileSystemParameters { Directories = ["temp"], LargeFileMiB = 0 })));

        var unreadable = new Run { Kind = CacheKind.KindName, ParametersJson = "not json" };
        Assert.Equal("cache", kinds.Describe(unreadable));
        Assert.Empty(kinds.PlannedSeries(unreadable));
        Assert.Equal("gone", kinds.Describe(new Run { Kind = "gone", ParametersJson = "{}" }));
    }
}
