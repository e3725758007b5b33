using System.Text.Json;

namespace BenchDashboard.Cli.Tests;

/// <summary>The client's verbs run in-process with captured output and an environment of the test's choosing.</summary>
public sealed record CliResult(int ExitCode, string Out, string Error)
{
    public JsonElement Json => JsonDocument.Parse(Out).RootElement;

    public override string ToString() => $"exit {ExitCode}\n--- out\n{Out}\n--- error\n{Error}";
}

public static class Client
{
    public static async Task<CliResult> RunAsync(Dictionary<string, string?> environment, params string[] args)
    {
        var output = new StringWriter();
        var error = new StringWriter();
        var exit = await Cli.Benchdash.InvokeAsync(args, new Terminal(output, error, name => environment.GetValueOrDefault(name), Interactive: false));
        return new CliResult(exit, output.ToString(), error.ToString());
    }

    /// <summary>The environment of a pipeline that names the dashboard and its key.</summary>
    public static Dictionary<string, string?> For(DashboardProcess dashboard, string? key = PublishedDashboard.Key) =>
        new() { ["BENCHDASH_URL"] = dashboard.Url.ToString(), ["BENCHDASH_API_KEY"] = key };
}
