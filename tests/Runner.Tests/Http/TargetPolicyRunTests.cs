using BenchDashboard.Core;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Stores;
using BenchDashboard.Runner.Tests.Scheduling;
using BenchDashboard.TestSupport;
using Microsoft.EntityFrameworkCore;

namespace BenchDashboard.Runner.Tests.Http;

public class TargetPolicyRunTests
{
    [Fact]
    public async Task TheAddressConnectedToIsCheckedSoARunValidatedEarlierCannotReachARefusedAddress()
    {
        await using var target = await KestrelTarget.StartAsync();
        await using var host = await RunnerHost.CreateAsync(new() { ["Targets:AllowLoopback"] = "false" });
        // Stored as if it had been validated when "localhost" still resolved somewhere allowed (DNS rebinding).
        var url = $"http://localhost:{target.BaseUri.Port}/ok";
        var runId = await host.WithDbAsync(async db =>
        {
            var run = new Run { Kind = HttpKind.KindName, ParametersJson = Json.Serialize(new HttpParameters { Url = url, Requests = 20 }), Status = RunStatus.Queued, QueuedUtcMs = 1 };
            db.Runs.Add(run);
            await db.SaveChangesAsync();
            return run.Id;
        });

        await host.Host.StartAsync();
        var finished = await host.UntilFinalAsync(runId, seconds: 30);
        await host.Host.StopAsync();

        Assert.Equal(RunStatus.Failed, finished.Status);
        Assert.Contains("loopback", finished.Error);
        Assert.Equal(0, await host.WithDbAsync(db => RunSamples.CountAsync(db, runId)));
    }

    [Fact]
    public async Task AHeaderWithALineBreakStoredBeforeValidationRefusedItSendsNothing()
    {
        // A raw listener: it records any byte that reaches it. The payload would end the header and smuggle a
        // second request, with a Host the target policy never judged.
        using var listener = new System.Net.Sockets.TcpListener(System.Net.IPAddress.Loopback, 0);
        listener.Start();
        var received = 0;
        var accepting = Task.Run(async () =>
        {
            try
            {
                using var socket = await listener.AcceptSocketAsync();
                var buffer = new byte[4096];
                int read;
                while ((read = await socket.ReceiveAsync(buffer)) > 0) Interlocked.Add(ref received, read);
            }
            catch (System.Net.Sockets.SocketException) { }
            catch (ObjectDisposedException) { }
        });
        var port = ((System.Net.IPEndPoint)listener.LocalEndpoint).Port;
        const string smuggling = "1\r\nContent-Length: 0\r\n\r\nGET / HTTP/1.1\r\nHost: mysite.scm.azurewebsites.net\r\nX-Rest: ";
        await using var host = await RunnerHost.CreateAsync();
        var runId = await host.WithDbAsync(async db =>
        {
            var parameters = new HttpParameters { Url = $"http://127.0.0.1:{port}/", Requests = 3, Headers = new() { ["X-Trace"] = smuggling } };
            var run = new Run { Kind = HttpKind.KindName, ParametersJson = Json.Serialize(parameters), Status = RunStatus.Queued, QueuedUtcMs = 1 };
            db.Runs.Add(run);
            await db.SaveChangesAsync();
            return run.Id;
        });

        await host.Host.StartAsync();
        var finished = await host.UntilFinalAsync(runId, seconds: 30);
        await host.Host.StopAsync();
        await Task.Delay(200);
        listener.Stop();
        await accepting;

        Assert.Equal(RunStatus.Failed, finished.Status);
        Assert.Contains("line break", finished.Error);
        Assert.Equal(0, received);
        Assert.Equal(0, await host.WithDbAsync(db => RunSamples.CountAsync(db, runId)));
    }
}
