using System.Diagnostics;
using System.Reflection;

namespace BenchDashboard.Deployment.Tests;

/// <summary>A command-line tool run to its end, with what it printed.</summary>
public sealed record ToolResult(int ExitCode, string Out, string Error)
{
    public override string ToString() => $"exit {ExitCode}\n--- out\n{Out}\n--- error\n{Error}";
}

public static class Tool
{
    public static Task<ToolResult> RunAsync(string executable, params string[] arguments) =>
        RunAsync(executable, new Dictionary<string, string>(), arguments);

    /// <summary>With <paramref name="environment"/> added to the test's own.</summary>
    public static async Task<ToolResult> RunAsync(string executable, IReadOnlyDictionary<string, string> environment, params string[] arguments)
    {
        var start = new ProcessStartInfo(executable, arguments)
        {
            WorkingDirectory = Repository.Root, RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false,
        };
        foreach (var (name, value) in environment) start.Environment[name] = value;
        using var process = Process.Start(start) ?? throw new InvalidOperationException($"Could not start {executable}.");
        var output = process.StandardOutput.ReadToEndAsync();
        var error = process.StandardError.ReadToEndAsync();
        using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(3));
        await process.WaitForExitAsync(timeout.Token);
        return new ToolResult(process.ExitCode, await output, await error);
    }

    /// <summary>The Bicep CLI that restore downloaded (Azure.Bicep.CommandLine.linux-x64), made executable for everyone.</summary>
    public static string Bicep
    {
        get
        {
            var path = typeof(Tool).Assembly.GetCustomAttributes<AssemblyMetadataAttribute>().Single(a => a.Key == "BicepPath").Value!;
            Assert.True(File.Exists(path), $"The Bicep CLI is not at {path}: restore the Deployment.Tests project.");
            // The package marks it executable for its owner only; the test may run as another user.
            if (!OperatingSystem.IsWindows()) File.SetUnixFileMode(path, File.GetUnixFileMode(path) | UnixFileMode.UserExecute | UnixFileMode.GroupExecute | UnixFileMode.OtherExecute);
            return path;
        }
    }
}

public static class Repository
{
    public static string Root { get; } = Find();

    public static string File(string relative) => Path.Combine(Root, relative);

    static string Find()
    {
        var dir = AppContext.BaseDirectory;
        while (!System.IO.File.Exists(Path.Combine(dir, "BenchDashboard.sln"))) dir = Path.GetDirectoryName(dir) ?? throw new InvalidOperationException("No repository root above the test's folder.");
        return dir;
    }
}
