using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Security;
using BenchDashboard.Runner.Http.Lean;
using BenchDashboard.TestSupport;

namespace BenchDashboard.Runner.Tests.Http;

/// <summary>
/// A lean connection's receive buffer: small while answers are small (many connections must not each hold the
/// largest), and grown only when a header line or a large body needs it.
/// </summary>
public sealed class LeanChannelTests
{
    static readonly TargetPolicy Loopback = new(new TargetOptions { AllowLoopback = true }, isDevelopment: false, siteHostName: null);

    static async Task<(int Status, long Bytes, int BufferBytes)> ExchangeAsync(ScriptedTcpTarget target, bool blocking)
    {
        var request = new LeanRequest(new HttpParameters { Url = target.Url().ToString(), Requests = 1 });
        using var channel = new LeanChannel(Loopback, blocking);
        var parser = new ResponseParser();
        parser.Reset(headRequest: false);
        using var bound = new CancellationTokenSource(TimeSpan.FromSeconds(60));
        if (blocking)
        {
            channel.Connect(request, bound.Token);
            channel.Exchange(request, parser, bound.Token);
        }
        else
        {
            await channel.ConnectAsync(request, bound.Token);
            await channel.ExchangeAsync(request, parser, bound.Token);
        }
        return (parser.StatusCode, parser.BodyBytes, channel.BufferBytes);
    }

    public static TheoryData<bool> Blocking => new() { false, true };

    [Theory, MemberData(nameof(Blocking))]
    public async Task ASmallAnswerLeavesTheBufferAtItsFirstSize(bool blocking)
    {
        await using var target = new ScriptedTcpTarget("HTTP/1.1 200 OK\r\nContent-Length: 4096\r\n\r\n" + new string('x', 4096));

        Assert.Equal((200, 4096L, LeanChannel.InitialBufferBytes), await ExchangeAsync(target, blocking));
    }

    [Theory, MemberData(nameof(Blocking))]
    public async Task AHeaderLineLongerThanTheBufferGrowsIt(bool blocking)
    {
        var line = $"X-Long: {new string('h', 2 * LeanChannel.InitialBufferBytes)}\r\n";
        await using var target = new ScriptedTcpTarget($"HTTP/1.1 200 OK\r\n{line}Content-Length: 3\r\n\r\nabc");

        Assert.Equal((200, 3L, LeanChannel.LargestBufferBytes), await ExchangeAsync(target, blocking));
    }

    [Theory, MemberData(nameof(Blocking))]
    public async Task ALargeBodyIsReadInTheLargerPieces(bool blocking)
    {
        const int length = 4 * 1024 * 1024;
        // Sent whole, so reads find more waiting than the first buffer holds.
        await using var target = new ScriptedTcpTarget(_ => [ScriptStep.Send("HTTP/1.1 200 OK\r\nContent-Length: " + length + "\r\n\r\n"), ScriptStep.Send(new byte[length])]);

        Assert.Equal((200, (long)length, LeanChannel.LargestBufferBytes), await ExchangeAsync(target, blocking));
    }

    [Theory, MemberData(nameof(Blocking))]
    public async Task AHeaderLineBeyondTheLimitIsAViolationNotAGrowthWithoutEnd(bool blocking)
    {
        var line = $"X-Long: {new string('h', ResponseParser.MaxHeaderBytes + 1)}\r\n";
        await using var target = new ScriptedTcpTarget($"HTTP/1.1 200 OK\r\n{line}Content-Length: 3\r\n\r\nabc");

        await Assert.ThrowsAsync<InvalidResponseException>(() => ExchangeAsync(target, blocking));
    }
}
