using System.Net;
using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Security;
using BenchDashboard.Processing;

namespace BenchDashboard.Runner.Http;

/// <summary>
/// Where a run's <c>{{self}}</c> URLs go on this process (<see cref="SelfUrl"/>): an agent's own site, from
/// <see cref="RunnerOptions.SelfUrl"/>. Its own site is allowed on loopback whatever Targets:AllowLoopback says (it is
/// the configuration under test); only that address is opened, and only to such a run.
/// </summary>
sealed record OwnSite(Uri Address)
{
    /// <summary>This process's own site, or why a {{self}} run cannot be measured here.</summary>
    public static (OwnSite? Site, string? Refusal) Of(RunnerOptions options)
    {
        if (options.Mode != RunnerMode.Agent)
            return (null, $"{SelfUrl.Token} stands for an agent's own site: run it on agents that serve one (configuration processes, with onEach), not on the dashboard's runner.");
        if (string.IsNullOrWhiteSpace(options.SelfUrl))
            return (null, $"this agent serves no site of its own for {SelfUrl.Token} (start it as a configuration process, the web host with Runner__Mode=agent, or set Runner:SelfUrl).");
        return SelfUrl.SiteAddress(options.SelfUrl, null, null) is { } address
            ? (new OwnSite(address), null)
            : (null, $"Runner:SelfUrl '{options.SelfUrl}' is not an http:// or https:// address, so {SelfUrl.Token} has nowhere to go.");
    }

    /// <summary>The run's URLs resolved to this site.</summary>
    public HttpParameters Resolve(HttpParameters p) => SelfUrl.Resolve(p, Address);

    /// <summary><paramref name="policy"/>, and this site's address when it is loopback (a site elsewhere is judged like any target).</summary>
    public TargetPolicy Opening(TargetPolicy policy) =>
        IPAddress.TryParse(Address.IdnHost.Trim('[', ']'), out var address) && IPAddress.IsLoopback(address) ? policy.AllowingOwnSite(address) : policy;
}
