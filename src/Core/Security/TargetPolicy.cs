using System.Net;
using System.Net.Sockets;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;

namespace BenchDashboard.Core.Security;

/// <summary>A target the policy refuses; the message says which rule and how to allow it where that is possible.</summary>
public sealed class TargetRefusedException(string message) : Exception(message);

/// <summary>
/// Decides whether a benchmark may send traffic to a host and address. Checked twice: when a run is queued
/// (the URL's host, resolved, for a clear message) and on every connection, against the address actually
/// connected to, so a DNS answer that changes after validation (rebinding) cannot reach a refused address.
/// </summary>
public sealed class TargetPolicy
{
    // Never allowed: cloud metadata and platform agents answer here and hand out credentials.
    static readonly IPNetwork[] LinkLocal = [IPNetwork.Parse("169.254.0.0/16"), IPNetwork.Parse("fe80::/10")];
    static readonly IPAddress[] Metadata =
    [
        IPAddress.Parse("168.63.129.16"),   // Azure WireServer
        IPAddress.Parse("100.100.100.200"), // Alibaba Cloud metadata
        IPAddress.Parse("fd00:ec2::254"),   // AWS metadata over IPv6
    ];
    static readonly IPNetwork[] Private =
    [
        IPNetwork.Parse("10.0.0.0/8"), IPNetwork.Parse("172.16.0.0/12"), IPNetwork.Parse("192.168.0.0/16"),
        IPNetwork.Parse("100.64.0.0/10"), IPNetwork.Parse("198.18.0.0/15"), IPNetwork.Parse("fc00::/7"), IPNetwork.Parse("fec0::/10"),
    ];
    static readonly IPNetwork ThisNetwork = IPNetwork.Parse("0.0.0.0/8");
    static readonly IPNetwork Nat64 = IPNetwork.Parse("64:ff9b::/96");
    static readonly IPNetwork LocalNat64 = IPNetwork.Parse("64:ff9b:1::/48"); // RFC 8215: a network's own translator
    static readonly IPNetwork Translated = IPNetwork.Parse("::ffff:0:0:0/96"); // RFC 2765 (SIIT): ::ffff:0:a.b.c.d
    static readonly IPNetwork SixToFour = IPNetwork.Parse("2002::/16");
    static readonly IPNetwork Teredo = IPNetwork.Parse("2001::/32");

    readonly bool allowLoopback;
    readonly bool allowPrivate;
    readonly string[] allowedNames;
    readonly IPNetwork[] allowedRanges;
    readonly string? scmHost;

    /// <summary>The agent's own site's address (<see cref="AllowingOwnSite"/>): loopback, yet allowed.</summary>
    readonly IPAddress? ownSite;

    public TargetPolicy(TargetOptions options, bool isDevelopment, string? siteHostName)
    {
        allowLoopback = options.AllowLoopback ?? isDevelopment;
        allowPrivate = options.AllowPrivateNetworks;
        allowedNames = options.AllowedHosts.Where(h => !IsRange(h)).Select(h => h.Trim().ToLowerInvariant()).ToArray();
        allowedRanges = options.AllowedHosts.Where(IsRange).Select(ParseRange).ToArray();
        // App Service's deployment and console site (Kudu) for "name.azurewebsites.net" is "name.scm.azurewebsites.net".
        if (siteHostName is { Length: > 0 } site && site.IndexOf('.') is var dot and > 0)
            scmHost = (site[..dot] + ".scm" + site[dot..]).ToLowerInvariant();
    }

    TargetPolicy(TargetPolicy policy, IPAddress ownSite)
    {
        (allowLoopback, allowPrivate, allowedNames, allowedRanges, scmHost) = (policy.allowLoopback, policy.allowPrivate, policy.allowedNames, policy.allowedRanges, policy.scmHost);
        this.ownSite = ownSite;
    }

