using System.Text.Json;
using BenchDashboard.Core.Runs.Text;

namespace BenchDashboard.Cli.Output;

/// <summary>
/// An ended run as text: the go-wrk/ab layout the dashboard answers to <c>?format=text</c> (<see cref="RunText"/>,
/// shared with Core), with the run's page and, last, the verdict and exit code a pipeline acts on.
/// </summary>
public static class RunSummary
{
    public static string Format(JsonElement run, Uri dashboard)
    {
        var exit = RunOutcome.ExitCodeOf(run);
        return RunText.Format(run, new Uri(dashboard, $"runs/{run.Integer("id")}").ToString())
            + RunText.Line("Result:", $"{RunOutcome.VerdictOf(exit)} (exit {exit})") + Environment.NewLine;
    }
}
