using BenchDashboard.Core.Agents;
using BenchDashboard.Web.Security;

namespace BenchDashboard.Web.Agents;

/// <summary>
/// Which agents may link: <c>Agents:Keys:&lt;name&gt;=&lt;key&gt;</c> in configuration (read on each attempt, so a
/// key can be added or revoked without a restart). Keys are compared as SHA-256 hashes in constant time
/// (<see cref="AccessRules.SecretMatches"/>), so timing says nothing about a key, not even its length.
/// </summary>
public sealed class AgentKeys(IConfiguration configuration)
{
    public const string Section = "Agents:Keys";

    /// <summary>The agent names that have a key here (never the keys), for the command /agents shows.</summary>
    public IReadOnlyList<string> Names =>
        configuration.GetSection(Section).GetChildren().Where(c => !string.IsNullOrEmpty(c.Value)).Select(c => c.Key).Order(StringComparer.Ordinal).ToList();

    public bool Matches(string? name, string? key) =>
        AgentProtocol.IsValidName(name) && AccessRules.SecretMatches(key, configuration[$"{Section}:{name}"]);

    /// <summary>The name and key an agent presents: <see cref="AgentProtocol.NameHeader"/> and <c>Authorization: Bearer</c>.</summary>
    public static (string? Name, string? Key) Presented(HttpRequest request) =>
        (request.Headers[AgentProtocol.NameHeader].ToString() is { Length: > 0 } name ? name : null, AccessRules.BearerToken(request));

    public bool PresentsWrongKey(HttpRequest request) => Presented(request) is var (name, key) && !Matches(name, key);
}
