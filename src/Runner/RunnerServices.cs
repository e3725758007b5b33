using BenchDashboard.Core;
using BenchDashboard.Processing;
using BenchDashboard.Processing.Claiming;
using BenchDashboard.Processing.Executing;
using BenchDashboard.Runner.Scheduling;
using Microsoft.Extensions.DependencyInjection;

namespace BenchDashboard.Runner;

public static class RunnerServices
{
    /// <summary>The runner and its executors; the host adds <see cref="CoreServices.AddBenchCore"/> too.</summary>
    public static IServiceCollection AddBenchRunner(this IServiceCollection services)
    {
        services.AddRunnerOptions();
        services.AddSingleton<RunnerIdentity>();
        services.AddSingleton<RunStore>();
        services.AddSingleton<RunnerPulse>();
        services.AddSingleton<CronScheduler>();
        services.AddSingleton<RunProcessor>();
        services.AddKindExecutors();
        services.AddHostedService<RunnerService>();
        return services;
    }

    /// <summary>
    /// A runner agent (Runner:Mode=agent): its link to the dashboard and every kind with its executor, no storage.
    /// The agent takes shards of the kinds whose load divides (IBenchmarkKind.SpreadsOverAgents). The runner on its
    /// own and a configuration process (the web host as an agent) both take it.
    /// </summary>
    public static IServiceCollection AddBenchAgent(this IServiceCollection services)
    {
        services.AddRunnerOptions();
        services.AddBenchmarkKinds();
        services.AddKindExecutors();
        services.AddSingleton<Agents.AgentLink>();
        services.AddHostedService(sp => sp.GetRequiredService<Agents.AgentLink>());
        return services;
    }

    /// <summary>Every kind's executor in this assembly, as EF finds entity configurations: a kind's folder needs no line here.</summary>
    public static IServiceCollection AddKindExecutors(this IServiceCollection services)
    {
        services.AddSingleton<KindExecutors>();
        foreach (var executor in typeof(RunnerServices).Assembly.GetTypes().Where(t => t is { IsClass: true, IsAbstract: false } && t.IsAssignableTo(typeof(IBenchmarkExecutor))))
            services.AddSingleton(typeof(IBenchmarkExecutor), executor);
        return services;
    }

    /// <summary>
    /// A kind whose executor lives outside this assembly (a test's example kind, a plug-in): the one line it takes.
    /// A kind in this repository needs only <see cref="Core.Benchmarks.BenchmarkKindRegistration.AddBenchmarkKind{TKind}"/>
    /// in <see cref="CoreServices.AddBenchmarkKinds"/>; its executor in src/Runner is found by <see cref="AddKindExecutors"/>.
    /// </summary>
    public static IServiceCollection AddBenchmarkKind<TKind, TExecutor>(this IServiceCollection services)
        where TKind : class, Core.Benchmarks.IBenchmarkKind where TExecutor : class, IBenchmarkExecutor =>
        Core.Benchmarks.BenchmarkKindRegistration.AddBenchmarkKind<TKind>(services).AddSingleton<IBenchmarkExecutor, TExecutor>();
}
