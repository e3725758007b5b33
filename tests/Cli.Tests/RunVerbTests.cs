using System.Net.Http.Json;
using System.Text.Json;
using BenchDashboard.TestSupport;

namespace BenchDashboard.Cli.Tests;

/// <summary><c>benchdash run --file</c> against a real dashboard process, and the ways it can fail to start.</summary>
[Collection(DashboardCollection.Name)]
public sealed class RunVerbTests(PublishedDashboard published) : IDisposable
{
    readonly TempDirectory dir = new();
    DashboardProcess Dashboard => published.Shared;

    string ParametersFile(object body)
    {
        var path = dir.File(Guid.NewGuid().ToString("n") + ".json");
        File.WriteAllText(path, JsonSerializer.Serialize(body));
        return path;
    }

    [Fact]
    public async Task AnHttpRunFromAFileIsFollowedAndSummarisedLikeGoWrkAndAbAndExitsZero()
    {
        var file = ParametersFile(new { kind = "http", url = new Uri(Dashboard.Url, "/target/bytes?size=512").ToString(), requests = 40, concurrency = 2 });

        var result = await Client.RunAsync(Client.For(Dashboard), "run", "--file", file);

        Assert.True(result.ExitCode == 0, result.ToString());
        var id = long.Parse(System.Text.RegularExpressions.Regex.Match(result.Error, @"run (\d+): completed").Groups[1].Value);
        using var http = new HttpClient { BaseAddress = Dashboard.Url };
        var run = await http.GetFromJsonAsync<JsonElement>($"/api/runs/{id}");
        var stats = run.GetProperty("stats");
        Assert.Equal(40, stats.GetProperty("count").GetInt32());
        var lines = result.Out.Split('\n');
        Assert.Contains("==========================BENCHMARK==========================", lines);
        Assert.Contains($"URL:                            {Dashboard.Url}target/bytes?size=512", lines);
        Assert.Contains("Used Connections:               2", lines);
        Assert.Contains("Total number of calls:          40", lines);
        Assert.Contains($"Median time per request:        {stats.GetProperty("p50Ms").GetDouble():0.00}ms", lines);
        Assert.Contains("20X Responses:          40      (100.00%)", lines);
        Assert.Contains("Errors:                 0       (0.00%)", lines);
        Assert.Contains("Percentage of the requests served within a certain time (ms)", lines);
        Assert.Contains(lines, l => l.StartsWith("  100% ") && l.EndsWith("(longest request)") && l.Contains($"{stats.GetProperty("maxMs").GetDouble():0.00}"));
        Assert.Contains("Result:                         passed (exit 0)", lines);
    }

    [Fact]
    public async Task WithJsonTheOutputIsTheRunItselfWithItsVerdict()
    {
        var file = ParametersFile(new { kind = "cache", backend = "memory", requests = 50, keyCount = 10 });

        var result = await Client.RunAsync(Client.For(Dashboard), "run", "--file", file, "--json");

        Assert.True(result.ExitCode == 0, result.ToString());
        var json = result.Json;
        Assert.Equal("passed", json.GetProperty("verdict").GetString());
        Assert.Equal(0, json.GetProperty("exitCode").GetInt32());
        var run = Assert.Single(json.GetProperty("runs").EnumerateArray());
        Assert.Equal("completed", run.GetProperty("status").GetString());
        Assert.Equal(4, run.GetProperty("series").GetArrayLength()); // write, read-same, read-distinct, read-miss
    }

    [Fact]
    public async Task ARunThatFailsExitsTwoAndSaysWhy()
    {
        // The configured Redis is a port nothing listens on: the run starts, cannot connect, and fails.
        var file = ParametersFile(new { kind = "cache", backend = "redis", connection = "redis", requests = 10, keyCount = 5 });

        var result = await Client.RunAsync(Client.For(Dashboard), "run", "--file", file);

        Assert.True(result.ExitCode == 2, result.ToString());
        Assert.Contains("run ", result.Error);
        Assert.Contains(": failed", result.Error);
        Assert.Contains("Could not connect to the cache server", result.Out);
        Assert.Contains("Result:                         error (exit 2)", result.Out);
    }

