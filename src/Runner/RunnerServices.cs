using BenchDashboard.Core;
using BenchDashboard.Runner.Cache;
using BenchDashboard.Runner.Execution;
using BenchDashboard.Runner.Http;
using BenchDashboard.Runner.Scheduling;
using Microsoft.Extensions.DependencyInjection;

namespace BenchDashboard.Runner;

public static class RunnerServices
{
    /// <summary>The runner and its executors; the host adds <see cref="CoreServices.AddBenchCore"/> too.</summary>
    public static IServiceCollection AddBenchRunner(this IServiceCollection services)
    {
        services.AddOptions<RunnerOptions>().BindConfiguration(RunnerOptions.Section).ValidateDataAnnotations().ValidateOnStart();
        services.AddSingleton<RunStore>();
        services.AddSingleton<RunnerPulse>();
        services.AddSingleton<CronScheduler>();
        services.AddSingleton<RunProcessor>();
        services.AddSingleton<IBenchmarkExecutor, HttpBenchmark>();
        services.AddSingleton<IBenchmarkExecutor, CacheBenchmark>();
        services.AddSingleton<IBenchmarkExecutor, FileSystem.FileSystemBenchmark>();
        services.AddHostedService<RunnerService>();
        return services;
    }
}
