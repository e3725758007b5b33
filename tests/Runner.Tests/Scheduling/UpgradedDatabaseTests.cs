using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Stores;
using BenchDashboard.TestSupport;
using Microsoft.Data.Sqlite;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Hosting;

namespace BenchDashboard.Runner.Tests.Scheduling;

/// <summary>The runner on a file the EF Core 6 build wrote (<see cref="Ef6Database"/>), once upgraded.</summary>
public sealed class UpgradedDatabaseTests
{
    [Fact]
    public async Task ANewRunOnAnUpgradedEf6DatabaseCompletesBesideTheOldOnes()
    {
        await using var target = await KestrelTarget.StartAsync();
        using var dir = new TempDirectory();
        var path = dir.File("ef6.db");
        using (var connection = new SqliteConnection($"Data Source={path};Pooling=False"))
        {
            connection.Open();
            using var load = connection.CreateCommand();
            load.CommandText = Ef6Database.Sql;
            load.ExecuteNonQuery();
        }
        await using var host = await RunnerHost.CreateAsync(new() { ["Database:Path"] = path }); // migrates it
        await host.Host.StartAsync();

        var runId = await host.EnqueueAsync(q => q.EnqueueAsync(new HttpParameters { Url = target.Url("/delay?ms=1").ToString(), Requests = 50 }, 1, default));
        var run = await host.UntilFinalAsync(runId, seconds: 60);
        await host.Host.StopAsync();

        // The file's two scheduled benchmarks have missed slots since it was written, so the scheduler may queue
        // a catch-up run of each beside this one: count the old runs' rows and this run's, not the table's.
        const long old = Ef6Database.Runs;
        Assert.True(runId > old);
        Assert.Equal((RunStatus.Completed, 50), (run.Status, run.CompletedRequests));
        Assert.Equal(Ef6Database.Samples, await host.WithDbAsync(db => db.Samples.CountAsync(s => s.RunId <= old)));
        Assert.Equal(50, await host.WithDbAsync(db => RunSamples.CountAsync(db, runId)));
        Assert.Equal(Ef6Database.Digests, await host.WithDbAsync(db => db.Digests.CountAsync(d => d.RunId <= old)));
        Assert.Equal(1, await host.WithDbAsync(db => db.Digests.CountAsync(d => d.RunId == runId)));
        Assert.Equal(Ef6Database.Runs, await host.WithDbAsync(db => db.Runs.CountAsync(r => r.Id <= old)));
    }
}
