using System.Net.Http.Json;
using System.Text.Json;
using System.Text.RegularExpressions;
using BenchDashboard.Core.Data;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Stores;
using BenchDashboard.Processing.Executing;
using BenchDashboard.Processing.Storing;
using BenchDashboard.TestSupport;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;

namespace BenchDashboard.Web.Tests.Data;

/// <summary>
/// Samples in packed blocks answer exactly as the same samples in rows (the store before blocks): real runs are
/// measured and stored as blocks by one dashboard; their runs and samples are put as rows into a second and through
/// the sample writer into a third; every answer that reads samples (the run, its samples as JSON and CSV, windows,
/// series, the .hlog, both latency bases, comparisons, the run's page and report) must be the same bytes from the
/// rows as from either's blocks.
/// </summary>
public sealed class BlockStoreAnswersTests
{
    /// <summary>A dashboard (its runner idle, so that pages say the same about it) holding the runs and their samples.</summary>
    static async Task<DashboardFactory> StoreAsync(List<(Run Run, List<Sample> Samples)> runs, bool asRows)
    {
        // The rows stay rows: not converted to blocks in the background.
        var app = new DashboardFactory(new() { ["Database:ConvertSampleRows"] = "false" });
        using var scope = app.Services.CreateScope();
        var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
        await db.Database.MigrateAsync();
        foreach (var (run, samples) in runs)
        {
            db.Runs.Add(run);
            await db.SaveChangesAsync();
            db.ChangeTracker.Clear();
            if (asRows)
            {
                db.Samples.AddRange(samples.Select(s => s.Copy()));
                await db.SaveChangesAsync();
                db.ChangeTracker.Clear();
                continue;
            }
            using var storing = new BackgroundThread("test storing", nice: 0);
            var writer = new SampleWriter(app.Services.GetRequiredService<IServiceScopeFactory>(), batchSize: 37, TimeSpan.Zero, capacity: samples.Count,
                giveUpAfter: TimeSpan.FromSeconds(30), storing);
            var random = new Random(5);
            foreach (var sample in samples.OrderBy(s => s.Index + random.Next(40))) Assert.True(writer.TryAdd(sample.Copy()));
            writer.Complete();
            await writer.WriteAllAsync();
            Assert.Equal(samples.Count, writer.Stored);
        }
        Assert.Equal(asRows, await db.Samples.AnyAsync());
        Assert.Equal(!asRows, await db.SampleBlocks.AnyAsync());
        return app;
    }

    /// <summary>
    /// A page's anti-forgery tokens and the fingerprints of hidden parameters are each dashboard's own keys', and a
    /// report's time of saving is the clock's, not the samples': they are left out.
    /// </summary>
    static string WithoutOwnKeys(string html)
    {
        html = Regex.Replace(html, "name=\"__RequestVerificationToken\" type=\"hidden\" value=\"[^\"]*\"", "name=\"__RequestVerificationToken\"");
        html = Regex.Replace(html, @"\(hidden, (\d+) chars, id [0-9a-f]{8}\)", "(hidden, $1 chars)");
        return Regex.Replace(html, @"saved \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC", "saved (time)");
    }

    /// <summary>Where two answers part, with some of each around it.</summary>
    static string Around(string expected, string actual)
    {
        var at = 0;
        while (at < Math.Min(expected.Length, actual.Length) && expected[at] == actual[at]) at++;
        string Near(string text) => text.Substring(Math.Max(0, at - 150), Math.Min(text.Length, at + 150) - Math.Max(0, at - 150));
        return $"at {at}, rows: «{Near(expected)}», blocks: «{Near(actual)}»";
    }