    [Fact]
    public async Task ACompletedRunWhoseEveryRequestFailedExitsTwoThoughItHasNoLimits()
    {
        // A port nothing listens on: every request is refused, the run completes, and the dashboard judges it bad.
        using var closed = new System.Net.Sockets.TcpListener(System.Net.IPAddress.Loopback, 0);
        closed.Start();
        var port = ((System.Net.IPEndPoint)closed.LocalEndpoint).Port;
        closed.Stop();
        var file = ParametersFile(new { kind = "http", url = $"http://127.0.0.1:{port}/", requests = 10, concurrency = 1, timeoutMs = 2000 });

        var result = await Client.RunAsync(Client.For(Dashboard), "run", "--file", file);

        Assert.True(result.ExitCode == 2, result.ToString());
        Assert.Contains("Outcome:                        errors: 100 % ", result.Out);
        Assert.Contains("Result:                         error (exit 2)", result.Out);
    }

    [Fact]
    public async Task ParametersTheDashboardRefusesExitTwoNamingTheField()
    {
        var file = ParametersFile(new { kind = "http", url = new Uri(Dashboard.Url, "/target/bytes").ToString(), requests = 5, concurency = 2 });

        var result = await Client.RunAsync(Client.For(Dashboard), "run", "--file", file);

        Assert.Equal(2, result.ExitCode);
        Assert.StartsWith("400: ", result.Error);
        Assert.Contains("concurency", result.Error);
        Assert.Equal("", result.Out);
    }

    [Fact]
    public async Task AWrongKeyIsRefusedWith401AndExitTwo()
    {
        var file = ParametersFile(new { kind = "cache", backend = "memory", requests = 5, keyCount = 5 });

        var result = await Client.RunAsync(Client.For(Dashboard, key: "not-the-key"), "run", "--file", file);

        Assert.Equal(2, result.ExitCode);
        Assert.Equal("401: the API key was refused", result.Error.Trim());
    }

    [Fact]
    public async Task WithJsonARefusalIsAlsoAnObjectOnStandardOutput()
    {
        var file = ParametersFile(new { kind = "cache", backend = "memory", requests = 5, keyCount = 5 });

        var result = await Client.RunAsync(Client.For(Dashboard, key: "not-the-key"), "run", "--file", file, "--json");

        Assert.Equal(2, result.ExitCode);
        Assert.Equal("error", result.Json.GetProperty("verdict").GetString());
        Assert.Equal(2, result.Json.GetProperty("exitCode").GetInt32());
        Assert.Equal("401: the API key was refused", result.Json.GetProperty("error").GetString());
    }

    [Fact]
    public async Task NoKeyAtAllSaysWhereToGiveOne()
    {
        var file = ParametersFile(new { kind = "cache", backend = "memory", requests = 5, keyCount = 5 });

        var result = await Client.RunAsync(Client.For(Dashboard, key: null), "run", "--file", file);

        Assert.Equal(2, result.ExitCode);
        Assert.Contains("401: the dashboard needs an API key (--api-key or BENCHDASH_API_KEY)", result.Error);
    }

    [Fact]
    public async Task AnUnreachableDashboardSaysSoAndExitsTwo()
    {
        var file = ParametersFile(new { kind = "cache", backend = "memory", requests = 5, keyCount = 5 });
        var nowhere = $"http://127.0.0.1:{PublishedDashboard.FreePort()}/";

        var result = await Client.RunAsync(new(), "run", "--file", file, "--url", nowhere, "--api-key", PublishedDashboard.Key);

        Assert.Equal(2, result.ExitCode);
        Assert.StartsWith($"Could not reach the dashboard at {nowhere}: ", result.Error);
    }

    [Fact]
    public async Task OptionsOverrideTheEnvironment()
    {
        var file = ParametersFile(new { kind = "cache", backend = "memory", requests = 5, keyCount = 5 });
        var environment = new Dictionary<string, string?> { ["BENCHDASH_URL"] = $"http://127.0.0.1:{PublishedDashboard.FreePort()}/", ["BENCHDASH_API_KEY"] = "wrong" };

        var result = await Client.RunAsync(environment, "run", "--file", file, "--url", Dashboard.Url.ToString(), "--api-key", PublishedDashboard.Key);

        Assert.True(result.ExitCode == 0, result.ToString());
    }

    public void Dispose() => dir.Dispose();
}
