using System.Diagnostics;
using System.Net.Sockets;
using BenchDashboard.Core.Runs;
using BenchDashboard.Runner.Cache;
using BenchDashboard.TestSupport;

namespace BenchDashboard.Runner.Tests.Cache;

/// <summary>The client against a real redis-server that goes away: what an operation then reports, and how soon.</summary>
public sealed class RedisCacheClientTests
{
    static readonly TimeSpan Timeout = TimeSpan.FromSeconds(5);

    [Theory]
    [InlineData(false)] // stopped (SIGTERM): it closes its connections and its port
    [InlineData(true)]  // killed (SIGKILL): the kernel closes them
    public async Task AGetWithTheServerDownIsARefusedConnectionAndFailsAtOnce(bool kill)
    {
        await using var redis = await RedisServer.StartAsync();
        await using var client = await RedisCacheClient.ConnectAsync("test", redis.ConnectionString, Timeout, default);
        await client.SetAsync("k", [1, 2, 3], TimeSpan.FromMinutes(1));
        Assert.Equal(3, await client.GetAsync("k"));

        if (kill) redis.Kill();
        else redis.Stop();
        AssertPortRefuses(redis.Port);
        await Task.Delay(500); // for the client to see its socket closed (loopback: at once)

        for (var i = 0; i < 5; i++)
        {
            var started = Stopwatch.GetTimestamp();
            var failure = await Record.ExceptionAsync(() => client.GetAsync("k").WaitAsync(Timeout));
            var took = Stopwatch.GetElapsedTime(started);

            Assert.NotNull(failure);
            Assert.Equal(ErrorKind.ConnectionRefused, CacheErrorClassifier.Classify(failure));
            // A backlog would hold the GET for the whole timeout (5 s) and then report a lost connection.
            Assert.True(took < TimeSpan.FromMilliseconds(500), $"GET {i} took {took.TotalMilliseconds:N0} ms to fail");
        }
    }

    [Fact]
    public async Task TheProtocolIsTheOneTheServerWasSpokenTo()
    {
        await using var redis = await RedisServer.StartAsync();
        await using var resp3 = await RedisCacheClient.ConnectAsync("test", redis.ConnectionString, Timeout, default);
        await using var resp2 = await RedisCacheClient.ConnectAsync("test", $"{redis.ConnectionString},protocol=resp2", Timeout, default);

        Assert.Equal("RESP3", resp3.Protocol); // the library's default, which this redis-server (7.x) accepts
        Assert.Equal("RESP2", resp2.Protocol);
    }

    static void AssertPortRefuses(int port)
    {
        using var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        var refused = Assert.Throws<SocketException>(() => socket.Connect("127.0.0.1", port));
        Assert.Equal(SocketError.ConnectionRefused, refused.SocketErrorCode);
    }
}
