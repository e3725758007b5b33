using System.Net.Http.Json;
using System.Text.Json;
using BenchDashboard.Core.Data;
using BenchDashboard.TestSupport;
using BenchDashboard.Web.Moving;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Infrastructure;
using Microsoft.EntityFrameworkCore.Migrations;

namespace BenchDashboard.Web.Tests.Data;

/// <summary>
/// The dashboard's <c>move-history</c> verb: a history made by a real dashboard on SQLite, moved into a database of the
/// test cluster, is shown the same by a dashboard on PostgreSQL; an old file is migrated first; differing counts
/// and a refused target end with their exit codes.
/// </summary>
public sealed class MoveHistoryTests
{
    static async Task<(int Code, string Output, string Errors)> MoveAsync(params string[] args)
    {
        var output = new StringWriter();
        var errors = new StringWriter();
        var code = await MoveHistoryCommand.RunAsync(["move-history", .. args], output, errors, CancellationToken.None);
        return (code, output.ToString(), errors.ToString());
    }

    [Fact]
    public async Task RunsMadeOnSqliteShowTheSameOnAPostgreSqlDashboardAfterTheMove()
    {
        await using var target = await KestrelTarget.StartAsync();
        await using var postgres = await TestDatabase.CreateAsync("postgresql");
        using var dir = new TempDirectory();
        var sqlite = new DashboardFactory(new() { ["Database:Path"] = dir.File("history.db") });
        long http, cache;
        string httpRun, cacheRun;
        await using (sqlite)
        {
            var client = sqlite.CreateClient();
            http = await DashboardFactory.CreateRunAsync(client, new { kind = "http", url = target.Url("/ok").ToString(), requests = 300, concurrency = 2, warmupRequests = 5 });
            cache = await DashboardFactory.CreateRunAsync(client, new { kind = "cache", requests = 200, keyCount = 50, concurrency = 2 });
            httpRun = (await DashboardFactory.WaitForEndAsync(client, http)).ToString();
            cacheRun = (await DashboardFactory.WaitForEndAsync(client, cache)).ToString();
            Assert.Contains("\"status\":\"completed\"", httpRun.Replace(" ", ""));
        }
        Microsoft.Data.Sqlite.SqliteConnection.ClearAllPools();

        var (code, output, errors) = await MoveAsync("--from", dir.File("history.db"), "--to", postgres.ConnectionString!);

        Assert.True(code == 0, output + errors);
        Assert.Contains("Every count matches.", output);
        Assert.DoesNotContain(PostgreSqlServer.Password, output);
        await using var dashboard = new DashboardFactory(new(postgres.Settings) { ["Runner:Process"] = "None" });
        var onPostgres = dashboard.CreateClient();
        Assert.Equal(httpRun, (await onPostgres.GetFromJsonAsync<JsonElement>($"/api/runs/{http}")).ToString());
        Assert.Equal(cacheRun, (await onPostgres.GetFromJsonAsync<JsonElement>($"/api/runs/{cache}")).ToString());
        var page = System.Net.WebUtility.HtmlDecode(await onPostgres.GetStringAsync($"/runs/{http}"));
        Assert.Contains("id=\"ladder\"", page);
        Assert.Contains(">completed<", page);
        Assert.Contains(target.Url("/ok").ToString(), page);
    }

