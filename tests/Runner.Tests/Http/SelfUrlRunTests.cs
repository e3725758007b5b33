using System.Threading.Channels;
using BenchDashboard.Core;
using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Security;
using BenchDashboard.Processing;
using BenchDashboard.Processing.Executing;
using BenchDashboard.Runner.Http;
using BenchDashboard.TestSupport;
using Microsoft.Extensions.Options;

namespace BenchDashboard.Runner.Tests.Http;

/// <summary>
/// {{self}} runs on the HTTP executor: an agent with a site of its own measures it over loopback even where its policy
/// refuses loopback; the dashboard's runner and an agent without a site refuse them, saying why, before any request.
/// </summary>
public class SelfUrlRunTests
{
    /// <summary>Production's policy: loopback refused (App Service, where a configuration's agent runs).</summary>
    static readonly TargetPolicy Production = new(new TargetOptions(), isDevelopment: false, siteHostName: null);

    static HttpBenchmark Executor(RunnerMode mode, string? selfUrl) =>
        new(Production, Options.Create(new RunnerOptions { Mode = mode, SelfUrl = selfUrl, HttpBlockingUpTo = 0 }));

    static async Task<(List<Sample> Samples, RunContext Context)> ExecuteAsync(HttpBenchmark executor, HttpParameters parameters)
    {
        var channel = Channel.CreateUnbounded<Sample>();
        var context = new RunContext(new Run { Id = 1, Kind = HttpKind.KindName, ParametersJson = Json.Serialize(parameters) }, channel.Writer.TryWrite);
        try
        {
            await executor.ExecuteAsync(context, CancellationToken.None);
        }
        finally
        {
            channel.Writer.Complete();
        }
        var samples = new List<Sample>();
        await foreach (var s in channel.Reader.ReadAllAsync()) samples.Add(s);
        return (samples, context);
    }

    [Fact]
    public async Task AnAgentMeasuresItsOwnSiteOverLoopbackThoughItsPolicyRefusesLoopback()
    {
        await using var site = await KestrelTarget.StartAsync();
        var executor = Executor(RunnerMode.Agent, $"http://localhost:{site.BaseUri.Port}"); // "localhost" is taken as 127.0.0.1, where the target listens
        var parameters = new HttpParameters
        {
            Url = "{{self}}/delay?ms=2", Requests = 20, Variants = [new HttpVariant { Name = "delay" }, new HttpVariant { Name = "ok", Url = "{{self}}/ok?size=16" }],
        };

        Assert.Null(await executor.RefusalAsync(parameters, CancellationToken.None));
        var (samples, context) = await ExecuteAsync(executor, parameters);

        Assert.Equal(40, samples.Count);
        Assert.All(samples, s => Assert.Equal(200, s.StatusCode));
        Assert.Equal([20, 20], samples.GroupBy(s => s.Series).OrderBy(g => g.Key).Select(g => g.Count()));
        Assert.All(samples.Where(s => s.Series == "delay"), s => Assert.True(s.LatencyNs >= 2_000_000, $"{s.LatencyNs} ns for a 2 ms target"));
        Assert.Contains(context.Notes.Notes, n => n.Contains($"own site, http://127.0.0.1:{site.BaseUri.Port}"));
    }

    [Fact]
    public async Task OpeningItsOwnSiteDoesNotOpenOtherLoopbackTargetsOfTheSameRun()
    {
        var executor = Executor(RunnerMode.Agent, "http://127.0.0.1:5999");
        var parameters = new HttpParameters { Url = "{{self}}/delay?ms=2", Requests = 5, Variants = [new HttpVariant(), new HttpVariant { Url = "http://127.0.0.1:6000/secret" }] };

        var refusal = await executor.RefusalAsync(parameters, CancellationToken.None);

        Assert.Contains("http://127.0.0.1:6000/secret", refusal);
        Assert.Contains("loopback", refusal);
    }

    [Theory]
    [InlineData(RunnerMode.Runner, "http://127.0.0.1:5999", "not on the dashboard's runner")]
    [InlineData(RunnerMode.Agent, null, "serves no site of its own")]
    [InlineData(RunnerMode.Agent, "ftp://127.0.0.1/", "is not an http:// or https:// address")]
    public async Task WithoutAnOwnSiteASelfRunIsRefusedWithItsReasonBeforeAnyRequest(RunnerMode mode, string? selfUrl, string reason)
    {
        var executor = Executor(mode, selfUrl);
        var parameters = new HttpParameters { Url = "{{self}}/delay?ms=2", Requests = 5 };

        Assert.Contains(reason, await executor.RefusalAsync(parameters, CancellationToken.None));
        var failed = await Assert.ThrowsAsync<InvalidOperationException>(() => ExecuteAsync(executor, parameters));
        Assert.Contains(reason, failed.Message);
    }
}
