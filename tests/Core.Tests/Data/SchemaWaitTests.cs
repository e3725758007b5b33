using BenchDashboard.Core.Data;
using BenchDashboard.TestSupport;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace BenchDashboard.Core.Tests.Data;

/// <summary>Only the dashboard migrates; a runner on its own waits for the schema and says why.</summary>
public class SchemaWaitTests
{
    [Fact]
    public async Task ARunnerWaitsWithAWarningUntilTheDashboardHasMigratedTheFile()
    {
        using var dir = new TempDirectory();
        await using var provider = DatabaseServices.For(dir.File("bench.db"));
        using var logs = new LogCapture();

        var waiting = provider.WaitForSchemaAsync(logs.CreateLogger("runner"), poll: TimeSpan.FromMilliseconds(50));
        await Task.Delay(500);
        Assert.False(waiting.IsCompleted);
        var said = Assert.Single(logs.Messages(LogLevel.Warning));
        // Read from the build, so that adding a migration does not break this test.
        var ids = typeof(BenchDashboard.Core.Data.BenchDbContext).Assembly.GetTypes()
            .Select(t => t.GetCustomAttributes(typeof(Microsoft.EntityFrameworkCore.Migrations.MigrationAttribute), false).Cast<Microsoft.EntityFrameworkCore.Migrations.MigrationAttribute>().SingleOrDefault()?.Id)
            .OfType<string>().Order(StringComparer.Ordinal).ToList();
        Assert.Contains("20261125051245_RunBenchmarkName", ids);
        Assert.Contains($"lacks {ids.Count} migration(s) of this build (the latest: {ids[^1]})", said);
        Assert.Contains("the dashboard applies them when it starts: waiting for it", said);

        await provider.MigrateDatabaseAsync();
        await waiting.WaitAsync(TimeSpan.FromSeconds(10));
        Assert.Contains("The results database is up to date; starting", logs.Messages(LogLevel.Information));
    }
}
