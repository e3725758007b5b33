using System.Text.Json;
using System.Text.Json.Nodes;

namespace BenchDashboard.Cli.Commands;

/// <summary>What every verb shares: a refusal becomes its message on the error stream and its exit code.</summary>
static class Verb
{
    public static readonly JsonSerializerOptions Indented = new() { WriteIndented = true };

    /// <param name="json">Whether the verb answers in JSON: a refusal is then also a JSON object on standard output, for a script that reads only that.</param>
    public static async Task<int> RunAsync(Terminal terminal, bool json, Func<Task<int>> verb)
    {
        try
        {
            return await verb();
        }
        catch (CliException ex)
        {
            await terminal.Error.WriteLineAsync(ex.Message);
            if (json)
                await terminal.Out.WriteLineAsync(new JsonObject { ["verdict"] = RunOutcome.VerdictOf(ex.ExitCode), ["exitCode"] = ex.ExitCode, ["error"] = ex.Message }.ToJsonString(Indented));
            return ex.ExitCode;
        }
    }
}
