using Microsoft.Extensions.Configuration;

namespace BenchDashboard.Core.Benchmarks;

/// <summary>
/// Named connection strings from configuration (<c>ConnectionStrings:NAME</c>) that cache and Table benchmarks
/// refer to. App Service connection strings arrive as <c>CUSTOMCONNSTR_NAME</c>/<c>REDISCACHECONNSTR_NAME</c>
/// variables, which the environment configuration source already maps there. Benchmarks store only the name:
/// the string holds a password or an account key.
/// </summary>
public sealed class NamedConnections(IConfiguration configuration)
{
    public bool Exists(string name) => !string.IsNullOrWhiteSpace(Find(name));

    /// <summary>The string of that name; never the results database's own (<c>ConnectionStrings:results</c>): a benchmark must not carry its credentials anywhere.</summary>
    public string? Find(string name) =>
        string.Equals(name, Data.DatabaseProviders.ConnectionStringName, StringComparison.OrdinalIgnoreCase) ? null : configuration.GetConnectionString(name);
}
