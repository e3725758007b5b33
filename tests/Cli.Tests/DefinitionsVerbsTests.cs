using System.Text.Json;
using BenchDashboard.TestSupport;

namespace BenchDashboard.Cli.Tests;

/// <summary>
/// The verbs over saved benchmarks: run by name or id, export and import. They need the benchmarks API
/// (GET /api/benchmarks, POST /api/benchmarks/{id}/runs, GET /api/benchmarks/export, POST
/// /api/benchmarks/import). Each test starts a dashboard of its own, so that an import starts from nothing.
/// </summary>
[Collection(DashboardCollection.Name)]
public sealed class DefinitionsVerbsTests(PublishedDashboard published, InstalledTool tool) : IClassFixture<InstalledTool>, IDisposable
{
    readonly TempDirectory dir = new();

    /// <summary>Two in-process cache benchmarks: one whose limit every run passes, one whose median limit no run can meet.</summary>
    static string Definitions(string passing = "cli passes", string failing = "cli fails") => JsonSerializer.Serialize(new
    {
        benchmarks = new object[]
        {
            new { name = passing, kind = "cache", parameters = new { backend = "memory", requests = 50, keyCount = 10 }, thresholds = new { maxErrorPercent = 100.0 } },
            new { name = failing, kind = "cache", parameters = new { backend = "memory", requests = 50, keyCount = 10 }, thresholds = new { maxMedianMs = 0.000001 } },
        },
    });

    string Write(string name, string text)
    {
        var path = dir.File(name);
        File.WriteAllText(path, text);
        return path;
    }

    [Fact]
    public async Task AnImportedBenchmarkIsRunByNameAndGatedOnItsLimits()
    {
        await using var dashboard = await published.StartAsync();
        var env = Client.For(dashboard);
        var imported = await Client.RunAsync(env, "import", Write("benchmarks.json", Definitions()));
        Assert.True(imported.ExitCode == 0, imported.ToString());
        Assert.StartsWith("Created: 2", imported.Out);

        var passed = await Client.RunAsync(env, "run", "cli passes");
        var failed = await Client.RunAsync(env, "run", "cli fails");

        Assert.True(passed.ExitCode == 0, passed.ToString());
        Assert.Contains("errorPercent limit 100: 0 passed", passed.Out);
        Assert.True(failed.ExitCode == 1, failed.ToString());
        Assert.Contains("medianMs limit 0.000001:", failed.Out);
        Assert.Contains("Result:                         failed (exit 1)", failed.Out);
    }

    [Fact]
    public async Task ARunThatPassedBeforeALimitWasAddedStillExitsZeroAndSaysTodaysLimitsWouldFailIt()
    {
        await using var dashboard = await published.StartAsync();
        var env = Client.For(dashboard);
        string Definition(object? thresholds) => Write(Guid.NewGuid().ToString("n") + ".json", JsonSerializer.Serialize(new
        {
            benchmarks = new[] { new { name = "limits later", kind = "cache", parameters = new { backend = "memory", requests = 50, keyCount = 10 }, thresholds } },
        }));
        Assert.Equal(0, (await Client.RunAsync(env, "import", Definition(null))).ExitCode);
        var before = await Client.RunAsync(env, "run", "limits later", "--json");
        Assert.True(before.ExitCode == 0, before.ToString());
        var id = before.Json.GetProperty("runs")[0].GetProperty("id").GetInt64();

        // A median no in-process operation can meet, from now on.
        Assert.Equal(0, (await Client.RunAsync(env, "import", Definition(new { maxMedianMs = 0.000001 }))).ExitCode);
        var after = await Client.RunAsync(env, "run", "limits later");
        Assert.True(after.ExitCode == 1, after.ToString());

        // The earlier run as the dashboard answers it now, read by benchdash's own code: still passed, today's verdict beside it.
        using var http = new HttpClient { BaseAddress = dashboard.Url };
        var run = JsonDocument.Parse(await http.GetStringAsync($"/api/runs/{id}")).RootElement;
        Assert.Equal(0, RunOutcome.ExitCodeOf(run));
        var text = Output.RunSummary.Format(run, dashboard.Url);
        Assert.Contains("Limits:                         none set\nLimits today:                   today's limits would fail this run (median ", text);
        Assert.Contains("Result:                         passed (exit 0)", text);
    }

