using Microsoft.Extensions.Caching.Memory;

namespace BenchDashboard.Runner.Cache;

/// <summary>
/// The in-process backend: a private <see cref="MemoryCache"/> per run. No network and no serialization, so
/// its figures are the floor set by the measuring loop itself.
/// </summary>
public sealed class MemoryCacheClient : ICacheClient
{
    readonly MemoryCache cache = new(new MemoryCacheOptions());

    public Task SetAsync(string key, byte[] value, TimeSpan timeToLive)
    {
        cache.Set(key, value, timeToLive);
        return Task.CompletedTask;
    }

    public Task<int?> GetAsync(string key) =>
        Task.FromResult(cache.TryGetValue(key, out byte[]? value) && value is not null ? value.Length : (int?)null);

    public Task<long> DeleteAsync(string[] keys)
    {
        long existed = 0;
        foreach (var key in keys)
        {
            if (cache.TryGetValue(key, out _)) existed++;
            cache.Remove(key);
        }
        return Task.FromResult(existed);
    }

    public string Endpoint => "in-process memory cache";

    public ValueTask DisposeAsync()
    {
        cache.Dispose();
        return ValueTask.CompletedTask;
    }
}
