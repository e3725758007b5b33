using System.Collections;
using BenchDashboard.Core.Runs;

namespace BenchDashboard.Core.Statistics;

/// <summary>
/// A run's samples as columns (an array per field), in the order they were added: what a digest is computed from.
/// A million samples are ~60 MB here against ~200 MB as <see cref="Sample"/> objects in a list, and a column no sample
/// has (the lag of a closed run, shards, hits) takes no room. Statistics pick the samples they rank by their
/// positions here (an <c>int[]</c> of rows), not by copying samples. As an <see cref="IReadOnlyList{Sample}"/> it makes
/// a sample when one is asked for, for the few readers that want objects (a kind's own figures).
/// </summary>
public sealed class SampleTable : IReadOnlyList<Sample>
{
    // A nullable column keeps "none" as a value no sample can have: a duration or a count below zero by that much
    // (IntegerColumn.None, int.MinValue here).
    const int NoInt = int.MinValue;

    long runId;
    long[]? runIds; // only when samples of several runs were added (tests do that), else runId for every one
    int[] index;
    long[] offset;
    readonly IntegerColumn latency, bytes;
    IntegerColumn? lag, headers, connect;
    int[]? status, shard;
    ErrorKind[] error;
    bool[] warmup;
    int[] connection;
    sbyte[]? hit; // -1 none, 0 miss, 1 hit
    int[]? series; // into names; null while no sample has one
    readonly List<string> names = [];
    readonly Dictionary<string, int> nameIds = [];

    public SampleTable(int capacity = 0)
    {
        capacity = Math.Max(capacity, 16);
        index = new int[capacity];
        offset = new long[capacity];
        latency = new IntegerColumn(capacity);
        bytes = new IntegerColumn(capacity);
        error = new ErrorKind[capacity];
        warmup = new bool[capacity];
        connection = new int[capacity];
    }

    /// <summary>The samples of a list, in its order.</summary>
    public static SampleTable Of(IReadOnlyList<Sample> samples)
    {
        var table = new SampleTable(samples.Count);
        foreach (var s in samples) table.Add(s);
        return table;
    }

    public int Count { get; private set; }

    /// <summary>Some sample has a lag: an open-model run.</summary>
    public bool HasLag => lag is not null;

    /// <summary>The series names in the order their first sample was added; <see cref="SeriesId"/> indexes them.</summary>
    public IReadOnlyList<string> SeriesNames => names;

    public void Add(Sample s)
    {
        if (Count == index.Length) Grow(index.Length * 2);
        var i = Count++;
        if (i == 0) runId = s.RunId;
        else if (runIds is not null || s.RunId != runId)
        {
            if (runIds is null) { runIds = new long[index.Length]; Array.Fill(runIds, runId, 0, i); }
            runIds[i] = s.RunId;
        }
        index[i] = s.Index;
        offset[i] = s.OffsetNs;
        latency[i] = s.LatencyNs;
        bytes[i] = s.Bytes;
        error[i] = s.Error;
        warmup[i] = s.IsWarmup;
        connection[i] = s.Connection;
        Set(ref lag, i, s.LagNs);
        Set(ref headers, i, s.HeadersNs);
        Set(ref connect, i, s.ConnectNs);
        Set(ref status, i, s.StatusCode, NoInt);
        Set(ref shard, i, s.Shard, NoInt);
        if (s.Hit is { } h) Column(ref hit, (sbyte)-1)[i] = (sbyte)(h ? 1 : 0);
        else if (hit is not null) hit[i] = -1;
        if (s.Series is { } name)
        {
            if (!nameIds.TryGetValue(name, out var id)) { nameIds[name] = id = names.Count; names.Add(name); }
            Column(ref series, -1)[i] = id;
        }
        else if (series is not null) series[i] = -1;
    }

    public int Index(int row) => index[row];
    public long OffsetNs(int row) => offset[row];
    public long LatencyNs(int row) => latency[row];
    public long Bytes(int row) => bytes[row];
    public ErrorKind Error(int row) => error[row];
    public bool IsWarmup(int row) => warmup[row];
    public int Connection(int row) => connection[row];
    public long? LagNs(int row) => Get(lag, row);
    public long? HeadersNs(int row) => Get(headers, row);
    public long? ConnectNs(int row) => Get(connect, row);
    public int? StatusCode(int row) => status is null || status[row] == NoInt ? null : status[row];
    public int? Shard(int row) => shard is null || shard[row] == NoInt ? null : shard[row];
    public bool? Hit(int row) => hit is null || hit[row] < 0 ? null : hit[row] == 1;

    /// <summary>The row's series among <see cref="SeriesNames"/>; −1 for none.</summary>
    public int SeriesId(int row) => series is null ? -1 : series[row];

    public string? Series(int row) => SeriesId(row) is var id and >= 0 ? names[id] : null;

    /// <summary>Every row, in order.</summary>
    public int[] AllRows()
    {
        var rows = new int[Count];
        for (var i = 0; i < rows.Length; i++) rows[i] = i;
        return rows;
    }

