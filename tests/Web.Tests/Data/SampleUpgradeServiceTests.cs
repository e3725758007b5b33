using BenchDashboard.Core.Data;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Stores;
using BenchDashboard.TestSupport;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;

namespace BenchDashboard.Web.Tests.Data;

/// <summary>The dashboard converts sample rows to blocks on its own, and serves the run the same before and after.</summary>
public sealed class SampleUpgradeServiceTests
{
    [Fact]
    public async Task ADashboardConvertsARunsRowsToBlocksInTheBackgroundAndItsSamplesAnswerTheSame()
    {
        // A database whose run has its samples as rows, as an older build left it, and its CSV then.
        using var dir = new TempDirectory();
        var path = dir.File("bench.db");
        long runId;
        string csv;
        await using (var before = new DashboardFactory(new() { ["Runner:Process"] = "None", ["Database:Path"] = path, ["Database:ConvertSampleRows"] = "false" }))
        {
            using var scope = before.Services.CreateScope();
            var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
            var run = new Run { Kind = "http", ParametersJson = "{}", Status = RunStatus.Completed, QueuedUtcMs = 1, EndedUtcMs = 2 };
            db.Runs.Add(run);
            await db.SaveChangesAsync();
            runId = run.Id;
            db.Samples.AddRange(Enumerable.Range(0, 5_000).Select(i => new Sample
            {
                RunId = runId, Index = i, OffsetNs = i * 20_000L, LatencyNs = 1_000_000 + i * 7 % 3_000, StatusCode = 200, Bytes = 4096, Connection = i % 4,
            }));
            await db.SaveChangesAsync();
            csv = await before.CreateClient().GetStringAsync($"/api/runs/{runId}/samples?format=csv");
        }

        await using var app = new DashboardFactory(new() { ["Runner:Process"] = "None", ["Database:Path"] = path });
        var client = app.CreateClient();
        var deadline = DateTime.UtcNow.AddSeconds(60);
        while (true)
        {
            using var scope = app.Services.CreateScope();
            var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
            if (!await db.Samples.AnyAsync())
            {
                Assert.Equal(5_000, await db.SampleBlocks.SumAsync(b => b.Count));
                break;
            }
            Assert.True(DateTime.UtcNow < deadline, "the rows were not converted within 60 s");
            await Task.Delay(100);
        }
        Assert.Equal(csv, await client.GetStringAsync($"/api/runs/{runId}/samples?format=csv"));
        Assert.Equal(5_001, csv.Split('\n', StringSplitOptions.RemoveEmptyEntries).Length);
    }
}
