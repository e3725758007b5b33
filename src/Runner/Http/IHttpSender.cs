using BenchDashboard.Core.Runs;
using BenchDashboard.Runner.Execution;

namespace BenchDashboard.Runner.Http;

/// <summary>One worker's requests of one variant, on whichever engine sends them (<see cref="HttpEngine"/>).</summary>
interface IHttpSender : IDisposable
{
    /// <summary>Sends one request and reads the whole answer; a fault of the target is a sample with its error, never an exception.</summary>
    ValueTask<Sample> SendAsync(Operation operation, CancellationToken runToken);

    /// <summary>The caching headers its answers carried.</summary>
    CachingEvidence Evidence { get; }
}
