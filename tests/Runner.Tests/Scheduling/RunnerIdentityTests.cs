using BenchDashboard.Core.Data;
using BenchDashboard.Processing.Claiming;
using BenchDashboard.Runner.Scheduling;
using BenchDashboard.TestSupport;
using Microsoft.Extensions.Options;

namespace BenchDashboard.Runner.Tests.Scheduling;

/// <summary>
/// Claimers' names on one PostgreSQL database from one machine: different while both live, whatever Database:Path
/// each was given (a runner ends the runs left under its own name when it starts), and the same again after a restart.
/// </summary>
public sealed class RunnerIdentityTests
{
    [Fact]
    public void TwoProcessesOnOneMachineAndOneServerDatabaseHaveTwoNamesWhateverTheirFolders()
    {
        using var first = new TempDirectory();
        using var second = new TempDirectory();
        var connection = $"Host=127.0.0.1;Port=5432;Database=identity_{Guid.NewGuid():n};Username=bench"; // no server is asked
        var environment = new Microsoft.Extensions.Hosting.Internal.HostingEnvironment { ContentRootPath = first.Path };
        RunnerIdentity In(string folder, string database) => new(Options.Create(new DatabaseOptions
        {
            Provider = DatabaseProviders.PostgreSql, ConnectionString = connection.Replace("identity_", database), Path = Path.Combine(folder, "bench.db"),
        }), environment);

        var dashboard = In(first.Path, "identity_");
        using var runner = In(second.Path, "identity_");
        Assert.NotEqual(dashboard.Name, runner.Name);
        var name = dashboard.Name;
        dashboard.Dispose();
        using var restarted = In(first.Path, "identity_");
        Assert.Equal(name, restarted.Name); // its runs left running are still recognised as its own
        using var elsewhere = In(second.Path, "other_");
        Assert.Equal(name, elsewhere.Name); // another database's slots are its own
    }
}
