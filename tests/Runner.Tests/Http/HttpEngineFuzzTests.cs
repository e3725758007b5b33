using System.Diagnostics;
using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Runs;
using BenchDashboard.Processing;
using BenchDashboard.Runner.Http;
using BenchDashboard.TestSupport;
using Xunit.Sdk;

namespace BenchDashboard.Runner.Tests.Http;

/// <summary>
/// A stream of fuzzed answers (<see cref="FuzzedResponses"/>) never crashes or hangs the lean engine: every request is
/// one sample, an answer or a classified error. The seed is random per run, or FUZZ_SEED's, and printed on failure.
/// </summary>
public sealed class HttpEngineFuzzTests
{
    const int Requests = 320;

    static readonly ErrorKind[] Classified = [ErrorKind.None, ErrorKind.HttpStatus, ErrorKind.Throttled, ErrorKind.Other, ErrorKind.ConnectionReset];

    [Theory]
    [InlineData(1)]
    [InlineData(4)]
    public async Task FuzzedAnswersAreEachOneClassifiedSampleAndTheRunCompletes(int connections)
    {
        var seed = int.TryParse(Environment.GetEnvironmentVariable("FUZZ_SEED"), out var fixedSeed) ? fixedSeed : Random.Shared.Next();
        await using var target = new ScriptedTcpTarget(r => FuzzedResponses.For(seed, r));
        using var bound = new CancellationTokenSource(TimeSpan.FromSeconds(90));
        var clock = Stopwatch.StartNew();
        try
        {
            var (samples, stats, _) = await HttpRun.ExecuteAsync(
                new HttpParameters { Url = target.Url().ToString(), Requests = Requests, Concurrency = connections, TimeoutMs = 10_000 }, bound.Token, engine: HttpEngine.Auto);

            Assert.Equal(Enumerable.Range(0, Requests), samples.Select(s => s.Index));
            // A timeout would mean the client waited for bytes after the server had ended the connection.
            Assert.All(samples, s => Assert.Contains(s.Error, Classified));
            // An interim status is never the final one, and what counts as an answer has a status.
            Assert.All(samples.Where(s => !s.Error.IsTransportError()), s => Assert.InRange(s.StatusCode ?? 0, 200, 999));
            Assert.All(samples.Where(s => s.Error == ErrorKind.None), s => Assert.InRange(s.StatusCode ?? 0, 200, 399));
            Assert.Equal(Requests, stats.Count);
            // Roughly one answer in six is intact: fewer answers than that would mean broken ones poison good ones.
            Assert.True(samples.Count(s => !s.Error.IsTransportError()) >= Requests / 12, $"{samples.Count(s => !s.Error.IsTransportError())} answers");
        }
        catch (Exception ex) // an assertion, the bound's cancel (a hang), or anything thrown out of the run (a crash)
        {
            throw new XunitException($"FUZZ_SEED={seed} ({connections} connections, {clock.Elapsed.TotalSeconds:F1} s, {target.Requests.Count} requests read): {ex.GetType().Name}: {ex.Message}");
        }
    }
}
