using System.Globalization;
using System.Text;

namespace BenchDashboard.Core.Runs;

/// <summary>
/// One of a sample's columns: its name in the database (the property's, as EF maps it), its name in the CSV
/// export (null: not exported, the file is the run's), how to read it from a sample, and, for a column SQLite
/// stores as an integer, that integer read without boxing (<paramref name="Integer"/>: flags as 1 or 0, an
/// error as its number; null for the text column, whose value <paramref name="Read"/> gives).
/// </summary>
public sealed record SampleColumn(string Name, string? Csv, Func<Sample, object?> Read, Func<Sample, long?>? Integer)
{
    /// <summary>As a database parameter takes it: an error kind as its number, nothing as NULL.</summary>
    public object DatabaseValue(Sample sample) => Read(sample) switch
    {
        null => DBNull.Value,
        ErrorKind error => (int)error,
        var value => value,
    };

    /// <summary>As the CSV writes it: flags as 1 or 0, no error and nothing as an empty field, numbers invariant.</summary>
    public string CsvValue(Sample sample) => Read(sample) switch
    {
        null or ErrorKind.None => "",
        bool flag => flag ? "1" : "0",
        IFormattable number => number.ToString(null, CultureInfo.InvariantCulture),
        var value => value.ToString() ?? "",
    };
}

/// <summary>
/// A sample's columns, listed once for what stores or exports samples as rows: the writer's prepared INSERT
/// and the CSV export, in the CSV's order. The agents' frames and the API's <c>SampleDto</c> have shapes of their
/// own (a packed binary record, milliseconds); a test over <see cref="Sample"/>'s properties holds all of them to it.
/// </summary>
public static class SampleColumns
{
    public static readonly IReadOnlyList<SampleColumn> All =
    [
        new(nameof(Sample.RunId), null, s => s.RunId, s => s.RunId),
        new(nameof(Sample.Index), "index", s => s.Index, s => s.Index),
        new(nameof(Sample.IsWarmup), "warmup", s => s.IsWarmup, s => s.IsWarmup ? 1 : 0),
        new(nameof(Sample.Connection), "connection", s => s.Connection, s => s.Connection),
        new(nameof(Sample.OffsetNs), "offset_ns", s => s.OffsetNs, s => s.OffsetNs),
        new(nameof(Sample.LatencyNs), "latency_ns", s => s.LatencyNs, s => s.LatencyNs),
        new(nameof(Sample.HeadersNs), "headers_ns", s => s.HeadersNs, s => s.HeadersNs),
        new(nameof(Sample.ConnectNs), "connect_ns", s => s.ConnectNs, s => s.ConnectNs),
        new(nameof(Sample.StatusCode), "status", s => s.StatusCode, s => s.StatusCode),
        new(nameof(Sample.Bytes), "bytes", s => s.Bytes, s => s.Bytes),
        new(nameof(Sample.Error), "error", s => s.Error, s => (long)s.Error),
        new(nameof(Sample.Series), "series", s => s.Series, null),
        new(nameof(Sample.Hit), "hit", s => s.Hit, s => s.Hit is { } hit ? (hit ? 1 : 0) : null),
        new(nameof(Sample.LagNs), "lag_ns", s => s.LagNs, s => s.LagNs),
        new(nameof(Sample.Shard), "shard", s => s.Shard, s => s.Shard),
    ];

    static readonly SampleColumn[] Exported = All.Where(c => c.Csv is not null).ToArray();

    /// <summary>The CSV's first line, its line break included.</summary>
    public static string CsvHeader { get; } = string.Join(',', Exported.Select(c => c.Csv)) + "\n";

    /// <summary>A sample as a CSV line, its line break included.</summary>
    public static string CsvLine(Sample sample)
    {
        var line = new StringBuilder(128);
        foreach (var column in Exported) line.Append(column.CsvValue(sample)).Append(',');
        line[^1] = '\n';
        return line.ToString();
    }
}
