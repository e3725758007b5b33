using System.Text;

namespace BenchDashboard.Core.Reports.Markdown;

/// <summary>
/// A GitHub-flavoured pipe table (what blogs, GitHub and most Markdown renderers read as a table), built from cells
/// given as plain text: every cell is escaped, so a stored name, URL or header value stays one cell of text and never
/// becomes markup, a link, raw HTML or a new column.
/// </summary>
public sealed class MarkdownTable
{
    readonly string[] header;
    readonly bool[] rightAligned;
    readonly List<string[]> rows = [];

    /// <param name="columns">Column titles; one that starts with '&gt;' is right-aligned (numbers), the '&gt;' dropped.</param>
    public MarkdownTable(params string[] columns)
    {
        rightAligned = columns.Select(c => c.StartsWith('>')).ToArray();
        header = columns.Select(c => c.TrimStart('>')).ToArray();
    }

    public MarkdownTable Row(params string?[] cells)
    {
        if (cells.Length != header.Length) throw new ArgumentException($"A row of {cells.Length} cells in a table of {header.Length} columns.", nameof(cells));
        rows.Add(cells.Select(c => c ?? "").ToArray());
        return this;
    }

    public int Count => rows.Count;

    public void WriteTo(StringBuilder markdown)
    {
        Line(markdown, header);
        markdown.Append('|').AppendJoin('|', rightAligned.Select(r => r ? "---:" : "---")).Append("|\n");
        foreach (var row in rows) Line(markdown, row);
    }

    /// <summary>
    /// The same cells as plain text in aligned columns, as a terminal tool prints a table: two spaces between columns,
    /// numbers right-aligned, a dashed rule under the titles, nothing escaped. Widths count UTF-16 characters, so
    /// East Asian wide characters in a name shift the columns after them.
    /// </summary>
    public void WriteTextTo(StringBuilder text)
    {
        var cells = rows.Prepend(header).Select(r => r.Select(c => c.ReplaceLineEndings(" ").Replace('\t', ' ')).ToArray()).ToList();
        var widths = Enumerable.Range(0, header.Length).Select(i => cells.Max(r => r[i].Length)).ToArray();
        void TextLine(IEnumerable<string> line) => text.Append(string.Join("  ", line).TrimEnd()).Append('\n');
        string Pad(string cell, int i) => rightAligned[i] ? cell.PadLeft(widths[i]) : cell.PadRight(widths[i]);
        TextLine(cells[0].Select(Pad));
        TextLine(widths.Select(w => new string('-', w)));
        foreach (var row in cells.Skip(1)) TextLine(row.Select(Pad));
    }

    static void Line(StringBuilder markdown, string[] cells) =>
        markdown.Append("| ").AppendJoin(" | ", cells.Select(Escape)).Append(" |\n");

    /// <summary>
    /// Plain text as the text of one table cell: a backslash before each character Markdown could read as markup
    /// (CommonMark lets any ASCII punctuation be escaped so; a pipe table reads "\|" as a pipe in a cell), and line
    /// breaks as spaces. A rendered URL reads as typed; in the Markdown source it reads "http\://…".
    /// </summary>
    public static string Escape(string text)
    {
        var escaped = new StringBuilder(text.Length + 8);
        for (var i = 0; i < text.Length; i++)
        {
            var c = text[i];
            if (c is '\r' or '\n' or '\t') escaped.Append(' ');
            // What starts emphasis, code, links, images, raw HTML, entities, strikethrough, or ends a cell; and what
            // makes an autolink ("http:", "www."): an autolink takes a backslash before '<' as part of its address,
            // which would leave the '<' unescaped after it (raw HTML), so no address may become one.
            else if (c is '\\' or '|' or '`' or '*' or '_' or '[' or ']' or '<' or '>' or '&' or '!' or '~' || StartsAutolink(text, i))
                escaped.Append('\\').Append(c);
            else escaped.Append(c);
        }
        return escaped.ToString();
    }

    /// <summary>The ':' of "scheme://", "mailto:" or "tel:", or the '.' of "www.": where renderers start an autolink ("Demo: 5 ms" keeps its colon).</summary>
    static bool StartsAutolink(string text, int i) => text[i] switch
    {
        ':' => (i + 1 < text.Length && text[i + 1] == '/') || EndsWith(text, i, "mailto") || EndsWith(text, i, "tel"),
        '.' => EndsWith(text, i, "www"),
        _ => false,
    };

    static bool EndsWith(string text, int end, string word) =>
        end >= word.Length && text.AsSpan(end - word.Length, word.Length).Equals(word, StringComparison.OrdinalIgnoreCase);
}
