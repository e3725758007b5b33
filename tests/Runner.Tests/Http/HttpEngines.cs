using System.Net.Security;
using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Runs;
using BenchDashboard.Processing;
using BenchDashboard.Runner.Http;

namespace BenchDashboard.Runner.Tests.Http;

/// <summary>
/// Every way the runner can send HTTP/1.1 requests, for tests that hold each to the same answers: the lean engine
/// (<see cref="HttpEngine.Auto"/> on plain http://) and SocketsHttpHandler, each with asynchronous and blocking sends.
/// </summary>
static class HttpEngines
{
    public static TheoryData<HttpEngine, bool> All => new()
    {
        { HttpEngine.Auto, false },
        { HttpEngine.Sockets, false },
        { HttpEngine.Auto, true },
        { HttpEngine.Sockets, true },
    };

    /// <summary>
    /// Runs the parameters with that engine, within a bound that turns a hang into a failure: each scenario's
    /// target answers in milliseconds, so even a loaded machine finishes far inside it.
    /// </summary>
    public static async Task<List<Sample>> RunAsync(HttpEngine engine, bool blocking, HttpParameters parameters, RemoteCertificateValidationCallback? serverCertificate = null)
    {
        using var bound = new CancellationTokenSource(TimeSpan.FromSeconds(60));
        var (samples, _, _) = await HttpRun.ExecuteWithContextAsync(parameters, bound.Token, blocking ? 1024 : 0, engine, serverCertificate);
        return samples;
    }

    /// <summary>What a test compares per sample: what an engine made of each answer.</summary>
    public static string Outcome(Sample s) => $"#{s.Index} status {s.StatusCode?.ToString() ?? "none"}, {s.Bytes} bytes, {s.Error}";
}
