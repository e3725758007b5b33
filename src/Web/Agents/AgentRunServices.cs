using BenchDashboard.Processing;
using BenchDashboard.ServiceDefaults;

namespace BenchDashboard.Web.Agents;

public static class AgentRunServices
{
    /// <summary>
    /// The dashboard's side of runs spread over runner agents: who may link and who is linked, and the coordinator
    /// that claims runs with agents and executes each through the agents (<see cref="AgentRun"/>). Only the process
    /// agents link to (the dashboard) adds it, wherever its own runner is (<c>Runner:Process</c>).
    /// </summary>
    public static IServiceCollection AddAgentRuns(this IServiceCollection services)
    {
        services.AddSingleton<AgentKeys>();
        services.AddSingleton<AgentRegistry>();
        services.AddCheckedOptions<AgentRunOptions>(AgentRunOptions.Section);
        // The coordinator claims and processes runs as a runner does, with the runner's options.
        services.AddRunnerOptions();
        services.AddSingleton<AgentRunCoordinator>();
        services.AddHostedService(sp => sp.GetRequiredService<AgentRunCoordinator>());
        return services;
    }
}
