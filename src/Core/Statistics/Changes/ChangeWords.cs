namespace BenchDashboard.Core.Statistics.Changes;

/// <summary>Changes over a history in the words of every page, notice and the command-line client.</summary>
public static class ChangeWords
{
    /// <summary>"median 1.21× slower since run 40 (99.9 % interval 1.10× to 1.33×), confirmed by run 42".</summary>
    public static string Confirmed(ConfirmedChange c)
    {
        var m = c.Evidence.Headline;
        return $"{m.Metric} {Ratios.Change(m.Change, m.Lower, m.Upper, c.Evidence.ConfidenceLevel)} since run {c.SinceRunId}, confirmed by run {c.ConfirmedByRunId}";
    }

    /// <summary>"possible change since run 40 (p95 slower), waiting for 2 more runs".</summary>
    public static string Pending(PendingChange p) =>
        $"possible change since run {p.SinceRunId} ({p.Metric} {(p.Direction == ChangeDirection.Improvement ? "faster" : "slower")}), waiting for {p.WaitingFor} more run{(p.WaitingFor == 1 ? "" : "s")}";

    /// <summary>The run's place in its history in one phrase, for its page, the API's text and <c>benchdash</c>.</summary>
    public static string Of(HistoryJudgement j) => j switch
    {
        { NotJudged: { } why } => $"not judged: {why}",
        { Confirmed.Count: > 0 } => (j.Flagged ? "regression: " : "improvement: ") + string.Join("; ", j.Confirmed.Select(Confirmed)),
        { Pending: { } p } => Pending(p),
        { ParameterChange: true } => "first run with these parameters: it starts a history of its own",
        _ => $"in line with the runs since run {j.LevelSinceRunId}",
    };
}
