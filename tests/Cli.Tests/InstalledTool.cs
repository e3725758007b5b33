using System.Diagnostics;
using BenchDashboard.TestSupport;

namespace BenchDashboard.Cli.Tests;

/// <summary>
/// The client packed as a dotnet tool and installed into a folder of its own, as a pipeline installs it: the
/// tests then run the <c>benchdash</c> command itself. Each pack has a version of its own, so NuGet's cache
/// can never hand back an older build.
/// </summary>
public sealed class InstalledTool : IAsyncLifetime
{
    readonly TempDirectory dir = new();

    public string ToolPath => dir.File("tools");

    public static string RepositoryRoot { get; } = FindRoot();

    public async Task InitializeAsync()
    {
        var version = $"0.0.0-test.{DateTime.UtcNow:yyyyMMddHHmmssfff}";
        await RunAsync("dotnet", "pack", Path.Combine(RepositoryRoot, "src", "Cli"), "-c", "Release", "-o", dir.File("packages"), $"-p:Version={version}", "-nologo", "-v", "quiet");
        await RunAsync("dotnet", "tool", "install", "BenchDashboard.Cli", "--version", version, "--tool-path", ToolPath, "--add-source", dir.File("packages"));
        Assert.True(File.Exists(Path.Combine(ToolPath, "benchdash")), "dotnet tool install did not create the benchdash command");
    }

    static async Task RunAsync(string executable, params string[] arguments)
    {
        using var process = Process.Start(new ProcessStartInfo(executable, arguments) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false })!;
        var output = process.StandardOutput.ReadToEndAsync();
        var error = process.StandardError.ReadToEndAsync();
        await process.WaitForExitAsync();
        Assert.True(process.ExitCode == 0, $"{executable} {string.Join(' ', arguments)} failed: {await output}{await error}");
    }

    static string FindRoot()
    {
        var root = AppContext.BaseDirectory;
        while (!File.Exists(Path.Combine(root, "BenchDashboard.sln"))) root = Path.GetDirectoryName(root) ?? throw new InvalidOperationException("No repository root.");
        return root;
    }

    public Task DisposeAsync()
    {
        dir.Dispose();
        return Task.CompletedTask;
    }
}
