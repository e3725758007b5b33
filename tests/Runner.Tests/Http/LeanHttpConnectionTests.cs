using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Security;
using BenchDashboard.Runner.Http.Io;
using BenchDashboard.Runner.Http.Lean;
using BenchDashboard.TestSupport;

namespace BenchDashboard.Runner.Tests.Http;

/// <summary>
/// A lean connection's receive buffer: small while answers are small (many connections must not each hold the
/// largest), and grown only when a header line or a large body needs it.
/// </summary>
public sealed class LeanHttpConnectionTests
{
    static readonly TargetPolicy Loopback = new(new TargetOptions { AllowLoopback = true }, isDevelopment: false, siteHostName: null);

    static async Task<(int Status, long Bytes, int BufferBytes)> ExchangeAsync(ScriptedTcpTarget target, bool blocking)
    {
        var request = new LeanRequest(new HttpParameters { Url = target.Url().ToString(), Requests = 1 });
        using var connection = new LeanHttpConnection(Loopback, blocking);
        var parser = new ResponseParser();
        parser.Reset(headRequest: false);
        using var bound = new CancellationTokenSource(TimeSpan.FromSeconds(60));
        if (blocking)
        {
            // Done when they return: the blocking adapter's calls never leave the thread.
            var connect = connection.ConnectAsync<BlockingIo>(request, bound.Token);
            Assert.True(connect.IsCompleted);
            connect.GetAwaiter().GetResult();
            var exchange = connection.ExchangeAsync<BlockingIo>(request, parser, bound.Token);
            Assert.True(exchange.IsCompleted);
            exchange.GetAwaiter().GetResult();
        }
        else
        {
            await connection.ConnectAsync<AsyncIo>(request, bound.Token);
            await connection.ExchangeAsync<AsyncIo>(request, parser, bound.Token);
        }
        return (parser.StatusCode, parser.BodyBytes, connection.BufferBytes);
    }

    public static TheoryData<bool> Blocking => new() { false, true };

    [Theory, MemberData(nameof(Blocking))]
    public async Task ASmallAnswerLeavesTheBufferAtItsFirstSize(bool blocking)
    {
        await using var target = new ScriptedTcpTarget("HTTP/1.1 200 OK\r\nContent-Length: 4096\r\n\r\n" + new string('x', 4096));

        Assert.Equal((200, 4096L, LeanHttpConnection.InitialBufferBytes), await ExchangeAsync(target, blocking));
    }

    [Theory, MemberData(nameof(Blocking))]
    public async Task AHeaderLineLongerThanTheBufferGrowsIt(bool blocking)
    {
        var line = $"X-Long: {new string('h', 2 * LeanHttpConnection.InitialBufferBytes)}\r\n";
        await using var target = new ScriptedTcpTarget($"HTTP/1.1 200 OK\r\n{line}Content-Length: 3\r\n\r\nabc");

        Assert.Equal((200, 3L, LeanHttpConnection.LargestBufferBytes), await ExchangeAsync(target, blocking));
    }

    [Theory, MemberData(nameof(Blocking))]
    public async Task ALargeBodyIsReadInTheLargerPieces(bool blocking)
    {
        const int length = 4 * 1024 * 1024;
        // Sent whole, so reads find more waiting than the first buffer holds.
        await using var target = new ScriptedTcpTarget(_ => [ScriptStep.Send("HTTP/1.1 200 OK\r\nContent-Length: " + length + "\r\n\r\n"), ScriptStep.Send(new byte[length])]);

        Assert.Equal((200, (long)length, LeanHttpConnection.LargestBufferBytes), await ExchangeAsync(target, blocking));
    }

    [Theory, MemberData(nameof(Blocking))]
    public async Task AHeaderLineBeyondTheLimitIsAViolationNotAGrowthWithoutEnd(bool blocking)
    {
        var line = $"X-Long: {new string('h', ResponseParser.MaxHeaderBytes + 1)}\r\n";
        await using var target = new ScriptedTcpTarget($"HTTP/1.1 200 OK\r\n{line}Content-Length: 3\r\n\r\nabc");

        await Assert.ThrowsAsync<InvalidResponseException>(() => ExchangeAsync(target, blocking));
    }
}
