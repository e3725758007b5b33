using BenchDashboard.Core.Runs;

namespace BenchDashboard.Core.Tests.Runs;

public sealed class CachingEvidenceTests
{
    static string Counts(CachingEvidence evidence) =>
        string.Join("; ", evidence.Headers.OrderBy(h => h.Key).Select(h => h.Key + ": " + string.Join(", ", h.Value.OrderBy(v => v.Key, StringComparer.Ordinal).Select(v => $"{v.Key}={v.Value}"))));

    [Fact]
    public void AValueFromABufferCountsAsTheSameValueAsAString()
    {
        var values = Enumerable.Range(0, 30).SelectMany(i => new[] { $"\"v{i % 25}\"", "\"same\"" }).ToList();
        var fromStrings = new CachingEvidence();
        var fromBuffers = new CachingEvidence();

        foreach (var value in values)
        {
            fromStrings.Add("ETag", value);
            fromBuffers.Add("ETag", value.AsSpan());
        }
        fromBuffers.Add("Age", "0".AsSpan());
        fromStrings.Add("Age", "0");

        // The bound of distinct values and "(other)" hold the same either way.
        Assert.Equal(Counts(fromStrings), Counts(fromBuffers));
        Assert.Equal(30, fromBuffers.Headers["ETag"]["\"same\""]);
        Assert.Equal(CachingEvidence.MaxDistinctValues, fromBuffers.Headers["ETag"].Count(v => v.Key != CachingEvidence.OtherValue));
    }

    [Fact]
    public void ACountedValueIsCountedAgainWithoutANewString()
    {
        var evidence = new CachingEvidence();
        evidence.Add("ETag", "\"abc\"".AsSpan());
        Span<char> buffer = stackalloc char[5];
        "\"abc\"".CopyTo(buffer);

        var before = GC.GetAllocatedBytesForCurrentThread();
        for (var i = 0; i < 1000; i++) evidence.Add("ETag", buffer);
        var allocated = GC.GetAllocatedBytesForCurrentThread() - before;

        Assert.Equal(1001, evidence.Headers["ETag"]["\"abc\""]);
        Assert.Equal(0, allocated);
    }
}
