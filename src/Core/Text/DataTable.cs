using System.Text;
using System.Text.Json;
using CsvHelper;

namespace BenchDashboard.Core.Text;

/// <summary>
/// A data file's rows as text: its column names and, per row, one value per column in that order. Read from CSV
/// (a header row, RFC 4180 quoting, read by CsvHelper) or JSON lines (one flat object per line, every line with the
/// same names as the first); every problem in words with the line it is on ("line 7: 3 fields, the header has 4").
/// Lives here, at the bottom of Core, because the pages count a file's rows (<see cref="Security.ParameterDisplay"/>)
/// as well as the kinds reading it.
/// </summary>
public sealed record DataTable(IReadOnlyList<string> Columns, IReadOnlyList<string[]> Rows)
{
    public const string Csv = "csv";
    public const string JsonLines = "jsonl";

    /// <summary>The limits a file is read under: past any of them reading stops with the problem, not the rows.</summary>
    public sealed record Limits(int MaxRows, int MaxColumns, int MaxValueLength);

    /// <summary>The table, or null with <paramref name="problem"/> saying what is wrong and where.</summary>
    public static DataTable? Read(string format, string content, Limits limits, out string? problem)
    {
        try
        {
            problem = null;
            return format switch
            {
                Csv => ReadCsv(content, limits),
                JsonLines => ReadJsonLines(content, limits),
                _ => throw new DataFileException($"The format is {Csv} or {JsonLines}."),
            };
        }
        catch (DataFileException ex)
        {
            problem = ex.Message;
            return null;
        }
    }

    static DataTable ReadCsv(string content, Limits limits)
    {
        var options = CsvReaderOptions.Default with
        {
            Separator = ',', // never guessed: a file of one column has none to detect
            HasHeader = true,
            TrackLineNumbers = true,
            MalformedData = CsvMalformedDataHandling.Throw,
            FieldCountMismatch = CsvFieldCountHandling.Allow, // counted below, to say which line and by how much
            IncludeValuesInExceptions = false, // a value may be a password
        };
        try
        {
            using var reader = CsvReader.FromText(content, options);
            reader.ReadHeader();
            var columns = reader.Headers.ToArray();
            if (columns.Length == 0 || columns.All(c => c.Length == 0)) throw new DataFileException("line 1: the header row names no columns.");
            CheckColumns(columns, 1, limits);
            var rows = new List<string[]>();
            while (reader.Read())
            {
                var line = reader.LineNumber;
                if (reader.FieldCount != columns.Length)
                    throw new DataFileException($"line {line}: {reader.FieldCount} field{(reader.FieldCount == 1 ? "" : "s")}, the header has {columns.Length}.");
                if (rows.Count == limits.MaxRows) throw new DataFileException($"line {line}: more than {limits.MaxRows:N0} rows.");
                var row = new string[columns.Length];
                for (var i = 0; i < row.Length; i++)
                {
                    row[i] = reader.GetString(i);
                    if (row[i].Length > limits.MaxValueLength)
                        throw new DataFileException($"line {line}: the value of '{columns[i]}' is longer than {limits.MaxValueLength:N0} characters.");
                }
                rows.Add(row);
            }
            return new DataTable(columns, rows);
        }
        catch (CsvFormatException ex)
        {
            throw new DataFileException(ex.LineNumber > 0 ? $"line {ex.LineNumber}: {ex.Message}" : ex.Message);
        }
    }

