using System.Diagnostics;
using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Security;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace BenchDashboard.Runner.Http;

/// <summary>
/// Makes a young runner's HTTP measuring path hot before its first run (issue 15, <see cref="RunnerOptions.SelfWarmupRequests"/>):
/// a Kestrel of its own on a free loopback port answers 4 KiB, and the two engines (<see cref="HttpEngine"/>) send it
/// that many requests in turn, so the JIT has compiled (and tiered up) the code that later measures. Nothing is stored.
/// </summary>
public static class SelfWarmup
{
    static readonly byte[] Payload = new byte[4096];

    /// <returns>How many of the requests were answered without error.</returns>
    public static async Task<int> RunAsync(int requests, ILogger logger, CancellationToken ct)
    {
        var started = Stopwatch.GetTimestamp();
        var builder = WebApplication.CreateSlimBuilder();
        builder.WebHost.UseUrls("http://127.0.0.1:0");
        builder.Logging.ClearProviders();
        await using var app = builder.Build();
        app.MapGet("/", (HttpContext http) => http.Response.Body.WriteAsync(Payload).AsTask());
        await app.StartAsync(ct);
        var url = app.Services.GetRequiredService<IServer>().Features.GetRequiredFeature<IServerAddressesFeature>().Addresses.First();

        // Its own policy: the operator's may refuse loopback targets, and this traffic never leaves the process's machine.
        var policy = new TargetPolicy(new TargetOptions { AllowLoopback = true }, isDevelopment: false, siteHostName: null);
        var answered = 0;
        var parameters = new HttpParameters { Url = url + "/", Requests = requests };
        using var channel = new Lean.LeanChannel(policy, blocking: false);
        // Both engines: the lean one measures most runs, SocketsHttpHandler those that set their own framing.
        IHttpSender[] senders = [new Lean.LeanConnection(parameters, channel, null), new HttpConnection(parameters, policy)];
        var runStart = Stopwatch.GetTimestamp();
        for (var i = 0; i < requests && !ct.IsCancellationRequested; i++)
            if ((await senders[i % 2].SendAsync(new Execution.Operation(0, 0, i, i, IsWarmup: true, null, runStart), ct)).Error == Core.Runs.ErrorKind.None) answered++;
        foreach (var sender in senders) sender.Dispose();
        await app.StopAsync(ct);
        logger.LogInformation("Self warm-up: {Answered} of {Requests} loopback requests answered through the measuring path in {Ms:N0} ms",
            answered, requests, Stopwatch.GetElapsedTime(started).TotalMilliseconds);
        return answered;
    }
}