    /// <summary>
    /// This policy, and also the process's own site at <paramref name="address"/> (a {{self}} URL's loopback address,
    /// which Targets:AllowLoopback need not open to every run): what it refuses otherwise, it still refuses.
    /// </summary>
    public TargetPolicy AllowingOwnSite(IPAddress address) => new(this, address.IsIPv4MappedToIPv6 ? address.MapToIPv4() : address);

    public TargetPolicy(IOptions<TargetOptions> options, IHostEnvironment environment)
        : this(options.Value, environment.IsDevelopment(), Environment.GetEnvironmentVariable("WEBSITE_HOSTNAME"))
    {
    }

    /// <summary>Refusal message for a host name by itself (before resolving), or null.</summary>
    public string? CheckHost(string host)
    {
        host = host.Trim().TrimEnd('.').ToLowerInvariant();
        // Every App Service domain (regional names, App Service Environments, other clouds) puts "scm" as a label.
        if (host == scmHost || host.Contains(".scm.", StringComparison.Ordinal))
            return $"'{host}' is an App Service deployment (SCM/Kudu) site; benchmarks may not target it.";
        if (IPAddress.TryParse(host.Trim('[', ']'), out var literal)) return CheckAddress(literal, host);
        if (allowedNames.Length + allowedRanges.Length > 0 && !NameAllowed(host) && allowedRanges.Length == 0)
            return $"'{host}' is not in Targets:AllowedHosts.";
        return null;
    }

    /// <summary>Refusal message for an address the host resolved to (or is), or null.</summary>
    public string? CheckAddress(IPAddress address, string host)
    {
        if (address.IsIPv4MappedToIPv6) address = address.MapToIPv4();
        // IPv6 forms that carry an IPv4 address are judged by that address too: a translator or tunnel on the path
        // would deliver them there (169.254.169.254 as 64:ff9b:1::a9fe:a9fe, say).
        foreach (var embedded in EmbeddedIPv4(address))
            if (CheckAddress(embedded, host) is { } refusal) return refusal;
        if (LocalNat64.Contains(address) && !allowPrivate && !allowedRanges.Any(r => r.Contains(address)))
            return $"{address} is in the local-use NAT64 prefix 64:ff9b:1::/48, a network's own translator; set Targets:AllowPrivateNetworks or list the range in Targets:AllowedHosts.";
        if (Metadata.Any(m => m.Equals(address)) || LinkLocal.Any(n => n.Contains(address)))
            return $"{address} is a link-local or cloud metadata address; benchmarks may never target it.";
        if (ThisNetwork.Contains(address) || address.Equals(IPAddress.IPv6Any) || address.Equals(IPAddress.Broadcast) || IsMulticast(address))
            return $"{address} is not a host address.";

        if (address.Equals(ownSite)) return null;
        var inAllowedRange = allowedRanges.Any(r => r.Contains(address));
        if (allowedNames.Length + allowedRanges.Length > 0 && !inAllowedRange && !NameAllowed(host))
            return $"'{host}' ({address}) is not in Targets:AllowedHosts.";
        if (IPAddress.IsLoopback(address) && !allowLoopback && !inAllowedRange)
            return $"{address} is loopback; set Targets:AllowLoopback to benchmark this machine (allowed by default in Development).";
        if (Private.Any(n => n.Contains(address)) && !allowPrivate && !inAllowedRange)
            return $"{address} is in a private range; set Targets:AllowPrivateNetworks or list the range in Targets:AllowedHosts.";
        return null;
    }

    /// <summary>For validation: the first refusal for the URL's host or any address it resolves to, or null. An unresolvable host passes (it fails at run time, as an error sample).</summary>
    public async Task<string?> CheckAsync(Uri url, CancellationToken ct)
    {
        if (CheckHost(url.IdnHost) is { } refused) return refused;
        IPAddress[] addresses;
        try
        {
            addresses = IPAddress.TryParse(url.IdnHost.Trim('[', ']'), out var literal) ? [literal] : await Dns.GetHostAddressesAsync(url.IdnHost, ct);
        }
        catch (SocketException)
        {
            return null;
        }
        return addresses.Select(a => CheckAddress(a, url.IdnHost)).FirstOrDefault(r => r is not null);
    }

