namespace BenchDashboard.Core.Runs;

/// <summary>
/// Counts of distinct values of the response headers that tell cache hits from misses (seed 002: the cache
/// only worked once the app sent Expires). Bounded so a header that changes every response (Age, Date-like
/// values) cannot grow without limit: past <see cref="MaxDistinctValues"/> further values count as "(other)".
/// </summary>
public sealed class CachingEvidence
{
    public static readonly string[] HeaderNames = ["Age", "Cache-Control", "Expires", "ETag", "Last-Modified", "X-Cache"];
    public const int MaxDistinctValues = 20;
    public const string OtherValue = "(other)";

    public Dictionary<string, Dictionary<string, int>> Headers { get; init; } = new(StringComparer.OrdinalIgnoreCase);

    public void Add(string header, string value, int count = 1)
    {
        if (!Headers.TryGetValue(header, out var counts)) Headers[header] = counts = new(StringComparer.Ordinal);
        if (!counts.ContainsKey(value) && counts.Count >= MaxDistinctValues) value = OtherValue;
        counts[value] = counts.GetValueOrDefault(value) + count;
    }

    /// <summary>
    /// As <see cref="Add(string, string, int)"/> for a value still in the reader's buffer: a string is made only for a
    /// value not counted before, so a target that sends the same ETag with every answer costs no allocation per answer.
    /// </summary>
    public void Add(string header, ReadOnlySpan<char> value)
    {
        if (Headers.TryGetValue(header, out var counts) && counts.TryGetAlternateLookup<ReadOnlySpan<char>>(out var seen) && seen.TryGetValue(value, out var count))
        {
            seen[value] = count + 1;
            return;
        }
        Add(header, value.ToString());
    }

    public void MergeFrom(CachingEvidence other)
    {
        foreach (var (header, counts) in other.Headers)
            foreach (var (value, count) in counts)
                Add(header, value, count);
    }
}
