namespace BenchDashboard.Core.Security;

/// <summary>
/// Section "Targets": where HTTP benchmarks may send traffic. Once the dashboard is on the internet, a
/// benchmark URL is a way to make the server fetch things for a visitor (SSRF); these settings decide what
/// it may reach.
/// </summary>
public sealed class TargetOptions
{
    public const string Section = "Targets";

    /// <summary>Loopback (127.0.0.0/8, ::1). Null: allowed in Development only (the built-in targets).</summary>
    public bool? AllowLoopback { get; set; }

    /// <summary>Private ranges (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7). Off by default.</summary>
    public bool AllowPrivateNetworks { get; set; }

    /// <summary>
    /// If not empty, the only targets allowed: host names ("api.example.com", "*.example.com") or address
    /// ranges ("10.1.0.0/16", "203.0.113.5"). A range also opens private or loopback addresses inside it.
    /// Link-local and metadata addresses stay refused whatever this says.
    /// </summary>
    public List<string> AllowedHosts { get; set; } = [];
}