    /// <summary>For connecting: the host's addresses that may be used, or <see cref="TargetRefusedException"/> if none may.</summary>
    public async Task<IPAddress[]> AllowedAddressesAsync(string host, CancellationToken ct)
    {
        if (CheckHost(host) is { } refused) throw new TargetRefusedException(refused);
        var addresses = IPAddress.TryParse(host.Trim('[', ']'), out var literal) ? [literal] : await Dns.GetHostAddressesAsync(host, ct);
        var allowed = addresses.Where(a => CheckAddress(a, host) is null).ToArray();
        if (allowed.Length == 0)
            throw new TargetRefusedException(addresses.Select(a => CheckAddress(a, host)).FirstOrDefault() ?? $"'{host}' has no address.");
        return allowed;
    }

    /// <summary>
    /// Every IPv4 address an IPv6 address can carry: IPv4-compatible (::a.b.c.d), IPv4-translated
    /// (::ffff:0:a.b.c.d), NAT64 (64:ff9b::a.b.c.d, and each RFC 6052 position within the local-use
    /// 64:ff9b:1::/48), 6to4 (2002:aabb:ccdd::), Teredo (the client's address, inverted, in the last 32 bits) and
    /// ISATAP (an interface id ::5efe:a.b.c.d or ::200:5efe:a.b.c.d under any prefix).
    /// </summary>
    static IEnumerable<IPAddress> EmbeddedIPv4(IPAddress address)
    {
        if (address.AddressFamily != AddressFamily.InterNetworkV6) yield break;
        var b = address.GetAddressBytes();
        IPAddress V4(params byte[] four) => new(four);
        if (Nat64.Contains(address) || Translated.Contains(address)
            || (b.Take(12).All(x => x == 0) && !address.Equals(IPAddress.IPv6Loopback) && !address.Equals(IPAddress.IPv6Any)))
            yield return V4(b[12], b[13], b[14], b[15]);
        if (LocalNat64.Contains(address))
        {
            // The translator's prefix length is not in the address: try each of RFC 6052's positions; the
            // zero bits of a wrong guess read as 0.x.y.z, which is no host, so those guesses are dropped.
            IPAddress[] positions =
            [
                V4(b[6], b[7], b[9], b[10]),   // /48: bits 48-63, then 72-87 (bits 64-71 are zero)
                V4(b[7], b[9], b[10], b[11]),  // /56
                V4(b[9], b[10], b[11], b[12]), // /64
                V4(b[12], b[13], b[14], b[15]), // /96
            ];
            foreach (var candidate in positions.Where(c => !ThisNetwork.Contains(c))) yield return candidate;
        }
        if (SixToFour.Contains(address)) yield return V4(b[2], b[3], b[4], b[5]);
        if (Teredo.Contains(address)) yield return V4((byte)~b[12], (byte)~b[13], (byte)~b[14], (byte)~b[15]);
        if (b[10] == 0x5e && b[11] == 0xfe && b[9] == 0 && b[8] is 0 or 2) yield return V4(b[12], b[13], b[14], b[15]);
    }

    bool NameAllowed(string host) =>
        allowedNames.Any(n => n == host || (n.StartsWith("*.", StringComparison.Ordinal) && host.EndsWith(n[1..], StringComparison.Ordinal)));

    static bool IsMulticast(IPAddress a) =>
        a.AddressFamily == AddressFamily.InterNetworkV6 ? a.IsIPv6Multicast : (a.GetAddressBytes()[0] & 0xF0) == 0xE0;

    static bool IsRange(string entry) => entry.Contains('/') || IPAddress.TryParse(entry.Trim(), out _);

    static IPNetwork ParseRange(string entry)
    {
        entry = entry.Trim();
        if (entry.Contains('/')) return IPNetwork.Parse(entry);
        var address = IPAddress.Parse(entry);
        return new IPNetwork(address, address.AddressFamily == AddressFamily.InterNetwork ? 32 : 128);
    }
}
