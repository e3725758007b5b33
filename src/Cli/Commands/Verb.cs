using System.Text.Json;

namespace BenchDashboard.Cli.Commands;

/// <summary>What every verb shares: a refusal becomes its message on the error stream and its exit code.</summary>
static class Verb
{
    public static readonly JsonSerializerOptions Indented = new() { WriteIndented = true };

    public static async Task<int> RunAsync(Terminal terminal, Func<Task<int>> verb)
    {
        try
        {
            return await verb();
        }
        catch (CliException ex)
        {
            await terminal.Error.WriteLineAsync(ex.Message);
            return ex.ExitCode;
        }
    }
}
