using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Runs;
using BenchDashboard.Processing;
using BenchDashboard.Runner.Http;
using BenchDashboard.TestSupport;
using static BenchDashboard.Runner.Tests.Http.HttpEngines;

namespace BenchDashboard.Runner.Tests.Http;

/// <summary>
/// A malformed answer or one cut short is one classified error sample with either engine: a protocol violation is
/// <see cref="ErrorKind.Other"/>, a connection that ended mid-answer <see cref="ErrorKind.ConnectionReset"/>. The run
/// goes on, and the next request gets its answer on a new connection (the broken one is never reused).
/// </summary>
public sealed class HttpEngineFaultTests
{
    const string Ok = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello";

    /// <summary>The first request on a connection is answered well, the second with the fault, and the rest well on a new connection.</summary>
    static async Task SecondAnswerIsAsync(HttpEngine engine, bool blocking, IEnumerable<ScriptStep> fault, int? status, ErrorKind error, int timeoutMs = 2_000)
    {
        await using var target = new ScriptedTcpTarget(r => r.Index == 1 ? fault : [ScriptStep.Send(Ok)]);

        var samples = await RunAsync(engine, blocking, new HttpParameters { Url = target.Url().ToString(), Requests = 4, TimeoutMs = timeoutMs });

        Assert.Equal(
            ["#0 status 200, 5 bytes, None", $"#1 status {status?.ToString() ?? "none"}, 0 bytes, {error}", "#2 status 200, 5 bytes, None", "#3 status 200, 5 bytes, None"],
            samples.Select(Outcome));
        // No request was sent twice: something of an answer had arrived, so it may not be retried.
        Assert.Equal([(0, 0), (0, 1), (1, 0), (1, 1)], target.Requests.Select(r => (r.Connection, r.IndexOnConnection)));
        Assert.Null(samples[1].ConnectNs);
        Assert.NotNull(samples[2].ConnectNs);
        Assert.Null(samples[3].ConnectNs);
    }

    [Theory, MemberData(nameof(All), MemberType = typeof(HttpEngines))]
    public Task AStatusLineThatIsNotHttpIsAProtocolError(HttpEngine engine, bool blocking) =>
        SecondAnswerIsAsync(engine, blocking, [ScriptStep.Send("HTTP/1.1 2OO OK\r\nContent-Length: 5\r\n\r\nhello")], null, ErrorKind.Other);

    [Theory, MemberData(nameof(All), MemberType = typeof(HttpEngines))]
    public Task AHeaderLineWithoutAColonIsAProtocolError(HttpEngine engine, bool blocking) =>
        SecondAnswerIsAsync(engine, blocking, [ScriptStep.Send("HTTP/1.1 200 OK\r\nX-Broken header line\r\nContent-Length: 5\r\n\r\nhello")], null, ErrorKind.Other);

    [Theory, MemberData(nameof(All), MemberType = typeof(HttpEngines))]
    public Task ANonNumericContentLengthIsAProtocolError(HttpEngine engine, bool blocking) =>
        // RFC 9112 §6.3: an invalid Content-Length makes the framing unknowable; the answer must be discarded.
        SecondAnswerIsAsync(engine, blocking, [ScriptStep.Send("HTTP/1.1 200 OK\r\nContent-Length: 5x\r\n\r\nhello")], null, ErrorKind.Other);

    [Theory, MemberData(nameof(All), MemberType = typeof(HttpEngines))]
    public Task AChunkSizeThatIsNotHexadecimalIsAProtocolError(HttpEngine engine, bool blocking) =>
        SecondAnswerIsAsync(engine, blocking,
            [ScriptStep.Send("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n")], 200, ErrorKind.Other);

    [Theory, MemberData(nameof(All), MemberType = typeof(HttpEngines))]
    public Task AConnectionClosedMidHeadersIsAReset(HttpEngine engine, bool blocking) =>
        SecondAnswerIsAsync(engine, blocking, [ScriptStep.Send("HTTP/1.1 200 OK\r\nContent-Le"), ScriptStep.Close], null, ErrorKind.ConnectionReset);

    [Theory, MemberData(nameof(All), MemberType = typeof(HttpEngines))]
    public Task AConnectionClosedMidBodyIsAReset(HttpEngine engine, bool blocking) =>
        SecondAnswerIsAsync(engine, blocking,
            [ScriptStep.Send("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n"), ScriptStep.Pause(5), ScriptStep.Send(new string('x', 40)), ScriptStep.Close],
            200, ErrorKind.ConnectionReset);

    [Theory, MemberData(nameof(All), MemberType = typeof(HttpEngines))]
    public Task AConnectionClosedMidChunkIsAReset(HttpEngine engine, bool blocking) =>
        SecondAnswerIsAsync(engine, blocking,
            [ScriptStep.Send("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"), ScriptStep.Pause(5), ScriptStep.Send("a\r\nhel"), ScriptStep.Close],
            200, ErrorKind.ConnectionReset);

    [Theory, MemberData(nameof(All), MemberType = typeof(HttpEngines))]
    public Task AConnectionResetMidBodyIsAReset(HttpEngine engine, bool blocking) =>
        SecondAnswerIsAsync(engine, blocking,
            [ScriptStep.Send("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n"), ScriptStep.Pause(5), ScriptStep.Send(new string('x', 40)), ScriptStep.Pause(5), ScriptStep.Reset],
            200, ErrorKind.ConnectionReset);

    [Theory, MemberData(nameof(All), MemberType = typeof(HttpEngines))]
    public Task HeadersThatStallPastTheTimeoutAreATimeout(HttpEngine engine, bool blocking) =>
        SecondAnswerIsAsync(engine, blocking, [ScriptStep.Send("HTTP/1.1 200 OK\r\nContent-"), ScriptStep.Pause(3_000), ScriptStep.Send("Length: 5\r\n\r\nhello")],
            null, ErrorKind.Timeout, timeoutMs: 500);

    [Theory, MemberData(nameof(All), MemberType = typeof(HttpEngines))]
    public Task AChunkedBodyThatStallsPastTheTimeoutIsATimeoutWithItsStatus(HttpEngine engine, bool blocking) =>
        SecondAnswerIsAsync(engine, blocking,
            [ScriptStep.Send("HTTP/1.1 503 Busy\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\r\n"), ScriptStep.Pause(3_000), ScriptStep.Send("0\r\n\r\n")],
            503, ErrorKind.Timeout, timeoutMs: 500);
}
