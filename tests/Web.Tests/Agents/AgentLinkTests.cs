using System.Diagnostics;
using System.Net;
using System.Net.WebSockets;
using System.Text.Json;
using BenchDashboard.TestSupport;
using BenchDashboard.Web.Tests.Deployment;
using Xunit.Abstractions;

namespace BenchDashboard.Web.Tests.Agents;

/// <summary>
/// Runner agents, as real processes on loopback: the published dashboard, and agents started from the
/// same output with <c>--runner</c> and <c>Runner__Mode=agent</c>. Times below are measured and printed.
/// </summary>
[Collection(PublishedApps.Collection)]
public sealed class AgentLinkTests(PublishedOutput published, ITestOutputHelper output)
{
    [Fact]
    public async Task AnAgentLinksWithItsKeyKeepsTimeAndALostOneIsNoticedByItsLease()
    {
        using var dir = new TempDirectory();
        await using var dashboard = await Dashboard.StartAsync(published, dir);

        // Linked, with its machine and a clock offset from the shortest of its ping round trips.
        // With its own public address (Runner:PublicUrl), which it says in its hello: what a run from outside measures it at.
        await using var alpha = dashboard.StartAgent(published, dir, "alpha", "alpha-key", new() { ["Runner__PublicUrl"] = "https://bench-alpha.example.net/" });
        var (linked, _) = await dashboard.UntilAgentAsync("alpha", linked: true, a => a.GetProperty("clockOffsetMs").ValueKind == JsonValueKind.Number);
        var offset = linked.GetProperty("clockOffsetMs").GetDouble();
        var roundTrip = linked.GetProperty("clockRoundTripMs").GetDouble();
        output.WriteLine($"alpha: clock offset {offset:0.000} ms over a {roundTrip:0.000} ms round trip");
        // Same machine, same clock: the true offset is 0, and the estimate is within half its round trip.
        Assert.InRange(Math.Abs(offset), 0, roundTrip / 2 + 0.05);
        Assert.Equal(Environment.MachineName, linked.GetProperty("machine").GetString());
        Assert.Equal("https://bench-alpha.example.net", linked.GetProperty("baseUrl").GetString());
        var page = WebUtility.HtmlDecode(await dashboard.Client.GetStringAsync("/agents"));
        Assert.Contains("<tr data-agent=\"alpha\">", page);

        // SIGSTOP: the process keeps its socket open but says nothing; its lease runs out.
        var stopped = Stopwatch.StartNew();
        Process.Start("kill", ["-STOP", alpha.Pid.ToString()])!.WaitForExit();
        try
        {
            var (lost, after) = await dashboard.UntilAgentAsync("alpha", linked: false, seconds: 15);
            output.WriteLine($"SIGSTOP'd agent noticed after {stopped.Elapsed.TotalSeconds:0.000} s: {lost.GetProperty("endReason").GetString()}");
            // The lease runs from the last frame, which came up to a heartbeat (1 s) before the stop.
            Assert.InRange(stopped.Elapsed.TotalSeconds, 1.9, 6);
            Assert.Contains("nothing heard for 3 s", lost.GetProperty("endReason").GetString());
        }
        finally
        {
            Process.Start("kill", ["-CONT", alpha.Pid.ToString()])!.WaitForExit();
        }

        // It comes back (a new epoch), then kill -9: the lost socket is noticed within the lease.
        var (again, _) = await dashboard.UntilAgentAsync("alpha", linked: true, seconds: 40);
        Assert.True(again.GetProperty("epoch").GetInt64() > linked.GetProperty("epoch").GetInt64());
        var killed = Stopwatch.StartNew();
        Process.GetProcessById(alpha.Pid).Kill();
        await dashboard.UntilAgentAsync("alpha", linked: false, a => a.GetProperty("epoch").GetInt64() == again.GetProperty("epoch").GetInt64(), seconds: 15);
        output.WriteLine($"kill -9'd agent noticed after {killed.Elapsed.TotalSeconds:0.000} s");
        Assert.InRange(killed.Elapsed.TotalSeconds, 0, 5);
    }

    [Fact]
    public async Task AWrongKeyIsRefusedAndAnAgentStopsWithinItsLeaseWhenTheDashboardDies()
    {
        using var dir = new TempDirectory();
        await using var dashboard = await Dashboard.StartAsync(published, dir);
        var endpoint = new Uri($"ws://127.0.0.1:{dashboard.Port}/agents/connect");

        // Refused: a wrong key, an unknown name, no key; not a WebSocket: 400.
        foreach (var (name, key) in new[] { ("alpha", "beta-key"), ("gamma", "alpha-key"), ("alpha", "") })
        {
            using var socket = new ClientWebSocket();
            socket.Options.CollectHttpResponseDetails = true;
            socket.Options.SetRequestHeader("X-Agent-Name", name);
            if (key.Length > 0) socket.Options.SetRequestHeader("Authorization", "Bearer " + key);
            await Assert.ThrowsAsync<WebSocketException>(() => socket.ConnectAsync(endpoint, CancellationToken.None));
            Assert.Equal(HttpStatusCode.Unauthorized, socket.HttpStatusCode);
        }
        Assert.Equal(HttpStatusCode.BadRequest, (await dashboard.Client.GetAsync("/agents/connect")).StatusCode);
        await using (var wrong = dashboard.StartAgent(published, dir, "beta", "not-the-key"))
        {
            await wrong.UntilLoggedAsync(@"refused agent 'beta'.*Trying again in (\d+) s");
            Assert.Null(await dashboard.AgentAsync("beta", linked: true));
        }

        // The dashboard hangs (SIGSTOP: its sockets stay open, it says nothing): the agent takes it as lost
        // when its lease runs out, from the dashboard's last heartbeat, up to a second before the stop.
        await using var beta = dashboard.StartAgent(published, dir, "beta", "beta-key");
        await dashboard.UntilAgentAsync("beta", linked: true);
        var stopped = Stopwatch.StartNew();
        Process.Start("kill", ["-STOP", dashboard.App.Pid.ToString()])!.WaitForExit();
        try
        {
            await beta.UntilLoggedAsync(@"Link to the dashboard lost \(nothing heard from the dashboard for (\d+)");
            output.WriteLine($"agent noticed its dashboard gone after {stopped.Elapsed.TotalSeconds:0.000} s: {beta.Log.Split('\n').Last(l => l.Contains("Link to the dashboard lost"))}");
            Assert.InRange(stopped.Elapsed.TotalSeconds, 1.9, 5);
        }
        finally
        {
            Process.Start("kill", ["-CONT", dashboard.App.Pid.ToString()])!.WaitForExit();
        }
    }
}
