using System.Globalization;
using System.Text.Json;

namespace BenchDashboard.Cli.Output;

/// <summary>
/// One line on the error stream while a run runs: redrawn in place on a terminal; in a pipeline's log a new
/// line when the status changes and every <see cref="LogEvery"/> otherwise, so the log shows progress without
/// a line a second.
/// </summary>
public sealed class ProgressLine(Terminal terminal)
{
    public static readonly TimeSpan LogEvery = TimeSpan.FromSeconds(10);

    string? lastStatus;
    DateTime lastLogged = DateTime.MinValue;
    int width;

    public void Show(JsonElement run)
    {
        var status = run.String("status");
        var line = Describe(run);
        if (terminal.Interactive)
        {
            terminal.Error.Write("\r" + line.PadRight(width));
            width = Math.Max(width, line.Length);
        }
        else if (status != lastStatus || DateTime.UtcNow - lastLogged >= LogEvery)
        {
            terminal.Error.WriteLine(line);
            lastLogged = DateTime.UtcNow;
        }
        lastStatus = status;
    }

    /// <summary>Ends the redrawn line so what follows starts on a line of its own.</summary>
    public void Done()
    {
        if (terminal.Interactive && width > 0) terminal.Error.WriteLine();
        width = 0;
    }

    public static string Describe(JsonElement run)
    {
        var head = $"run {run.Integer("id")}: {run.String("status")}";
        if (run.Field("live") is not { } live) return head;
        string Ms(string field) => live.Number(field)?.ToString("0.00", CultureInfo.InvariantCulture) ?? "–";
        return string.Create(CultureInfo.InvariantCulture,
            $"{head}  {live.Number("elapsedSeconds"):0.0} s  {live.Integer("measured")} measured  {live.Integer("errors")} errors  p50 {Ms("p50Ms")} ms  p99 {Ms("p99Ms")} ms");
    }
}
