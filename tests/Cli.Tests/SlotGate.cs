using System.Diagnostics;
using BenchDashboard.TestSupport;

namespace BenchDashboard.Cli.Tests;

/// <summary>
/// deploy/swap-if-passed.sh run as a pipeline runs it: the installed benchdash on PATH, and in place of the
/// Azure CLI a stand-in <c>az</c> that only records what it was asked, so a test sees whether the slot was swapped.
/// </summary>
public sealed class SlotGate : IDisposable
{
    readonly TempDirectory dir = new();

    public SlotGate()
    {
        var bin = Directory.CreateDirectory(dir.File("bin")).FullName;
        System.IO.File.WriteAllText(Path.Combine(bin, "az"), $"#!/usr/bin/env bash\necho \"az $*\" >> '{AzLog}'\n");
        if (!OperatingSystem.IsWindows()) System.IO.File.SetUnixFileMode(Path.Combine(bin, "az"), UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);
    }

    public string AzLog => dir.File("az.log");

    /// <summary>What was asked of the Azure CLI, one call a line ("" when nothing was).</summary>
    public string AzCalls => System.IO.File.Exists(AzLog) ? System.IO.File.ReadAllText(AzLog) : "";

    public string PathOf(string name) => dir.File(name);

    public async Task<CliResult> RunAsync(InstalledTool tool, Dictionary<string, string?> environment, params string[] arguments)
    {
        var start = new ProcessStartInfo("bash", [Path.Combine(InstalledTool.RepositoryRoot, "deploy", "swap-if-passed.sh"), .. arguments])
        {
            RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false, WorkingDirectory = dir.Path,
        };
        start.Environment["PATH"] = $"{tool.ToolPath}:{dir.File("bin")}:{Environment.GetEnvironmentVariable("PATH")}";
        foreach (var (name, value) in environment) start.Environment[name] = value;
        using var process = Process.Start(start)!;
        var output = process.StandardOutput.ReadToEndAsync();
        var error = process.StandardError.ReadToEndAsync();
        await process.WaitForExitAsync();
        return new CliResult(process.ExitCode, await output, await error);
    }

    public void Dispose() => dir.Dispose();
}
