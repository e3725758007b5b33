namespace BenchDashboard.Core.Statistics;

/// <summary>
/// A column of 64-bit integers kept as 32-bit ones while every value fits (latencies under 2.1 s, byte counts under
/// 2 GB: nearly every run), so a million of them take 4 MB instead of 8; the first value that does not fit widens it.
/// <see cref="None"/> is "no value" (a null), kept as <see cref="int.MinValue"/> while narrow.
/// </summary>
sealed class IntegerColumn(int capacity)
{
    public const long None = long.MinValue;

    int[]? narrow = new int[capacity];
    long[]? wide;

    public int Capacity => narrow?.Length ?? wide!.Length;

    public long this[int row]
    {
        get
        {
            if (narrow is null) return wide![row];
            var v = narrow[row];
            return v == int.MinValue ? None : v;
        }
        set
        {
            if (narrow is not null)
            {
                if (value == None) { narrow[row] = int.MinValue; return; }
                if (value is > int.MinValue and <= int.MaxValue) { narrow[row] = (int)value; return; }
                Widen();
            }
            wide![row] = value;
        }
    }

    /// <summary>Rows from 0 to <paramref name="count"/> − 1 set to <see cref="None"/>.</summary>
    public void FillNone(int count)
    {
        if (narrow is not null) Array.Fill(narrow, int.MinValue, 0, count);
        else Array.Fill(wide!, None, 0, count);
    }

    public void Resize(int capacity)
    {
        if (narrow is not null) Array.Resize(ref narrow, capacity);
        else Array.Resize(ref wide, capacity);
    }

    void Widen()
    {
        wide = new long[narrow!.Length];
        for (var i = 0; i < narrow.Length; i++) wide[i] = narrow[i] == int.MinValue ? None : narrow[i];
        narrow = null;
    }
}