    [Fact]
    public async Task ABenchmarkThatFailsItsLimitsLeavesProductionAloneAndOneThatPassesSwaps()
    {
        await using var dashboard = await published.StartAsync();
        var env = Client.For(dashboard);
        Assert.Equal(0, (await Client.RunAsync(env, "import", Write("benchmarks.json", Definitions()))).ExitCode);
        using var failingGate = new SlotGate();
        using var passingGate = new SlotGate();

        var failed = await failingGate.RunAsync(tool, env, "bench-rg", "bench-app", "--", "cli fails");
        var passed = await passingGate.RunAsync(tool, env, "bench-rg", "bench-app", "--", "cli passes");

        Assert.True(failed.ExitCode == 1, failed.ToString());
        Assert.Contains("Not swapping: the benchmark failed its limits or confirmed a regression", failed.Out);
        Assert.Equal("", failingGate.AzCalls);
        Assert.True(passed.ExitCode == 0, passed.ToString());
        Assert.Contains("slot swap", passingGate.AzCalls);
    }

    [Fact]
    public async Task TheRunThatConfirmsARegressionExitsOneAndTheRunsBeforeAndAfterItExitZero()
    {
        await using var target = await KestrelTarget.StartAsync();
        await using var dashboard = await published.StartAsync();
        var env = Client.For(dashboard);
        var definition = JsonSerializer.Serialize(new
        {
            benchmarks = new[] { new { name = "deployed", kind = "http", parameters = new { url = target.Url("/deployed?key=cli&ms=2").ToString(), requests = 20 } } },
        });
        Assert.Equal(0, (await Client.RunAsync(env, "import", Write("deployed.json", definition))).ExitCode);
        async Task<CliResult> RunAsync() => await Client.RunAsync(env, "run", "deployed", "--poll-ms", "100");

        for (var i = 0; i < 8; i++) Assert.Equal(0, (await RunAsync()).ExitCode);
        // The same address ten times as slow from now on, as after a deployment.
        using (var http = new HttpClient()) await http.GetStringAsync(target.Url("/deploy?key=cli&ms=20"));
        var slower = new List<CliResult>();
        for (var i = 0; i < 5; i++) slower.Add(await RunAsync());

        // The third run at the new level confirms it (on a busy machine whose runs before were noisy, the fourth).
        var exits = slower.Select(r => r.ExitCode).ToList();
        Assert.True(exits.Count(e => e == 1) == 1 && exits.IndexOf(1) is 2 or 3 && exits.All(e => e is 0 or 1), string.Join("\n", slower));
        var confirming = slower[exits.IndexOf(1)];
        // Every percentile moves tenfold; which moved furthest (and so heads the line) depends on how noisy the runs before were.
        // The whole output when it does not match: on a loaded machine this line once read otherwise, and a cut-off value hid how.
        Assert.True(System.Text.RegularExpressions.Regex.IsMatch(slower[0].Out, @"History: +possible change since run 9 \((median|p95|p99) slower\), waiting for 2 more runs"),
            string.Join("\n----\n", slower.Select(r => r.Out)));
        Assert.Matches(@"History: +FLAGGED regression: (median|p95|p99)", confirming.Out);
        Assert.Contains($"since run 9, confirmed by run {9 + exits.IndexOf(1)}", confirming.Out);
        Assert.Contains("Result:                         failed (exit 1)", confirming.Out);
        Assert.Contains("History:                        in line with the runs since run 9", slower[^1].Out);
    }

