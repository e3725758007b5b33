using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Security;
using BenchDashboard.Processing;
using BenchDashboard.Runner.Execution;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace BenchDashboard.Runner.Http;

/// <summary>
/// The HTTP kind's self warm-up: a Kestrel of its own on a free loopback port answers 4 KiB, and runs of the
/// <see cref="HttpBenchmark"/> send it the requests on each way a run sends them (the lean engine blocking and
/// asynchronous, SocketsHttpHandler), through the <see cref="LoadDriver"/>.
/// </summary>
static class LoopbackWarmup
{
    static readonly byte[] Payload = new byte[4096];

    /// <summary>Each way a run sends, as the settings that choose it: SocketsHttpHandler measures runs that set their own framing.</summary>
    static readonly RunnerOptions[] Ways =
    [
        new() { HttpBlockingUpTo = 1 },
        new() { HttpBlockingUpTo = 0 },
        new() { HttpBlockingUpTo = 0, HttpEngine = HttpEngine.Sockets },
    ];

    public static async Task<int> RunAsync(int requests, CancellationToken ct)
    {
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
        for (var way = 0; way < Ways.Length; way++)
        {
            var share = requests / Ways.Length + (way < requests % Ways.Length ? 1 : 0);
            if (share == 0) continue;
            var parameters = new HttpParameters { Url = url + "/", Requests = share, Concurrency = 1 };
            answered += await SelfWarmup.CountAnsweredAsync(new HttpBenchmark(policy, Options.Create(Ways[way])), parameters, ct);
        }
        await app.StopAsync(ct);
        return answered;
    }
}
