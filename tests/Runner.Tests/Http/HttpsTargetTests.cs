using System.Net;
using System.Net.Security;
using System.Security.Cryptography.X509Certificates;
using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Runs;
using BenchDashboard.Processing;
using BenchDashboard.Runner.Http;
using BenchDashboard.TestSupport;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using static BenchDashboard.Runner.Tests.Http.HttpEngines;

namespace BenchDashboard.Runner.Tests.Http;

/// <summary>
/// https:// targets: both engines (the lean one over its own TLS stream) read the same answers, pay the handshake once
/// per connection, and record a certificate they may not trust, or a stalled answer, as an error of each request.
/// </summary>
public sealed class HttpsTargetTests : IAsyncLifetime
{
    TlsTarget target = null!;

    public async Task InitializeAsync() => target = await TlsTarget.StartAsync();

    public async Task DisposeAsync() => await target.DisposeAsync();

    HttpParameters Get(string pathAndQuery, int requests = 5) =>
        new() { Url = target.Url + pathAndQuery.TrimStart('/'), Requests = requests, TimeoutMs = 5_000 };

    [Theory, MemberData(nameof(All), MemberType = typeof(HttpEngines))]
    public async Task BothEnginesReadTheSameAnswersOnOneConnection(HttpEngine engine, bool blocking)
    {
        var samples = await RunAsync(engine, blocking, Get("/ok?size=1234"), target.TrustOnly);

        Assert.Equal(Enumerable.Range(0, 5).Select(i => $"#{i} status 200, 1234 bytes, None"), samples.Select(Outcome));
        Assert.NotNull(samples[0].ConnectNs);
        Assert.All(samples.Skip(1), s => Assert.Null(s.ConnectNs));
        Assert.All(samples, s => Assert.InRange(s.HeadersNs!.Value, 1, s.LatencyNs));
        Assert.Equal(1, target.Connections);
    }

    [Theory, MemberData(nameof(All), MemberType = typeof(HttpEngines))]
    public async Task WithoutKeepAliveEachRequestConnectsAndShakesHandsAgain(HttpEngine engine, bool blocking)
    {
        var samples = await RunAsync(engine, blocking, Get("/ok?size=10", requests: 3) with { KeepAlive = false }, target.TrustOnly);

        Assert.Equal(Enumerable.Range(0, 3).Select(i => $"#{i} status 200, 10 bytes, None"), samples.Select(Outcome));
        Assert.All(samples, s => Assert.NotNull(s.ConnectNs));
        Assert.Equal(3, target.Connections);
    }

    [Theory, MemberData(nameof(All), MemberType = typeof(HttpEngines))]
    public async Task ACertificateTheSystemDoesNotTrustIsAnErrorOfEachRequest(HttpEngine engine, bool blocking)
    {
        var samples = await RunAsync(engine, blocking, Get("/ok?size=10", requests: 3), serverCertificate: null);

        Assert.Equal(Enumerable.Range(0, 3).Select(i => $"#{i} status none, 0 bytes, Other"), samples.Select(Outcome));
    }

    [Theory, MemberData(nameof(All), MemberType = typeof(HttpEngines))]
    public async Task AnAnswerThatStallsIsATimeoutAndTheNextRequestConnectsAgain(HttpEngine engine, bool blocking)
    {
        var samples = await RunAsync(engine, blocking, Get("/stall", requests: 2) with { TimeoutMs = 300 }, target.TrustOnly);

        Assert.Equal(["#0 status none, 0 bytes, Timeout", "#1 status none, 0 bytes, Timeout"], samples.Select(Outcome));
        // Its timer may fire a little early: the runtime's timers keep a coarser clock than the samples' Stopwatch.
        Assert.All(samples, s => Assert.InRange(s.LatencyNs, 250_000_000L, 10_000_000_000L));
        Assert.Equal(2, target.Connections);
    }

    [Fact]
    public async Task TheLeanEngineSendsHttpsAndSaysSo()
    {
        var (_, _, context) = await HttpRun.ExecuteWithContextAsync(Get("/ok?size=1"), default, 0, HttpEngine.Auto, target.TrustOnly);

        Assert.Equal("lean HTTP/1.1", context.Client()!["httpEngine"]);
    }

    /// <summary>Kestrel over TLS on a free loopback port, with a certificate made here for 127.0.0.1 that only <see cref="TrustOnly"/> trusts.</summary>
    sealed class TlsTarget : IAsyncDisposable
    {
        readonly WebApplication app;
        readonly X509Certificate2 certificate;
        int connections;

        TlsTarget(WebApplication app, X509Certificate2 certificate, string url)
        {
            this.app = app;
            this.certificate = certificate;
            Url = url;
        }

        public string Url { get; }

        /// <summary>TLS connections the server accepted so far.</summary>
        public int Connections => Volatile.Read(ref connections);

        public RemoteCertificateValidationCallback TrustOnly => LoopbackCertificate.TrustOnly(certificate);

        public static async Task<TlsTarget> StartAsync()
        {
            var certificate = LoopbackCertificate.Create();

            TlsTarget? target = null;
            var builder = WebApplication.CreateSlimBuilder();
            builder.Logging.ClearProviders();
            builder.WebHost.ConfigureKestrel(kestrel => kestrel.Listen(IPAddress.Loopback, 0, listen =>
            {
                listen.Use(next => connection =>
                {
                    Interlocked.Increment(ref target!.connections);
                    return next(connection);
                });
                listen.UseHttps(certificate);
            }));
            var app = builder.Build();
            app.MapGet("/ok", (int size) => Results.Text(new string('x', size)));
            app.MapGet("/stall", async (HttpContext http) =>
            {
                try
                {
                    await Task.Delay(TimeSpan.FromSeconds(30), http.RequestAborted);
                }
                catch (OperationCanceledException)
                {
                }
            });
            await app.StartAsync();
            var url = app.Services.GetRequiredService<IServer>().Features.GetRequiredFeature<IServerAddressesFeature>().Addresses.First();
            return target = new TlsTarget(app, certificate, url.TrimEnd('/') + "/");
        }

        public async ValueTask DisposeAsync()
        {
            await app.StopAsync();
            await app.DisposeAsync();
            certificate.Dispose();
        }
    }
}
