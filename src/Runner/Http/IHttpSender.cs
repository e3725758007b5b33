using BenchDashboard.Core.Runs;
using BenchDashboard.Runner.Execution;

namespace BenchDashboard.Runner.Http;

/// <summary>One worker's requests of one variant, on whichever engine sends them (<see cref="HttpEngine"/>).</summary>
interface IHttpSender : IDisposable
{
    /// <summary>How long a request may take before it counts as timed out.</summary>
    TimeSpan Timeout { get; }

    /// <summary>Sends one request and reads the whole answer; the <see cref="LoadDriver"/> times it.</summary>
    ValueTask<Outcome> SendAsync(Operation operation, CancellationToken ct);

    /// <inheritdoc cref="ILoadOperation.Failed"/>
    Outcome? Failed(Operation operation, Exception exception, bool timedOut);

    /// <summary>The caching headers its answers carried.</summary>
    CachingEvidence Evidence { get; }
}