    /// <summary>The rows of <paramref name="rows"/> that <paramref name="keep"/> keeps, in their order (counted first: no growing copies).</summary>
    public static int[] Where(int[] rows, Func<int, bool> keep)
    {
        var n = 0;
        foreach (var r in rows) if (keep(r)) n++;
        var kept = new int[n];
        n = 0;
        foreach (var r in rows) if (keep(r)) kept[n++] = r;
        return kept;
    }

    long[]? scratch;

    /// <summary>
    /// As <see cref="Values"/>, but into this table's one scratch buffer (as long as the table), which the next call
    /// overwrites: for a figure made of them at once (a ladder), so a digest's dozens of ladders over a million samples
    /// do not leave dozens of 8 MB arrays for the collector.
    /// </summary>
    public Span<long> ScratchValues(int[] rows, Func<int, bool> keep, Func<int, long> value)
    {
        var buffer = Scratch;
        var n = 0;
        foreach (var r in rows) if (keep(r)) buffer[n++] = value(r);
        return buffer.AsSpan(0, n);
    }

    /// <summary>The scratch buffer itself (<see cref="ScratchValues"/>): as long as the table; its contents are anyone's.</summary>
    internal long[] Scratch => scratch is { } s && s.Length >= Count ? s : scratch = new long[Math.Max(Count, 1)];

    /// <summary>A value of each row of <paramref name="rows"/> that <paramref name="keep"/> keeps, in an array of their exact number.</summary>
    public static long[] Values(int[] rows, Func<int, bool> keep, Func<int, long> value)
    {
        var n = 0;
        foreach (var r in rows) if (keep(r)) n++;
        var values = new long[n];
        n = 0;
        foreach (var r in rows) if (keep(r)) values[n++] = value(r);
        return values;
    }

    /// <summary>The rows ordered by index; the same array when they already are, else a stable sort of them.</summary>
    public int[] ByIndex(int[] rows)
    {
        for (var i = 1; i < rows.Length; i++)
            if (index[rows[i]] < index[rows[i - 1]]) return rows.OrderBy(r => index[r]).ToArray();
        return rows;
    }

    /// <summary>
    /// The samples as <see cref="LatencyBasis.Service"/> sees them (<see cref="LatencyBases.Apply"/>: started when
    /// sent, latency from there, no lag), changed here: a digest build is done with their corrected form by then.
    /// </summary>
    public void ToServiceTimeInPlace()
    {
        if (lag is null) return;
        for (var i = 0; i < Count; i++)
        {
            if (lag[i] is var late && late == IntegerColumn.None) continue;
            offset[i] += late;
            latency[i] -= late;
        }
        lag = null;
    }

    /// <summary>The row as a sample (a new object each time).</summary>
    public Sample this[int row] => row >= 0 && row < Count
        ? new Sample
        {
            RunId = runIds?[row] ?? runId, Index = index[row], OffsetNs = offset[row], LatencyNs = latency[row], LagNs = LagNs(row),
            HeadersNs = HeadersNs(row), ConnectNs = ConnectNs(row), StatusCode = StatusCode(row), Bytes = bytes[row], Error = error[row],
            IsWarmup = warmup[row], Connection = connection[row], Series = Series(row), Shard = Shard(row), Hit = Hit(row),
        }
        : throw new ArgumentOutOfRangeException(nameof(row));

    public IEnumerator<Sample> GetEnumerator()
    {
        for (var i = 0; i < Count; i++) yield return this[i];
    }

    IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();

    static long? Get(IntegerColumn? column, int row) => column?[row] is { } v && v != IntegerColumn.None ? v : null;

    void Set(ref IntegerColumn? column, int row, long? value)
    {
        if (value is { } v)
        {
            if (column is null) { column = new IntegerColumn(index.Length); column.FillNone(Count - 1); }
            column[row] = v;
        }
        else if (column is not null) column[row] = IntegerColumn.None;
    }

    void Set<T>(ref T[]? column, int row, T? value, T none) where T : struct
    {
        if (value is { } v) Column(ref column, none)[row] = v;
        else if (column is not null) column[row] = none;
    }

    /// <summary>The column, made on its first value with every earlier row "none".</summary>
    T[] Column<T>(ref T[]? column, T none)
    {
        if (column is null)
        {
            column = new T[index.Length];
            Array.Fill(column, none, 0, Count - 1);
        }
        return column;
    }

    void Grow(int capacity)
    {
        Array.Resize(ref index, capacity);
        Array.Resize(ref offset, capacity);
        latency.Resize(capacity);
        bytes.Resize(capacity);
        Array.Resize(ref error, capacity);
        Array.Resize(ref warmup, capacity);
        Array.Resize(ref connection, capacity);
        if (runIds is not null) Array.Resize(ref runIds, capacity);
        lag?.Resize(capacity);
        headers?.Resize(capacity);
        connect?.Resize(capacity);
        if (status is not null) Array.Resize(ref status, capacity);
        if (shard is not null) Array.Resize(ref shard, capacity);
        if (hit is not null) Array.Resize(ref hit, capacity);
        if (series is not null) Array.Resize(ref series, capacity);
    }
}
