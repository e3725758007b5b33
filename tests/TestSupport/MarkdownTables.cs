using System.Net;
using System.Text.RegularExpressions;
using Markdig;

namespace BenchDashboard.TestSupport;

/// <summary>
/// Markdown as a reader sees it: rendered by Markdig with GitHub's pipe tables (and its other extensions, autolinks
/// included, as a blog engine would), then read back as tables of cell texts. A table that does not render as one
/// is not in the answer, so a test of cells fails on Markdown that only looks right as text.
/// </summary>
public static partial class MarkdownTables
{
    static readonly MarkdownPipeline Pipeline = new MarkdownPipelineBuilder().UseAdvancedExtensions().Build();

    public static string Html(string markdown) => Markdown.ToHtml(markdown, Pipeline);

    /// <summary>Each rendered table: its rows (the header row first), each a list of cell texts with tags removed and entities decoded.</summary>
    public static IReadOnlyList<IReadOnlyList<IReadOnlyList<string>>> Of(string markdown) =>
        TableTag().Matches(Html(markdown)).Select(table => (IReadOnlyList<IReadOnlyList<string>>)RowTag().Matches(table.Value)
            .Select(row => (IReadOnlyList<string>)CellTag().Matches(row.Value).Select(cell => WebUtility.HtmlDecode(AnyTag().Replace(cell.Groups[1].Value, "")).Trim()).ToList())
            .ToList()).ToList();

    /// <summary>The table whose header's first cell is <paramref name="firstHeader"/>.</summary>
    public static IReadOnlyList<IReadOnlyList<string>> Find(string markdown, string firstHeader) =>
        Of(markdown).Single(t => t[0][0] == firstHeader);

    [GeneratedRegex("<table>.*?</table>", RegexOptions.Singleline)]
    private static partial Regex TableTag();

    [GeneratedRegex("<tr>.*?</tr>", RegexOptions.Singleline)]
    private static partial Regex RowTag();

    [GeneratedRegex("<t[hd][^>]*>(.*?)</t[hd]>", RegexOptions.Singleline)]
    private static partial Regex CellTag();

    [GeneratedRegex("<[^>]+>")]
    private static partial Regex AnyTag();
}
