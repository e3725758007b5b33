using System.Collections;

namespace BenchDashboard.Core.Statistics;

/// <summary>
/// A read-only list whose items are made when read (<paramref name="at"/>): chart points or series samples of a
/// <see cref="SampleTable"/>'s rows for a reader that takes a list, without a million of them made at once.
/// </summary>
sealed class ListView<T>(int count, Func<int, T> at) : IReadOnlyList<T>
{
    public int Count => count;

    public T this[int index] => (uint)index < (uint)count ? at(index) : throw new ArgumentOutOfRangeException(nameof(index));

    public IEnumerator<T> GetEnumerator()
    {
        for (var i = 0; i < count; i++) yield return at(i);
    }

    IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();
}
