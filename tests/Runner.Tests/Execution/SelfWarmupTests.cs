using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Kinds.FileSystem;
using BenchDashboard.Core.Security;
using BenchDashboard.Processing.Executing;
using BenchDashboard.Runner.Cache;
using BenchDashboard.Runner.Execution;
using BenchDashboard.Runner.FileSystem;
using BenchDashboard.Runner.Http;
using BenchDashboard.TestSupport;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Logging.Abstractions;

namespace BenchDashboard.Runner.Tests.Execution;

public sealed class SelfWarmupTests
{
    [Fact]
    public async Task EveryWarmUpRequestIsAnsweredByTheRunnersOwnLoopbackServer()
    {
        using var bounded = new CancellationTokenSource(TimeSpan.FromSeconds(60));
        // The operator's policy refuses loopback: the warm-up's own traffic must still go.
        var policy = new TargetPolicy(new TargetOptions { AllowLoopback = false }, isDevelopment: false, siteHostName: null);
        Assert.Equal(300, (await SelfWarmup.RunAsync([new HttpBenchmark(policy)], 300, NullLogger.Instance, bounded.Token))[nameof(HttpBenchmark)]);
    }

    [Fact]
    public async Task TheCacheAndFileSystemKindsWarmUpOnWhatThisProcessHas()
    {
        using var bounded = new CancellationTokenSource(TimeSpan.FromSeconds(60));
        using var temp = new TempDirectory();
        var roots = new FileSystemRoots(new() { [FileSystemOptions.TempRoot] = temp.Path }, []);
        IBenchmarkExecutor[] executors = [new CacheBenchmark(new NamedConnections(new ConfigurationBuilder().Build())), new FileSystemBenchmark(roots)];

        var answered = await SelfWarmup.RunAsync(executors, 400, NullLogger.Instance, bounded.Token);

        // 100 of each of the four cache phases; 100 files created, read and deleted, and their 103 entries (the
        // files and the folders d000, d000/d00 and d000/d01 holding 50 each) stat-ed.
        Assert.Equal(400, answered[nameof(CacheBenchmark)]);
        Assert.Equal(403, answered[nameof(FileSystemBenchmark)]);
        Assert.Empty(Directory.EnumerateFileSystemEntries(temp.Path));
    }
}