    [Fact]
    public async Task AnOldFileIsBroughtToThisVersionBeforeItMoves()
    {
        using var dir = new TempDirectory();
        await using var postgres = await TestDatabase.CreateAsync("postgresql");
        var path = dir.File("old.db");
        await using (var db = new BenchDbContext(new DbContextOptionsBuilder<BenchDbContext>().UseSqlite($"Data Source={path}").Options))
        {
            await db.GetService<IMigrator>().MigrateAsync("BenchmarkTimeZone"); // before runs kept their benchmark's name
            await db.Database.ExecuteSqlRawAsync("INSERT INTO Benchmarks (Name, Kind, ParametersJson, Enabled, CreatedUtcMs) VALUES ('nightly', 'http', '{{}}', 1, 0)");
            await db.Database.ExecuteSqlRawAsync("INSERT INTO Runs (BenchmarkId, Kind, ParametersJson, Status, QueuedUtcMs, CompletedRequests, CancelRequested) VALUES (1, 'http', '{{}}', 'Completed', 7, 0, 0)");
        }
        Microsoft.Data.Sqlite.SqliteConnection.ClearAllPools();

        var (code, output, errors) = await MoveAsync("--from", path, "--to", postgres.ConnectionString!);

        Assert.True(code == 0, output + errors);
        await using var moved = new BenchDbContext(DatabaseProviders.UsePostgreSql(new DbContextOptionsBuilder<BenchDbContext>(), postgres.ConnectionString!).Options);
        Assert.Equal("nightly", (await moved.Runs.SingleAsync()).BenchmarkName);
    }

    [Fact]
    public async Task DifferingCountsEndWithOneAndNameTheRun()
    {
        await using var postgres = await TestDatabase.CreateAsync("postgresql");
        using var dir = new TempDirectory();
        var sqlite = new DashboardFactory(new() { ["Runner:Process"] = "None", ["Database:Path"] = dir.File("history.db") });
        long id;
        await using (sqlite)
        {
            var client = sqlite.CreateClient();
            id = await DashboardFactory.CreateRunAsync(client, new { kind = "http", url = "http://127.0.0.1:1/never", requests = 1 });
        }
        Microsoft.Data.Sqlite.SqliteConnection.ClearAllPools();
        Assert.Equal(0, (await MoveAsync("--from", dir.File("history.db"), "--to", postgres.ConnectionString!)).Code);
        await using (var db = new BenchDbContext(DatabaseProviders.UsePostgreSql(new DbContextOptionsBuilder<BenchDbContext>(), postgres.ConnectionString!).Options))
            await db.Database.ExecuteSqlRawAsync("""INSERT INTO "WebhookDeliveries" ("RunId", "Url", "Event", "PayloadJson", "Status", "Attempts", "CreatedUtcMs", "NextAttemptUtcMs") VALUES ({0}, 'https://x.example/', 'regression', '{{}}', 'Pending', 0, 0, 0)""", id);

        var (code, _, errors) = await MoveAsync("--from", dir.File("history.db"), "--to", postgres.ConnectionString!);

        Assert.Equal(1, code);
        Assert.Contains($"WebhookDeliveries of run {id}: 0 in the source, 1 in the target", errors);
    }

    [Fact]
    public async Task ATargetWithAnotherHistoryIsRefusedWithTwo()
    {
        await using var postgres = await TestDatabase.CreateAsync("postgresql");
        using var dir = new TempDirectory();
        var first = new DashboardFactory(new() { ["Runner:Process"] = "None", ["Database:Path"] = dir.File("first.db") });
        var second = new DashboardFactory(new() { ["Runner:Process"] = "None", ["Database:Path"] = dir.File("second.db") });
        await using (first) await DashboardFactory.CreateRunAsync(first.CreateClient(), new { kind = "http", url = "http://127.0.0.1:1/a", requests = 1 });
        await using (second) await DashboardFactory.CreateRunAsync(second.CreateClient(), new { kind = "http", url = "http://127.0.0.1:1/b", requests = 2 });
        Microsoft.Data.Sqlite.SqliteConnection.ClearAllPools();
        Assert.Equal(0, (await MoveAsync("--from", dir.File("first.db"), "--to", postgres.ConnectionString!)).Code);

        var (code, _, errors) = await MoveAsync("--from", dir.File("second.db"), "--to", postgres.ConnectionString!);

        Assert.Equal(2, code);
        Assert.Contains("refused, nothing was moved: the target already holds other runs under the ids of 1 of this history's runs (run 1)", errors);
        Assert.Equal(2, (await MoveAsync("--from", "/nonexistent/x.db", "--to", postgres.ConnectionString!)).Code);
        Assert.Equal(2, (await MoveAsync("--to", postgres.ConnectionString!)).Code);
    }
}
