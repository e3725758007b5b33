using System.CommandLine;
using BenchDashboard.Cli.Commands;

namespace BenchDashboard.Cli;

/// <summary>The <c>benchdash</c> command: its verbs and the options they share.</summary>
public static class Benchdash
{
    public static RootCommand Create(Terminal terminal)
    {
        var options = new DashboardOptions();
        return new RootCommand("Runs, compares, exports and imports benchmarks on a BenchDashboard. Exit codes: 0 passed, 1 a limit failed or the run confirmed a regression, 2 the run failed or could not start.")
        {
            options.Url, options.ApiKey, options.Json,
            RunCommand.Create(options, terminal),
            CompareCommand.Create(options, terminal),
            DefinitionsCommands.Export(options, terminal),
            DefinitionsCommands.Import(options, terminal),
        };
    }

    /// <summary>
    /// Parses and runs one command line. A line that does not parse prints its errors and exits 2, not
    /// System.CommandLine's 1, which here means a run that failed its limits.
    /// </summary>
    public static Task<int> InvokeAsync(string[] args, Terminal terminal, CancellationToken ct = default)
    {
        var parse = Create(terminal).Parse(args);
        if (parse.Errors.Count > 0)
        {
            foreach (var error in parse.Errors) terminal.Error.WriteLine(error.Message);
            terminal.Error.WriteLine("See benchdash --help.");
            return Task.FromResult(ExitCodes.Error);
        }
        return parse.InvokeAsync(new InvocationConfiguration { Output = terminal.Out, Error = terminal.Error }, ct);
    }
}
