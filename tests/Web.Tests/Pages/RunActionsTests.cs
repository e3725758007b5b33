using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using BenchDashboard.Core.Data;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Stores;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;

namespace BenchDashboard.Web.Tests.Pages;

/// <summary>What a reader can do with a run from its page: run it again, save it as a benchmark, delete it; and old runs going by themselves.</summary>
public sealed class RunActionsTests
{
    static async Task<HttpResponseMessage> PostAsync(HttpClient client, long run, string handler, Dictionary<string, string>? fields = null)
    {
        var token = FormPost.Token(await client.GetStringAsync($"/runs/{run}"));
        var form = new Dictionary<string, string>(fields ?? []) { ["__RequestVerificationToken"] = token };
        return await client.PostAsync($"/runs/{run}?handler={handler}", new FormUrlEncodedContent(form));
    }

    static Task<int> CountAsync(DashboardFactory app, Func<BenchDbContext, Task<int>> count) =>
        app.Services.CreateAsyncScope() is var scope ? count(scope.ServiceProvider.GetRequiredService<BenchDbContext>()) : Task.FromResult(0);

    [Fact]
    public async Task RunAgainQueuesTheSameParametersAndSaveMakesABenchmarkOfThem()
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient(new WebApplicationFactoryClientOptions { AllowAutoRedirect = false });
        var first = await DashboardFactory.CreateRunAsync(client, new { kind = "cache", requests = 50, keyCount = 5 });
        await DashboardFactory.WaitForEndAsync(client, first);

        var again = await PostAsync(client, first, "Again");
        Assert.Equal(HttpStatusCode.Redirect, again.StatusCode);
        var second = long.Parse(again.Headers.Location!.ToString()["/runs/".Length..]);
        var run = await DashboardFactory.WaitForEndAsync(client, second);
        var parameters = (await client.GetFromJsonAsync<JsonElement>($"/api/runs/{first}")).GetProperty("parameters").GetRawText();
        Assert.Equal(parameters, run.GetProperty("parameters").GetRawText());

        var saved = await PostAsync(client, first, "Save", new() { ["name"] = "from a run" });
        Assert.Matches(@"^/benchmarks/edit/\d+$", saved.Headers.Location!.ToString());
        var refused = await PostAsync(client, first, "Save", new() { ["name"] = "from a run" }); // the name is taken
        Assert.Contains("A benchmark with this name exists.", WebUtility.HtmlDecode(await client.GetStringAsync(refused.Headers.Location!.ToString())));
    }

    [Fact]
    public async Task DeleteNeedsTheBoxTickedAndTakesTheSamplesAndDigestsWithTheRun()
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient(new WebApplicationFactoryClientOptions { AllowAutoRedirect = false });
        var id = await DashboardFactory.CreateRunAsync(client, new { kind = "cache", requests = 200, keyCount = 5 });
        await DashboardFactory.WaitForEndAsync(client, id);
        await client.GetStringAsync($"/runs/{id}"); // its digest exists now
        Assert.True(await CountAsync(app, db => RunSamples.CountAsync(db, id)) > 0);

        var unconfirmed = await PostAsync(client, id, "Delete");
        Assert.Contains("Tick the box", WebUtility.HtmlDecode(await client.GetStringAsync(unconfirmed.Headers.Location!.ToString())));
        Assert.Equal(HttpStatusCode.OK, (await client.GetAsync($"/api/runs/{id}")).StatusCode);

        var deleted = await PostAsync(client, id, "Delete", new() { ["confirm"] = "true" });
        Assert.Equal($"/?deleted={id}", deleted.Headers.Location!.ToString());
        Assert.Equal(HttpStatusCode.NotFound, (await client.GetAsync($"/runs/{id}")).StatusCode);
        Assert.Equal(0, await CountAsync(app, db => RunSamples.CountAsync(db, id)));
        Assert.Equal(0, await CountAsync(app, db => db.Digests.CountAsync(d => d.RunId == id)));
        Assert.Equal(0, await CountAsync(app, db => db.Latencies.CountAsync(l => l.RunId == id)));
    }

    [Fact]
    public async Task RetentionDeletesFinishedRunsOlderThanKeepDaysAndNothingElse()
    {
        await using var app = new DashboardFactory(new() { ["Runs:KeepDays"] = "7", ["Runner:Process"] = "None" });
        var client = app.CreateClient();
        var now = DateTimeOffset.UtcNow;
        long Add(RunStatus status, TimeSpan age)
        {
            using var scope = app.Services.CreateScope();
            var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
            var run = new Run { Kind = "cache", ParametersJson = "{}", Status = status, QueuedUtcMs = (now - age).ToUnixTimeMilliseconds(), EndedUtcMs = status.IsFinal() ? (now - age).ToUnixTimeMilliseconds() : null };
            db.Runs.Add(run);
            db.SaveChanges();
            db.Samples.Add(new Sample { RunId = run.Id, Index = 0, LatencyNs = 1 });
            db.SaveChanges();
            return run.Id;
        }
        var old = Add(RunStatus.Completed, TimeSpan.FromDays(8));
        var oldFailed = Add(RunStatus.Failed, TimeSpan.FromDays(30));
        var recent = Add(RunStatus.Completed, TimeSpan.FromDays(6));
        var oldQueued = Add(RunStatus.Queued, TimeSpan.FromDays(9)); // not finished: it stays

        await using var scope = app.Services.CreateAsyncScope();
        var deleted = await scope.ServiceProvider.GetRequiredService<RunRetention>().DeleteExpiredAsync(100, default);

        Assert.Equal(2, deleted);
        var left = await scope.ServiceProvider.GetRequiredService<BenchDbContext>().Runs.Select(r => r.Id).ToListAsync();
        Assert.Equal([recent, oldQueued], left.Order());
        Assert.DoesNotContain(old, left);
        Assert.DoesNotContain(oldFailed, left);
        Assert.Equal(0, await RunSamples.CountAsync(scope.ServiceProvider.GetRequiredService<BenchDbContext>(), old));
    }
}
