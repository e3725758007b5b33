using BenchDashboard.TestSupport;

namespace BenchDashboard.Deployment.Tests;

/// <summary>The deploy script, the test scripts and CI's entry pass shellcheck (Debian's; scripts/test.sh installs it).</summary>
public sealed class ShellcheckTests
{
    public static IEnumerable<string> Scripts() =>
        new[] { ".ci/run" }.Concat(new[] { "deploy", "scripts" }.SelectMany(dir => Directory.EnumerateFiles(Repository.File(dir), "*.sh"))
            .Select(f => Path.GetRelativePath(Repository.Root, f)).Order(StringComparer.Ordinal));

    static Task<ToolResult> ShellcheckAsync(IEnumerable<string> files) =>
        Tool.RunAsync("shellcheck", ["--format=gcc", "--shell=bash", .. files]);

    [Fact]
    public async Task EveryShellScriptPassesShellcheck()
    {
        var scripts = Scripts().ToList();
        Assert.Contains("scripts/test.sh", scripts);
        Assert.Contains("deploy/deploy.sh", scripts);

        var result = await ShellcheckAsync(scripts);

        Assert.True(result.ExitCode == 0 && result.Out.Length == 0, result.ToString());
    }

    [Fact]
    public async Task ShellcheckReportsAScriptThatWouldCarryOnInTheWrongDirectory()
    {
        using var dir = new TempDirectory();
        var script = dir.File("careless.sh");
        await File.WriteAllTextAsync(script, "#!/usr/bin/env bash\ncd \"$1\"\nrm -f ./*.tmp\n");

        var result = await ShellcheckAsync([script]);

        Assert.NotEqual(0, result.ExitCode);
        Assert.Contains("SC2164", result.Out);
    }
}