    [Fact]
    public async Task ABenchmarkIsFoundByItsIdAndByItsNameInAnotherCase()
    {
        await using var dashboard = await published.StartAsync();
        var env = Client.For(dashboard);
        Assert.Equal(0, (await Client.RunAsync(env, "import", Write("benchmarks.json", Definitions()))).ExitCode);
        using var http = new HttpClient { BaseAddress = dashboard.Url };
        var saved = JsonDocument.Parse(await http.GetStringAsync("/api/benchmarks")).RootElement.EnumerateArray();
        var id = saved.Single(b => b.GetProperty("name").GetString() == "cli passes").GetProperty("id").GetInt64();

        var byId = await Client.RunAsync(env, "run", id.ToString(), "--json");
        var byName = await Client.RunAsync(env, "run", "CLI PASSES", "--json");

        Assert.True(byId.ExitCode == 0, byId.ToString());
        Assert.Equal("cli passes", byId.Json.GetProperty("runs")[0].GetProperty("benchmarkName").GetString());
        Assert.True(byName.ExitCode == 0, byName.ToString());
        Assert.Equal(id, byName.Json.GetProperty("runs")[0].GetProperty("benchmarkId").GetInt64());
    }

    [Fact]
    public async Task AnUnknownNameExitsTwoNamingTheSavedOnes()
    {
        await using var dashboard = await published.StartAsync();
        var env = Client.For(dashboard);
        Assert.Equal(0, (await Client.RunAsync(env, "import", Write("benchmarks.json", Definitions()))).ExitCode);

        var result = await Client.RunAsync(env, "run", "no such benchmark");

        Assert.Equal(2, result.ExitCode);
        Assert.Contains("No benchmark is named \"no such benchmark\". Saved: ", result.Error);
        Assert.Contains("\"cli passes\" (", result.Error);
        Assert.Contains("\"cli fails\" (", result.Error);
    }

    [Fact]
    public async Task ExportImportIntoAnEmptyDashboardAndExportAgainIsIdentical()
    {
        await using var first = await published.StartAsync();
        Assert.Equal(0, (await Client.RunAsync(Client.For(first), "import", Write("benchmarks.json", Definitions()))).ExitCode);
        var exported = dir.File("exported.json");
        var export = await Client.RunAsync(Client.For(first), "export", "--output", exported);
        Assert.True(export.ExitCode == 0, export.ToString());
        Assert.Contains("Exported 2 benchmarks", export.Error);

        await using var second = await published.StartAsync();
        var imported = await Client.RunAsync(Client.For(second), "import", exported);
        var again = await Client.RunAsync(Client.For(second), "export");

        Assert.True(imported.ExitCode == 0, imported.ToString());
        Assert.Equal(File.ReadAllText(exported), again.Out);
    }

    [Fact]
    public async Task ADryRunSaysWhatWouldChangeAndChangesNothing()
    {
        await using var dashboard = await published.StartAsync();
        var env = Client.For(dashboard);

        var dry = await Client.RunAsync(env, "import", Write("benchmarks.json", Definitions()), "--dry-run");
        var after = await Client.RunAsync(env, "export", "--json");

        Assert.True(dry.ExitCode == 0, dry.ToString());
        Assert.StartsWith("Would create: 2", dry.Out);
        Assert.Contains("Dry run: nothing was changed.", dry.Out);
        Assert.Equal(0, after.Json.GetProperty("benchmarks").GetArrayLength());
    }

    [Fact]
    public async Task AnImportWithTwoBenchmarksOfOneNameIsRefusedWholeAndNamesIt()
    {
        await using var dashboard = await published.StartAsync();
        var env = Client.For(dashboard);

        var result = await Client.RunAsync(env, "import", Write("twice.json", Definitions(passing: "twice", failing: "twice")));
        var after = await Client.RunAsync(env, "export", "--json");

        Assert.Equal(2, result.ExitCode);
        Assert.StartsWith("400: ", result.Error);
        Assert.Contains("twice", result.Error);
        Assert.Equal(0, after.Json.GetProperty("benchmarks").GetArrayLength());
    }

    [Fact]
    public async Task ImportAndExportNeedTheKey()
    {
        await using var dashboard = await published.StartAsync();

        var result = await Client.RunAsync(Client.For(dashboard, key: "wrong"), "import", Write("benchmarks.json", Definitions()));

        Assert.Equal(2, result.ExitCode);
        Assert.Equal("401: the API key was refused", result.Error.Trim());
    }

    public void Dispose() => dir.Dispose();
}
