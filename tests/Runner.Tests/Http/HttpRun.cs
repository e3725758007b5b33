using System.Net.Security;
using System.Threading.Channels;
using BenchDashboard.Core;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Security;
using BenchDashboard.Core.Statistics;
using BenchDashboard.Processing;
using BenchDashboard.Processing.Executing;
using BenchDashboard.Runner.Execution;
using BenchDashboard.Runner.Http;
using Microsoft.Extensions.Options;

namespace BenchDashboard.Runner.Tests.Http;

/// <summary>Runs the real HTTP executor and collects what it records, without a database in between.</summary>
static class HttpRun
{
    /// <summary>The tests' targets listen on 127.0.0.1, which production settings refuse.</summary>
    public static readonly TargetPolicy LoopbackAllowed = new(new TargetOptions { AllowLoopback = true }, isDevelopment: false, siteHostName: null);

    /// <param name="blockingUpTo">Runs with at most this many connections send with blocking calls (<see cref="RunnerOptions.HttpBlockingUpTo"/>).</param>
    /// <param name="engine">What sends the requests (<see cref="RunnerOptions.HttpEngine"/>).</param>
    public static async Task<(List<Sample> Samples, RunStatistics Stats, CachingEvidence? Evidence)> ExecuteAsync(
        HttpParameters parameters, CancellationToken ct = default, int blockingUpTo = 0, HttpEngine engine = HttpEngine.Auto)
    {
        var (samples, stats, context) = await ExecuteWithContextAsync(parameters, ct, blockingUpTo, engine);
        return (samples, stats, context.CachingEvidence);
    }

    /// <summary>As <see cref="ExecuteAsync"/>, with the run's notes and warnings.</summary>
    public static async Task<(List<Sample> Samples, RunStatistics Stats, RunNotes Notes)> ExecuteWithNotesAsync(
        HttpParameters parameters, CancellationToken ct = default, HttpEngine engine = HttpEngine.Auto)
    {
        var (samples, stats, context) = await ExecuteWithContextAsync(parameters, ct, 0, engine);
        return (samples, stats, context.Notes);
    }

    /// <summary>As <see cref="ExecuteAsync"/>, with the run's context (its notes, and what its client recorded).</summary>
    /// <param name="serverCertificate">How an https:// target's certificate is checked; null: the system's trust store.</param>
    public static async Task<(List<Sample> Samples, RunStatistics Stats, RunContext Context)> ExecuteWithContextAsync(
        HttpParameters parameters, CancellationToken ct, int blockingUpTo, HttpEngine engine, RemoteCertificateValidationCallback? serverCertificate = null)
    {
        var channel = Channel.CreateUnbounded<Sample>();
        var context = new RunContext(new Run { Id = 1, Kind = HttpKind.KindName, ParametersJson = Json.Serialize(parameters) }, channel.Writer.TryWrite);
        try
        {
            await new HttpBenchmark(LoopbackAllowed, Options.Create(new RunnerOptions { HttpBlockingUpTo = blockingUpTo, HttpEngine = engine }), serverCertificate)
                .ExecuteAsync(context, ct);
        }
        finally
        {
            channel.Writer.Complete();
        }
        var samples = new List<Sample>();
        await foreach (var s in channel.Reader.ReadAllAsync()) samples.Add(s);
        return (samples.OrderBy(s => s.Index).ToList(), RunStatistics.From(samples), context);
    }
}
