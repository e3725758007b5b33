using BenchDashboard.Core;
using BenchDashboard.Runner.Execution;
using BenchDashboard.Runner.Scheduling;
using Microsoft.Extensions.DependencyInjection;

namespace BenchDashboard.Runner;

public static class RunnerServices
{
    /// <summary>The runner and its executors; the host adds <see cref="CoreServices.AddBenchCore"/> too.</summary>
    public static IServiceCollection AddBenchRunner(this IServiceCollection services)
    {
        services.AddOptions<RunnerOptions>().BindConfiguration(RunnerOptions.Section).ValidateDataAnnotations().ValidateOnStart();
        services.AddSingleton<RunnerIdentity>();
        services.AddSingleton<RunStore>();
        services.AddSingleton<RunnerPulse>();
        services.AddSingleton<CronScheduler>();
        services.AddSingleton<RunProcessor>();
        // Every executor in this assembly, as EF finds entity configurations: a kind's folder needs no line here.
        foreach (var executor in typeof(RunnerServices).Assembly.GetTypes().Where(t => t is { IsClass: true, IsAbstract: false } && t.IsAssignableTo(typeof(IBenchmarkExecutor))))
            services.AddSingleton(typeof(IBenchmarkExecutor), executor);
        services.AddHostedService<RunnerService>();
        return services;
    }
}
