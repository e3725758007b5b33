using System.Net;
using BenchDashboard.Core.Data;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Stores;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;

namespace BenchDashboard.Web.Tests.Data;

/// <summary>Runs:KeepSamplesDays drops old runs' samples and keeps every answer their digests give.</summary>
public sealed class SampleRetentionTests
{
    [Fact]
    public async Task AnOldRunsSamplesAreDroppedItsFiguresAndComparisonsStayAndItsPageSaysWhen()
    {
        await using var app = new DashboardFactory(new() { ["Runner:Process"] = "None", ["Runs:KeepSamplesDays"] = "7" });
        var client = app.CreateClient();
        var now = DateTimeOffset.UtcNow;
        long Add(TimeSpan age)
        {
            using var scope = app.Services.CreateScope();
            var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
            var ended = (now - age).ToUnixTimeMilliseconds();
            var run = new Run { Kind = "http", ParametersJson = """{"url":"http://127.0.0.1:1/x","requests":3000}""", Status = RunStatus.Completed, QueuedUtcMs = ended - 5_000, StartedUtcMs = ended - 4_000, EndedUtcMs = ended };
            db.Runs.Add(run);
            db.SaveChanges();
            var random = new Random((int)run.Id);
            db.SampleBlocks.AddRange(SampleBlock.Pack(run.Id, Enumerable.Range(0, 3_000).Select(i => new Sample
            {
                RunId = run.Id, Index = i, OffsetNs = i * 1_000_000L, LatencyNs = 800_000 + random.Next(400_000), StatusCode = 200, Bytes = 512, Connection = i % 2,
            })));
            db.SaveChanges();
            return run.Id;
        }
        var old = Add(TimeSpan.FromDays(8));
        var recent = Add(TimeSpan.FromDays(6));
        string[] kept = [$"/api/runs/{old}", $"/api/runs/{old}/analysis?window=1", $"/api/compare?items={old},{recent}&seed=4"];
        var before = new List<string>();
        foreach (var path in kept) before.Add(await client.GetStringAsync(path));

        await using (var scope = app.Services.CreateAsyncScope())
        {
            Assert.Equal(1, await scope.ServiceProvider.GetRequiredService<RunRetention>().DropExpiredSamplesAsync(100, default));
            var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
            Assert.Equal((0, 3_000), (await RunSamples.CountAsync(db, old), await RunSamples.CountAsync(db, recent)));
            var dropped = (await db.Runs.SingleAsync(r => r.Id == old)).SamplesDroppedUtcMs;
            Assert.InRange(dropped!.Value, now.ToUnixTimeMilliseconds(), DateTimeOffset.UtcNow.ToUnixTimeMilliseconds());
            Assert.Null((await db.Runs.SingleAsync(r => r.Id == recent)).SamplesDroppedUtcMs);
            Assert.Equal(0, await scope.ServiceProvider.GetRequiredService<RunRetention>().DropExpiredSamplesAsync(100, default));
        }

        for (var i = 0; i < kept.Length; i++) Assert.Equal((kept[i], before[i]), (kept[i], await client.GetStringAsync(kept[i])));
        // What only the samples hold (each sample, the latencies in the order they started) is gone, and says since when.
        foreach (var path in new[] { $"/api/runs/{old}/samples?format=csv", $"/api/runs/{old}/samples", $"/api/runs/{old}/histogram.hlog" })
        {
            var gone = await client.GetAsync(path);
            Assert.Equal((path, HttpStatusCode.Gone), (path, gone.StatusCode));
            Assert.Contains($"samples were dropped on {now:yyyy-MM-dd}", await gone.Content.ReadAsStringAsync());
        }
        var page = WebUtility.HtmlDecode(await client.GetStringAsync($"/runs/{old}"));
        Assert.Contains($"Samples: dropped on {now:yyyy-MM-dd}", page);
        Assert.DoesNotContain("samples-dropped", await client.GetStringAsync($"/runs/{recent}"));
    }
}
