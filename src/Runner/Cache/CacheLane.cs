using System.Security.Cryptography;
using System.Text.RegularExpressions;
using BenchDashboard.Core.Kinds.Cache;

namespace BenchDashboard.Runner.Cache;

/// <summary>
/// What one variant of a cache run operates with: its parameters, its own client (so variants never share a
/// connection), its own keys and value. A run without variants has one lane with no name, whose series are
/// the bare phase names.
/// </summary>
sealed class CacheLane(string? name, CacheParameters parameters, CacheKeys keys, ICacheClient client) : IAsyncDisposable
{
    int keysTouched;

    public string? Name => name;
    public CacheParameters Parameters => parameters;
    public CacheKeys Keys => keys;
    public ICacheClient Client => client;
    public byte[] Value { get; } = RandomNumberGenerator.GetBytes(parameters.ValueBytes);

    /// <summary>How many data keys (from k0) may exist on the server: what cleanup must delete.</summary>
    public int KeysTouched => Volatile.Read(ref keysTouched);

    // Named once: every operation's sample takes its phase's name, on the measuring path.
    readonly string[] series = Enum.GetValues<CachePhase>().Select(phase => name is null ? phase.Name() : CachePhaseNames.SeriesOf(name, phase.Name())).ToArray();

    /// <summary>"read-same", or "A/read-same" for variant A.</summary>
    public string SeriesOf(CachePhase phase) => series[(int)phase];

    /// <summary>"" or "Variant A: ", to start a note with.</summary>
    public string NotePrefix => name is null ? "" : $"Variant {name}: ";

    public void Touch(int count)
    {
        int current;
        while ((current = Volatile.Read(ref keysTouched)) < count && Interlocked.CompareExchange(ref keysTouched, count, current) != current) { }
    }

    /// <summary>A message safe and useful to keep: no password, and this run's key names folded so one cause is one entry.</summary>
    public string Clean(string message)
    {
        if (client is RedisCacheClient redis) message = redis.Redact(message);
        return Regex.Replace(message, Regex.Escape(keys.Prefix) + @"\S*", "{key}");
    }

    public ValueTask DisposeAsync() => client.DisposeAsync();
}
