using System.Security.Cryptography;

namespace BenchDashboard.Runner.Cache;

/// <summary>
/// Key names of one run: <c>{keyPrefix}:{run id}-{random}:k{i}</c> for data and <c>…:miss{i}</c> for keys
/// that are never written. The random part keeps two dashboards sharing one server (each with its own run
/// ids) apart.
/// </summary>
public sealed class CacheKeys(string keyPrefix, long runId)
{
    public string Prefix { get; } = $"{keyPrefix}:{runId}-{Convert.ToHexStringLower(RandomNumberGenerator.GetBytes(4))}:";

    public string Data(int i) => $"{Prefix}k{i}";
    public string Miss(long i) => $"{Prefix}miss{i}";
}
