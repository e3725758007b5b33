using BenchDashboard.Core.Stores;
namespace BenchDashboard.TestSupport;

/// <summary>
/// A results database made by the last EF Core 6 build, as SQL (Fixtures/ef6-results.sql, a `sqlite3 .dump`):
/// the real dashboard and runner made it, so it holds what users' files hold. Upgrade tests load it into a file.
/// </summary>
public static class Ef6Database
{
    public static string Sql => File.ReadAllText(Path.Combine(AppContext.BaseDirectory, "Fixtures", "ef6-results.sql"));

    // What the dashboard stored (see the commit that added the dump for how it was made).
    public const int Runs = 16, Samples = 9865, Digests = 16, Latencies = 32, Benchmarks = 5, AaChecks = 1, Summaries = 15;
}