    [Fact]
    public async Task EveryAnswerFromBlocksIsByteForByteTheAnswerFromRows()
    {
        await using var target = await KestrelTarget.StartAsync();
        await using var packed = new DashboardFactory();
        var client = packed.CreateClient();
        // Two series with errors in one, and an open-model run (lag, two latency bases).
        var closed = await DashboardFactory.CreateRunAsync(client, new
        {
            kind = "http", url = target.Url("/delay?ms=1").ToString(), requests = 600, concurrency = 4, warmupRequests = 40,
            variants = new object[] { new { name = "ok" }, new { name = "fail", url = target.Url("/status?code=500").ToString() } },
        });
        await DashboardFactory.WaitForEndAsync(client, closed);
        var open = await DashboardFactory.CreateRunAsync(client, new { kind = "http", url = target.Url("/delay?ms=1").ToString(), model = "open", rate = 300, durationSeconds = 2, concurrency = 4 });
        await DashboardFactory.WaitForEndAsync(client, open);

        var runs = new List<(Run Run, List<Sample> Samples)>();
        using (var scope = packed.Services.CreateScope())
        {
            var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
            Assert.Equal(0, await db.Samples.CountAsync());
            foreach (var id in new[] { closed, open })
            {
                var samples = await RunSamples.ListAsync(db, id);
                Assert.Equal(samples.Count, await db.SampleBlocks.Where(b => b.RunId == id).SumAsync(b => b.Count));
                Assert.Equal(Enumerable.Range(0, samples.Count), samples.Select(s => s.Index));
                runs.Add((await db.Runs.AsNoTracking().SingleAsync(r => r.Id == id), samples));
            }
            // Both dashboards build the digests from their samples when first asked.
            await db.Digests.ExecuteDeleteAsync();
            await db.Latencies.ExecuteDeleteAsync();
        }

        // The same samples as rows, and packed again by the sample writer in small batches arriving out of index order
        // (as requests complete), so that blocks overlap and their tails are packed again.
        await using var rows = await StoreAsync(runs, asRows: true);
        await using var blocks = await StoreAsync(runs, asRows: false);
        var rowsClient = rows.CreateClient();
        var blocksClient = blocks.CreateClient();

        string[] paths =
        [
            $"/api/runs/{closed}", $"/api/runs/{closed}?format=markdown", $"/api/runs/{closed}?format=text",
            $"/api/runs/{closed}/samples", $"/api/runs/{closed}/samples?format=csv",
            $"/api/runs/{closed}/analysis", $"/api/runs/{closed}/analysis?window=1", $"/api/runs/{closed}/analysis?series=fail",
            $"/api/runs/{closed}/analysis?format=markdown", $"/api/runs/{closed}/histogram.hlog", $"/api/runs/{closed}/histogram.hlog?series=ok",
            $"/api/runs/{open}", $"/api/runs/{open}/samples", $"/api/runs/{open}/samples?format=csv", $"/api/runs/{open}/analysis?latency=service",
            $"/api/runs/{open}/histogram.hlog", $"/api/runs/{open}/histogram.hlog?latency=service",
            $"/api/compare?items={closed}/ok,{closed}/fail&seed=1", $"/api/compare?items={closed}/ok,{open}&seed=2&format=csv",
            $"/api/compare?items={open},{closed}&latency=service&seed=3&format=markdown",
            $"/runs/{closed}", $"/runs/{open}?latency=service", $"/runs/{closed}/report", $"/compare?items={closed}/ok,{closed}/fail&seed=1",
        ];
        foreach (var (path, measured) in paths.SelectMany(p => new[] { (p, blocksClient), (p, client) }))
        {
            using var fromBlocks = await measured.GetAsync(path);
            using var fromRows = await rowsClient.GetAsync(path);
            Assert.Equal((path, fromRows.StatusCode), (path, fromBlocks.StatusCode));
            Assert.Equal((path, fromRows.Content.Headers.ContentType?.ToString()), (path, fromBlocks.Content.Headers.ContentType?.ToString()));
            var expected = WithoutOwnKeys(await fromRows.Content.ReadAsStringAsync());
            Assert.True(expected.Length > 100, $"{path} answered only {expected}");
            var actual = WithoutOwnKeys(await fromBlocks.Content.ReadAsStringAsync());
            Assert.True(expected == actual, $"{path} differs from its answer from rows: {Around(expected, actual)}");
        }
    }
}
