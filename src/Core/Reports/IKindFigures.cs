using System.Text.Json;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Reports;

/// <summary>
/// A kind with figures only it has (Table: per variant, in entities; files: each phase across locations), for the
/// API's <c>figures</c>. Computed once from the run's samples, when its digest is built.
/// </summary>
public interface IKindFigures
{
    object? Figures(object parameters, IReadOnlyList<SeriesStatistics> series, IReadOnlyList<Sample> samples);

    /// <summary>The kind's answer from its stored figures, as the tables a run's Markdown and text lead with; none when they hold nothing.</summary>
    IReadOnlyList<AnswerTable> Answer(JsonElement figures);

    /// <summary>
    /// Whether the answer sets one series against another by a verdict of its own (locations, variants). A run on each
    /// agent leaves such an answer out for its table per configuration, whose verdicts judge turns as runs; an answer
    /// without verdicts (a journey's step table) goes beside it.
    /// </summary>
    bool AnswerJudgesSeries => true;
}

/// <summary>A kind's answer as text in rows, so the Markdown and the text of a run (benchdash's too) lay it out alike.</summary>
/// <param name="Note">One sentence on what the figures are and when a difference is called one.</param>
public sealed record AnswerTable(string Title, IReadOnlyList<string> Columns, IReadOnlyList<IReadOnlyList<string>> Rows, string Note);
