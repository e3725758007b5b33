using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Processing;
using BenchDashboard.Runner;
using BenchDashboard.Runner.Agents;
using BenchDashboard.Web.Targets;
using Microsoft.Extensions.FileProviders;

namespace BenchDashboard.Web.Hosting;

/// <summary>
/// One App Service configuration under test (a slot), as one process: the web host started with
/// <c>Runner__Mode=agent</c> (and Runner__Coordinator, AgentName, AgentKey) but without <c>--runner</c>. It serves
/// the target endpoints, the site being measured, and runs the agent in the same process, so a run "on each"
/// configuration measures this very process: its own site through <c>{{self}}</c>, its disks, its environment.
/// No results database and no dashboard pages: the results are the dashboard's.
/// </summary>
public static class ConfigurationHost
{
    public static bool IsConfiguration(IConfiguration configuration) =>
        configuration.GetSection(RunnerOptions.Section).GetValue("Mode", RunnerMode.Runner) == RunnerMode.Agent;

    public static async Task RunAsync(WebApplicationBuilder builder)
    {
        // {{self}} is this site over loopback, where the host listens (PORT or ASPNETCORE_URLS), unless Runner:SelfUrl says.
        var self = $"{RunnerOptions.Section}:{nameof(RunnerOptions.SelfUrl)}";
        if (string.IsNullOrWhiteSpace(builder.Configuration[self]) && SelfUrl.SiteAddress(null, builder.Configuration["PORT"], builder.Configuration["urls"]) is { } site)
            builder.Configuration[self] = site.GetLeftPart(UriPartial.Authority);
        builder.Services.AddBenchAgent();

        var app = builder.Build();
        app.UseStatusCodePages();
        // wwwroot/target only (static.html, the small files): the dashboard's scripts and styles are not this site's.
        var targetFiles = Path.Combine(app.Environment.WebRootPath ?? "", "target");
        if (Directory.Exists(targetFiles))
            app.UseStaticFiles(new StaticFileOptions { RequestPath = "/target", FileProvider = new PhysicalFileProvider(targetFiles) });
        app.MapTargets();
        app.MapGet("/", (AgentLink agent, Microsoft.Extensions.Options.IOptions<RunnerOptions> options) => Results.Text(
            $"This is configuration {agent.Name}: it serves /target/* and runs what the dashboard at {options.Value.Coordinator} gives its agent " +
            $"({(agent.Linked ? "linked" : "not linked at the moment")}). Its results are on that dashboard.\n"));
        // Up while it serves its targets; whether its agent is linked is said, not made a failure (the dashboard may be restarting).
        app.MapGet("/healthz", (AgentLink agent) => Results.Json(new
        {
            status = agent.Linked ? "Healthy" : "Degraded", role = "configuration", agent = agent.Name, linked = agent.Linked,
            processId = Environment.ProcessId,
        }));
        await app.RunAsync();
    }
}
