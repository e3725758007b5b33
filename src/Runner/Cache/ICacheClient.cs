namespace BenchDashboard.Runner.Cache;

/// <summary>The few cache operations a cache run times, over either backend.</summary>
public interface ICacheClient : IAsyncDisposable
{
    /// <summary>Stores the value with a time to live, so keys outlive no crash of the runner for long.</summary>
    Task SetAsync(string key, byte[] value, TimeSpan timeToLive);

    /// <summary>The length of the value found, or null for a miss.</summary>
    Task<int?> GetAsync(string key);

    /// <summary>Deletes the keys; returns how many existed.</summary>
    Task<long> DeleteAsync(string[] keys);

    /// <summary>Where the operations go, for the run page: no secrets.</summary>
    string Endpoint { get; }
}
