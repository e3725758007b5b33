using BenchDashboard.Core;
using BenchDashboard.Runner.Agents;
using BenchDashboard.Runner.Execution;
using BenchDashboard.Runner.Scheduling;
using Microsoft.Extensions.DependencyInjection;

namespace BenchDashboard.Runner;

public static class RunnerServices
{
    /// <summary>
    /// A dashboard's runner, where <see cref="RunnerOptions.Process"/> says: a child process (its pulse is
    /// mirrored here for the health check), this process, or none.
    /// </summary>
    public static IServiceCollection AddRunnerFor(this IServiceCollection services, Microsoft.Extensions.Configuration.IConfiguration configuration)
    {
        var section = configuration.GetSection(RunnerOptions.Section);
        var where = section.GetValue<bool?>("Embedded") == false ? RunnerProcess.None : section.GetValue("Process", RunnerProcess.Child);
        switch (where)
        {
            case RunnerProcess.InProcess:
                return services.AddBenchRunner();
            case RunnerProcess.Child:
                services.AddOptions<RunnerOptions>().BindConfiguration(RunnerOptions.Section).ValidateDataAnnotations().ValidateOnStart();
                services.AddSingleton<RunnerPulse>();
                services.AddSingleton<Hosting.ChildRunner>();
                services.AddHostedService(sp => sp.GetRequiredService<Hosting.ChildRunner>());
                return services;
            default:
                return services;
        }
    }

    /// <summary>The runner and its executors; the host adds <see cref="CoreServices.AddBenchCore"/> too.</summary>
    public static IServiceCollection AddBenchRunner(this IServiceCollection services)
    {
        services.AddOptions<RunnerOptions>().BindConfiguration(RunnerOptions.Section).ValidateDataAnnotations().ValidateOnStart();
        services.AddSingleton<RunnerIdentity>();
        services.AddSingleton<RunStore>();
        services.AddSingleton<RunnerPulse>();
        services.AddSingleton<CronScheduler>();
        services.AddSingleton<RunProcessor>();
        services.AddSingleton<KindExecutors>();
        // Every executor in this assembly, as EF finds entity configurations: a kind's folder needs no line here.
        // A run over agents is its own executor, made by the coordinator for that run alone.
        foreach (var executor in typeof(RunnerServices).Assembly.GetTypes().Where(t => t is { IsClass: true, IsAbstract: false } && t.IsAssignableTo(typeof(IBenchmarkExecutor)) && t != typeof(AgentRun)))
            services.AddSingleton(typeof(IBenchmarkExecutor), executor);
        services.AddHostedService<RunnerService>();
        return services;
    }

    /// <summary>
    /// A kind whose executor lives outside this assembly (a test's example kind, a plug-in): the one line it takes.
    /// A kind in this repository needs only <see cref="Core.Benchmarks.BenchmarkKindRegistration.AddBenchmarkKind{TKind}"/>
    /// in <see cref="CoreServices.AddBenchCore"/>; its executor in src/Runner is found by <see cref="AddBenchRunner"/>.
    /// </summary>
    public static IServiceCollection AddBenchmarkKind<TKind, TExecutor>(this IServiceCollection services)
        where TKind : class, Core.Benchmarks.IBenchmarkKind where TExecutor : class, IBenchmarkExecutor =>
        Core.Benchmarks.BenchmarkKindRegistration.AddBenchmarkKind<TKind>(services).AddSingleton<IBenchmarkExecutor, TExecutor>();

    /// <summary>
    /// The dashboard's side of runs spread over runner agents: who is linked, and the coordinator that claims
    /// runs with agents. Only the process agents link to (the dashboard) adds it, whatever <c>Runner:Process</c> says.
    /// </summary>
    public static IServiceCollection AddAgentRuns(this IServiceCollection services)
    {
        services.AddSingleton<AgentRegistry>();
        services.AddOptions<AgentRunOptions>().BindConfiguration(AgentRunOptions.Section).ValidateDataAnnotations().ValidateOnStart();
        // The coordinator uses the runner's processor and store with options of its own.
        services.AddOptions<RunnerOptions>().BindConfiguration(RunnerOptions.Section);
        services.AddSingleton<AgentRunCoordinator>();
        services.AddHostedService(sp => sp.GetRequiredService<AgentRunCoordinator>());
        return services;
    }
}
