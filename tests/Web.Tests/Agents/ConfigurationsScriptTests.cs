using System.Diagnostics;
using System.Net.Http.Json;
using System.Text.Json;
using System.Text.RegularExpressions;
using BenchDashboard.TestSupport;
using BenchDashboard.Web.Tests.Deployment;

namespace BenchDashboard.Web.Tests.Agents;

/// <summary>scripts/configurations.sh as a user runs it, on the tests' publish: it starts, links, and stops what it started.</summary>
[Collection(PublishedApps.Collection)]
public sealed partial class ConfigurationsScriptTests(PublishedOutput published)
{
    static string Script()
    {
        var root = AppContext.BaseDirectory;
        while (!File.Exists(Path.Combine(root, "BenchDashboard.sln"))) root = Path.GetDirectoryName(root) ?? throw new InvalidOperationException("No repository root.");
        return Path.Combine(root, "scripts", "configurations.sh");
    }

    /// <summary>The script, on <paramref name="publish"/> when given (BENCHDASH_PUBLISH: the tests' publish, not another).</summary>
    static async Task<(int Code, string Out)> RunAsync(string? publish, params string[] arguments)
    {
        var start = new ProcessStartInfo("bash", [Script(), .. arguments]) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        start.Environment["BENCHDASH_PUBLISH"] = publish;
        using var process = Process.Start(start)!;
        var stdout = process.StandardOutput.ReadToEndAsync();
        var stderr = process.StandardError.ReadToEndAsync();
        using var within = new CancellationTokenSource(TimeSpan.FromSeconds(120));
        await process.WaitForExitAsync(within.Token);
        return (process.ExitCode, await stdout + await stderr);
    }

    [Fact]
    public async Task TheScriptStartsLinkedConfigurationsAndStopsExactlyWhatItStarted()
    {
        using var dir = new TempDirectory();
        var setup = dir.File("setup");
        var pids = new Dictionary<string, int>();
        try
        {
            var (started, said) = await RunAsync(published.Folder, "2", setup, "--detach");
            Assert.True(started == 0, said);
            foreach (var file in Directory.GetFiles(Path.Combine(setup, "pids"), "*.pid")) pids[Path.GetFileNameWithoutExtension(file)] = int.Parse(File.ReadAllText(file).Trim());
            Assert.Equal(["cfg0", "cfg1", "dashboard"], pids.Keys.Order(StringComparer.Ordinal));
            var dashboard = DashboardLine().Match(said).Groups[1].Value;
            using var client = new HttpClient { BaseAddress = new Uri(dashboard), Timeout = TimeSpan.FromSeconds(10) };
            var agents = (await client.GetFromJsonAsync<JsonElement>("/api/agents")).EnumerateArray().ToList();
            foreach (var (name, cache) in new[] { ("cfg0", "0"), ("cfg1", "1") })
            {
                var agent = agents.Single(a => a.GetProperty("name").GetString() == name);
                Assert.True(agent.GetProperty("linked").GetBoolean());
                Assert.Equal(cache, agent.GetProperty("environment").GetProperty("platformVariables").GetProperty("WEBSITE_DYNAMIC_CACHE").GetString());
                Assert.Equal(pids[name], agent.GetProperty("environment").GetProperty("processId").GetInt32());
            }
            // Started again on the same folder while it runs: refused, nothing more started.
            var (again, refusal) = await RunAsync(published.Folder, "2", setup, "--detach");
            Assert.NotEqual(0, again);
            Assert.Contains("in use by a running setup", refusal);
        }
        finally
        {
            var (stopped, stopSaid) = await RunAsync(null, "stop", setup);
            Assert.True(stopped == 0, stopSaid);
        }
        foreach (var (name, pid) in pids)
            Assert.True(!Alive(pid), $"{name} (pid {pid}) still runs after stop");
        Assert.Empty(Directory.GetFiles(Path.Combine(setup, "pids")));
    }

    [Theory]
    [InlineData("1")]
    [InlineData("9")]
    public async Task ACountOutsideTwoToEightIsRefusedBeforeAnythingStarts(string count)
    {
        using var dir = new TempDirectory();
        var (code, said) = await RunAsync(null, count, dir.File("setup"));
        Assert.Equal(2, code);
        Assert.Contains("N must be 2 to 8", said);
        Assert.False(Directory.Exists(dir.File("setup")));
    }

    static bool Alive(int pid)
    {
        try
        {
            using var process = Process.GetProcessById(pid);
            return !process.HasExited;
        }
        catch (ArgumentException)
        {
            return false;
        }
    }

    [GeneratedRegex(@"Dashboard:\s+(http://127\.0\.0\.1:\d+)")]
    private static partial Regex DashboardLine();
}
