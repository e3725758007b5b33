using System.Text;
using BenchDashboard.Core.Text;

namespace BenchDashboard.Core.Kinds.Http.Journeys;

/// <summary>
/// A journey's data file: rows whose columns are <c>{{variables}}</c> of the steps, one row an iteration. Kept, content
/// and all, in the run's (or benchmark's) parameters, so a run can be repeated and exported as it was. Readers see its
/// name, format, mode, row count and a fingerprint, never its content: it may hold user names and passwords.
/// </summary>
public sealed record HttpDataFile
{
    public const string Sequential = "sequential";
    public const string Random = "random";
    public const string Once = "once";

    public const int MaxContentBytes = 1024 * 1024;
    public const int MaxRows = 100_000;
    public const int MaxColumns = 50;
    public const int MaxNameLength = 255;

    /// <summary>The file's name, shown to readers.</summary>
    public string Name { get; init; } = "";

    /// <summary><c>csv</c> (with a header row) or <c>jsonl</c> (one flat JSON object a line).</summary>
    public string Format { get; init; } = "";

    /// <summary>
    /// Which row an iteration takes: <c>sequential</c> (the next, shared by all workers, from the first again after
    /// the last), <c>random</c>, or <c>once</c> (each row at most once in the run; when none is left the run takes no
    /// more iterations and ends).
    /// </summary>
    public string Mode { get; init; } = Sequential;

    /// <summary>The file's text.</summary>
    public string Content { get; init; } = "";

    public static readonly DataTable.Limits Limits = new(MaxRows, MaxColumns, Journey.MaxValueLength);

    /// <summary>The rows, read once for a run; throws when the file is not valid (it was validated when queued).</summary>
    public DataTable Read() => DataTable.Read(Format, Content, Limits, out var problem) ?? throw new DataFileException(problem!);

    /// <summary>
    /// Checks the file, keyed <c>data</c>, <c>data.name</c>, <c>data.format</c>, <c>data.mode</c> or
    /// <c>data.content</c>; its columns when it can be read (the steps may refer to them), else null. A column may not
    /// be a built-in nor a value a step extracts: one name, one source.
    /// </summary>
    public static IReadOnlyList<string>? Validate(HttpDataFile? data, List<HttpStep>? steps, Action<string, string> add)
    {
        if (data is null) return null;
        if (steps is null)
        {
            add("data", "A data file feeds a journey's steps: give steps, or leave data out.");
            return null;
        }
        if (string.IsNullOrWhiteSpace(data.Name) || data.Name.Length > MaxNameLength || data.Name.Any(char.IsControl))
            add("data.name", $"Name the file: at most {MaxNameLength} characters, no control characters.");
        if (data.Mode is not (Sequential or Random or Once))
            add("data.mode", $"The mode is {Sequential}, {Random} or {Once}.");
        if (data.Format is not (DataTable.Csv or DataTable.JsonLines))
        {
            add("data.format", $"The format is {DataTable.Csv} (with a header row) or {DataTable.JsonLines} (one JSON object a line).");
            return null;
        }
        if (data.Content is null || Encoding.UTF8.GetByteCount(data.Content) > MaxContentBytes)
        {
            add("data.content", $"A data file has at most {MaxContentBytes / 1024 / 1024} MiB (it is kept with every run).");
            return null;
        }
        if (DataTable.Read(data.Format, data.Content, Limits, out var problem) is not { } table)
        {
            add("data.content", problem!);
            return null;
        }
        if (table.Rows.Count == 0) add("data.content", "The file has no rows, only its names.");
        var extracted = (steps ?? []).Select((s, i) => (s, i)).SelectMany(x => (x.s?.Extract ?? []).Select((e, j) => (e?.Name, Key: $"steps[{x.i}].extract[{j}]")))
            .Where(x => x.Name is not null).GroupBy(x => x.Name!).ToDictionary(g => g.Key, g => g.First().Key);
        foreach (var column in table.Columns)
            if (!Template.VariableName().IsMatch(column))
                add("data.content", $"The column '{Shown(column)}' is not a variable's name: a letter or '_' then letters, digits or '_', at most 64.");
            else if (Template.BuiltIns.Contains(column))
                add("data.content", $"The column '{column}' is a built-in variable; rename the column.");
            else if (extracted.TryGetValue(column, out var key))
                add("data.content", $"The column '{column}' is also extracted by {key}; rename one of them.");
        return table.Columns;
    }

    /// <summary>
    /// The share of agent <paramref name="part"/> of <paramref name="parts"/> when each row is used once: rows part,
    /// part + parts, … so no row goes to two agents. In other modes every agent reads the whole file.
    /// </summary>
    public HttpDataFile ShareOf(int part, int parts) =>
        Mode != Once || parts <= 1 ? this : this with { Content = Read().Write(Format, part, parts) };

    static string Shown(string name) => new string(name.Take(40).Select(c => char.IsControl(c) ? '?' : c).ToArray()) + (name.Length > 40 ? "…" : "");
}