    static DataTable ReadJsonLines(string content, Limits limits)
    {
        string[]? columns = null;
        Dictionary<string, int>? index = null;
        var rows = new List<string[]>();
        var number = 0;
        foreach (var text in Lines(content))
        {
            number++;
            if (string.IsNullOrWhiteSpace(text)) continue;
            JsonDocument document;
            try
            {
                document = JsonDocument.Parse(text);
            }
            catch (JsonException)
            {
                throw new DataFileException($"line {number}: not a JSON object.");
            }
            using (document)
            {
                if (document.RootElement.ValueKind != JsonValueKind.Object) throw new DataFileException($"line {number}: not a JSON object.");
                if (columns is null)
                {
                    columns = document.RootElement.EnumerateObject().Select(p => p.Name).ToArray();
                    if (columns.Length == 0) throw new DataFileException($"line {number}: an object with no names; the first line's names are the columns.");
                    CheckColumns(columns, number, limits);
                    index = columns.Select((c, i) => (c, i)).ToDictionary(x => x.c, x => x.i, StringComparer.Ordinal);
                }
                if (rows.Count == limits.MaxRows) throw new DataFileException($"line {number}: more than {limits.MaxRows:N0} rows.");
                var row = new string?[columns.Length];
                foreach (var property in document.RootElement.EnumerateObject())
                {
                    if (!index!.TryGetValue(property.Name, out var at))
                        throw new DataFileException($"line {number}: '{Shown(property.Name)}' is not one of the first line's names.");
                    if (row[at] is not null) throw new DataFileException($"line {number}: '{Shown(property.Name)}' is given twice.");
                    row[at] = property.Value.ValueKind switch
                    {
                        JsonValueKind.String => property.Value.GetString()!,
                        JsonValueKind.Number or JsonValueKind.True or JsonValueKind.False => property.Value.GetRawText(),
                        JsonValueKind.Null => "",
                        _ => throw new DataFileException($"line {number}: the value of '{Shown(property.Name)}' is not text, a number or true/false (the object is flat)."),
                    };
                    if (row[at]!.Length > limits.MaxValueLength)
                        throw new DataFileException($"line {number}: the value of '{Shown(property.Name)}' is longer than {limits.MaxValueLength:N0} characters.");
                }
                if (Array.IndexOf(row, null) is var missing and >= 0) throw new DataFileException($"line {number}: no '{columns[missing]}'; every line has the first line's names.");
                rows.Add(row!);
            }
        }
        if (columns is null) throw new DataFileException("The file has no lines: one JSON object a line.");
        return new DataTable(columns, rows);
    }

    static void CheckColumns(string[] columns, int line, Limits limits)
    {
        if (columns.Length > limits.MaxColumns) throw new DataFileException($"line {line}: {columns.Length} columns, at most {limits.MaxColumns}.");
        var seen = new HashSet<string>(StringComparer.Ordinal);
        foreach (var column in columns)
            if (!seen.Add(column)) throw new DataFileException($"line {line}: the column '{Shown(column)}' is named twice.");
    }

    /// <summary>Lines split at \n, \r\n or \r, as a text editor numbers them.</summary>
    static IEnumerable<string> Lines(string content)
    {
        using var reader = new StringReader(content);
        while (reader.ReadLine() is { } line) yield return line;
    }

    /// <summary>
    /// How many rows the file has, or null when it cannot be read: what a reader is shown instead of the rows.
    /// No limits here: it was checked when it was saved, and the count is for showing.
    /// </summary>
    public static int? CountRows(string format, string content) =>
        Read(format, content, new Limits(int.MaxValue, int.MaxValue, int.MaxValue), out _)?.Rows.Count;

    /// <summary>
    /// Rows <paramref name="part"/>, part + parts, part + 2 × parts … in this file's format: the share of one of
    /// <paramref name="parts"/> agents when each row is used once, so no two agents take the same row.
    /// </summary>
    public string Write(string format, int part = 0, int parts = 1)
    {
        var text = new StringBuilder();
        var rows = Rows.Where((_, i) => i % parts == part);
        if (format == JsonLines)
            foreach (var row in rows)
            {
                text.Append(JsonSerializer.Serialize(Columns.Select((c, i) => (c, i)).ToDictionary(x => x.c, x => row[x.i]))).Append('\n');
            }
        else
        {
            text.AppendJoin(',', Columns.Select(Quoted)).Append("\r\n");
            foreach (var row in rows) text.AppendJoin(',', row.Select(Quoted)).Append("\r\n");
        }
        return text.ToString();
    }

    /// <summary>A CSV field as RFC 4180 writes it: quoted when it holds a comma, a quote, a line break or edge whitespace.</summary>
    public static string Quoted(string value) =>
        value.AsSpan().IndexOfAny(",\"\r\n") >= 0 || (value.Length > 0 && (char.IsWhiteSpace(value[0]) || char.IsWhiteSpace(value[^1])))
            ? "\"" + value.Replace("\"", "\"\"") + "\"" : value;

    static string Shown(string name) => new string(name.Take(40).Select(c => char.IsControl(c) ? '?' : c).ToArray()) + (name.Length > 40 ? "…" : "");
}

/// <summary>What is wrong with a data file, in words a person can act on.</summary>
public sealed class DataFileException(string message) : Exception(message);
