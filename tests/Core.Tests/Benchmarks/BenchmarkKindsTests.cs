using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Kinds.Cache;
using BenchDashboard.Core.Kinds.FileSystem;
using BenchDashboard.Core.Kinds.Http;
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

    [Fact]
    public void AnHttpRunDividesBetweenAgentsSoThePartsAddUpAndOtherKindsSayWhyNot()
    {
        var kinds = Kinds();
        var http = kinds.Get("http");
        var run = new HttpParameters { Url = "http://127.0.0.1:1/", Concurrency = 7, Requests = 1001, WarmupRequests = 5, Variants = [new() { Name = "A" }, new() { Name = "B" }] };

        var split = http.Split(run, 3);
        Assert.Null(split.Refusal);
        var parts = split.Parts.Select(p => (HttpParameters)p.Parameters).ToList();
        Assert.Equal([3, 2, 2], parts.Select(p => p.Concurrency));
        Assert.Equal(1001, parts.Sum(p => p.Requests));
        Assert.Equal([334, 334, 333], parts.Select(p => p.Requests!.Value));
        Assert.Equal([2, 2, 1], parts.Select(p => p.WarmupRequests));
        Assert.All(parts, p => Assert.Equal(run.Url, p.Url));
        Assert.All(parts, p => Assert.Equal(["A", "B"], http.PlannedSeries(p))); // every shard measures every variant
        Assert.Equal([6, 4, 4], split.Parts.Select(p => p.Connections)); // a connection per worker and variant

        // An open run's rate and its stages' rates are divided; its duration is every shard's.
        var open = new HttpParameters { Url = "http://127.0.0.1:1/", Model = LoadModel.Open, Rate = 300, DurationSeconds = 10, Concurrency = 4, Stages = [new(5, 600), new(0, 90)] };
        var shards = http.Split(open, 2).Parts.Select(p => (HttpParameters)p.Parameters).ToList();
        Assert.All(shards, p => Assert.Equal(150, p.Rate));
        Assert.All(shards, p => Assert.Equal([300.0, 45.0], p.Stages!.Select(s => s.Rate)));
        Assert.All(shards, p => Assert.Equal(10, p.DurationSeconds));

        Assert.Contains("concurrency 2 cannot be divided between 3 agents", http.Split(run with { Concurrency = 2 }, 3).Refusal);
        Assert.Contains("2 requests cannot be divided between 3 agents", http.Split(run with { Requests = 2 }, 3).Refusal);
        Assert.Contains("only HTTP runs are spread over agents", kinds.Get("fileSystem").Split(kinds.Get("fileSystem").Deserialize("{}"), 2).Refusal);
    }
}
