using BenchDashboard.Core.Data;
using BenchDashboard.TestSupport;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Infrastructure;
using Microsoft.EntityFrameworkCore.Metadata;
using Microsoft.EntityFrameworkCore.Migrations;

namespace BenchDashboard.Core.Tests.Data;

public class MigrationTests
{
    [Fact]
    public async Task MigrationsApplyToAnEmptyDatabaseFile()
    {
        using var dir = new TempDirectory();
        await using var db = new BenchDbContext(new DbContextOptionsBuilder<BenchDbContext>().UseSqlite($"Data Source={dir.File("empty.db")}").Options);

        await db.Database.MigrateAsync();

        Assert.Empty(await db.Database.GetPendingMigrationsAsync());
        Assert.Equal(0, await db.Runs.CountAsync());
        Assert.Equal(0, await db.Samples.CountAsync());
    }

    [Fact]
    public async Task RunsAndBenchmarksStoredWithEnumNamesGetTheirKindsApiName()
    {
        using var dir = new TempDirectory();
        await using var db = new BenchDbContext(new DbContextOptionsBuilder<BenchDbContext>().UseSqlite($"Data Source={dir.File("old.db")}").Options);
        var migrator = db.GetService<IMigrator>();
        await migrator.MigrateAsync("RunSummaryAndThresholds"); // the schema before kinds were named by the API
        foreach (var (kind, i) in new[] { "Http", "Cache", "FileSystem" }.Select((k, i) => (k, i)))
        {
            await db.Database.ExecuteSqlInterpolatedAsync($"INSERT INTO Benchmarks (Name, Kind, ParametersJson, Enabled, CreatedUtcMs) VALUES ({"b" + i}, {kind}, {"{}"}, 1, 0)");
            await db.Database.ExecuteSqlInterpolatedAsync($"INSERT INTO Runs (Kind, ParametersJson, Status, QueuedUtcMs, CompletedRequests, CancelRequested) VALUES ({kind}, {"{}"}, 'Completed', 0, 0, 0)");
        }

        await migrator.MigrateAsync();

        Assert.Equal(["cache", "fileSystem", "http"], (await db.Runs.Select(r => r.Kind).ToListAsync()).Order());
        Assert.Equal(["cache", "fileSystem", "http"], (await db.Benchmarks.Select(b => b.Kind).ToListAsync()).Order());
    }

    [Fact]
    public async Task AnOlderDatabaseKeepsEveryRunAndItsRunsGetTheirBenchmarksNames()
    {
        using var dir = new TempDirectory();
        await using var db = new BenchDbContext(new DbContextOptionsBuilder<BenchDbContext>().UseSqlite($"Data Source={dir.File("old.db")}").Options);
        var migrator = db.GetService<IMigrator>();
        await migrator.MigrateAsync("BenchmarkTimeZone"); // the schema before runs kept their benchmark's name
        foreach (var name in new[] { "nightly", "smoke" })
            await db.Database.ExecuteSqlInterpolatedAsync($"INSERT INTO Benchmarks (Name, Kind, ParametersJson, Enabled, CreatedUtcMs) VALUES ({name}, 'http', '{{}}', 1, 0)");
        foreach (var benchmarkId in new int?[] { 1, 1, 2, null })
            await db.Database.ExecuteSqlInterpolatedAsync($"INSERT INTO Runs (BenchmarkId, Kind, ParametersJson, Status, QueuedUtcMs, CompletedRequests, CancelRequested) VALUES ({benchmarkId}, 'http', '{{}}', 'Completed', 0, 0, 0)");

        await migrator.MigrateAsync();

        var runs = await db.Runs.OrderBy(r => r.Id).Select(r => new { r.BenchmarkId, r.BenchmarkName }).ToListAsync();
        Assert.Equal(new (int?, string?)[] { (1, "nightly"), (1, "nightly"), (2, "smoke"), (null, null) }, runs.Select(r => (r.BenchmarkId, r.BenchmarkName)));
    }

    [Fact]
    public void TheModelHasNoChangesMissingFromTheMigrations()
    {
        using var db = new BenchDbContext(new DbContextOptionsBuilder<BenchDbContext>().UseSqlite("Data Source=:memory:").Options);
        var snapshot = db.GetService<IMigrationsAssembly>().ModelSnapshot!.Model;
        var initialized = db.GetService<IModelRuntimeInitializer>().Initialize(snapshot, designTime: true);

        var differences = db.GetService<IMigrationsModelDiffer>().GetDifferences(
            initialized.GetRelationalModel(), db.GetService<IDesignTimeModel>().Model.GetRelationalModel());

        Assert.Empty(differences);
    }
}
