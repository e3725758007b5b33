namespace BenchDashboard.Cli;

/// <summary>
/// Where the client writes and what it reads from its surroundings: the console in the tool, writers and a
/// dictionary in tests (the verbs run in-process there, against a real dashboard process).
/// </summary>
/// <param name="Interactive">Whether the error stream is a terminal: the progress line then redraws itself in place.</param>
public sealed record Terminal(TextWriter Out, TextWriter Error, Func<string, string?> Environment, bool Interactive)
{
    public static Terminal FromConsole() => new(Console.Out, Console.Error, System.Environment.GetEnvironmentVariable, !Console.IsErrorRedirected);
}
