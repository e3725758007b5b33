using Microsoft.Extensions.Configuration;

namespace BenchDashboard.Core.Benchmarks;

/// <summary>
/// Named cache connection strings from configuration (<c>ConnectionStrings:NAME</c>). App Service
/// connection strings arrive as <c>CUSTOMCONNSTR_NAME</c>/<c>REDISCACHECONNSTR_NAME</c> variables, which the
/// environment configuration source already maps there. Benchmarks store only the name.
/// </summary>
public sealed class CacheConnections(IConfiguration configuration)
{
    public bool Exists(string name) => !string.IsNullOrWhiteSpace(Find(name));

    public string? Find(string name) => configuration.GetConnectionString(name);
}
