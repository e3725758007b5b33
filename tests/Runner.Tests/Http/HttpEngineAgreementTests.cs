using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Runs;
using BenchDashboard.Processing;
using BenchDashboard.Runner.Http;
using BenchDashboard.TestSupport;
using static BenchDashboard.Runner.Tests.Http.HttpEngines;

namespace BenchDashboard.Runner.Tests.Http;

/// <summary>
/// Both engines read every framing HTTP/1.1 allows to the same status, body length and connection use, against a
/// raw server that sends exactly the bytes each case needs. Faults and malformed answers: <see cref="HttpEngineFaultTests"/>.
/// </summary>
public sealed class HttpEngineAgreementTests
{
    const int Requests = 4;

    static string Ok(string body, string headers = "") => $"HTTP/1.1 200 OK\r\nContent-Length: {body.Length}\r\n{headers}\r\n{body}";

    static HttpParameters Get(ScriptedTcpTarget target, int requests = Requests) =>
        new() { Url = target.Url("/item?id=7").ToString(), Requests = requests, TimeoutMs = 5_000 };

    /// <summary>Every sample got this status, body length and error kind, one sample per request the target read.</summary>
    static void AllAnswered(List<Sample> samples, ScriptedTcpTarget target, int status, long bytes, ErrorKind error = ErrorKind.None, int requests = Requests)
    {
        Assert.Equal(
            Enumerable.Range(0, requests).Select(i => $"#{i} status {status}, {bytes} bytes, {error}"),
            samples.Select(Outcome));
        Assert.Equal(requests, target.Requests.Count);
    }

    /// <summary>All requests went on one connection: only the first sample paid a connect.</summary>
    static void OneConnection(List<Sample> samples, ScriptedTcpTarget target)
    {
        Assert.Equal(1, target.Connections);
        Assert.NotNull(samples[0].ConnectNs);
        Assert.All(samples.Skip(1), s => Assert.Null(s.ConnectNs));
    }

    /// <summary>Each request opened a connection of its own and says so.</summary>
    static void ConnectionPerRequest(List<Sample> samples, ScriptedTcpTarget target)
    {
        Assert.Equal(samples.Count, target.Connections);
        Assert.All(samples, s => Assert.NotNull(s.ConnectNs));
        Assert.All(target.Requests, r => Assert.Equal(0, r.IndexOnConnection));
    }

    [Theory, MemberData(nameof(All), MemberType = typeof(HttpEngines))]
    public async Task AContentLengthBodyIsCountedAndTheConnectionKept(HttpEngine engine, bool blocking)
    {
        await using var target = new ScriptedTcpTarget(Ok(new string('x', 1234), "Content-Type: text/plain\r\n"));

        var samples = await RunAsync(engine, blocking, Get(target));

        AllAnswered(samples, target, 200, 1234);
        OneConnection(samples, target);
        Assert.All(samples, s => Assert.NotNull(s.HeadersNs));
    }

    [Theory, MemberData(nameof(All), MemberType = typeof(HttpEngines))]
    public async Task AChunkedBodyCountsItsDataWithoutFramingExtensionsOrTrailers(HttpEngine engine, bool blocking)
    {
        // 5 + 26 + 1000 bytes of data in three chunks, one with an extension, then two trailer fields.
        await using var target = new ScriptedTcpTarget(
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" +
            "5;name=\"value\"\r\nhello\r\n" +
            $"1a\r\n{new string('a', 26)}\r\n" +
            $"3E8\r\n{new string('b', 1000)}\r\n" +
            "0\r\nX-Checksum: 1234\r\nX-Other: yes\r\n\r\n");

        var samples = await RunAsync(engine, blocking, Get(target));

        AllAnswered(samples, target, 200, 1031);
        OneConnection(samples, target); // a trailer left unread would have broken the next answer
    }

    [Theory, MemberData(nameof(All), MemberType = typeof(HttpEngines))]
    public async Task AnAnswerArrivingOneByteAtATimeIsReadWhole(HttpEngine engine, bool blocking)
    {
        // Every line end is split between its CR and LF, and the chunk sizes from their data.
        var answer = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nX-A: b\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n";
        await using var target = new ScriptedTcpTarget(_ => ScriptStep.Trickle(answer, pauseMs: 1));

        var samples = await RunAsync(engine, blocking, Get(target, requests: 2));

        AllAnswered(samples, target, 200, 5, requests: 2);
        OneConnection(samples, target);
    }

    [Theory, MemberData(nameof(All), MemberType = typeof(HttpEngines))]
    public async Task A40KilobyteHeaderLineIsRead(HttpEngine engine, bool blocking)
    {
        // One line longer than the lean engine's first receive buffer: it grows to hold the line.
        var cookie = $"Set-Cookie: session={new string('c', 40_000)}\r\n";
        await using var target = new ScriptedTcpTarget(Ok("0123456789", cookie));

        var samples = await RunAsync(engine, blocking, Get(target));

        AllAnswered(samples, target, 200, 10);
        OneConnection(samples, target);
    }

    [Theory, MemberData(nameof(All), MemberType = typeof(HttpEngines))]
    public async Task A20KilobyteHeaderBlockIsRead(HttpEngine engine, bool blocking)
    {
        var headers = string.Concat(Enumerable.Range(0, 200).Select(i => $"X-Filler-{i:D3}: {new string((char)('a' + i % 26), 86)}\r\n"));
        Assert.InRange(headers.Length, 20_000, 21_000);
        await using var target = new ScriptedTcpTarget(Ok("0123456789", headers));

        var samples = await RunAsync(engine, blocking, Get(target));

        AllAnswered(samples, target, 200, 10);
        OneConnection(samples, target);
    }

    [Theory, MemberData(nameof(All), MemberType = typeof(HttpEngines))]
    public async Task ConnectionCloseOnEveryAnswerMakesEachRequestConnect(HttpEngine engine, bool blocking)
    {
        // Every other time the server closes only after a while: the client must not wait for that to reconnect.
        await using var target = new ScriptedTcpTarget(r => r.Index % 2 == 0
            ? [ScriptStep.Send(Ok("0123456789", "Connection: close\r\n")), ScriptStep.Close]
            : [ScriptStep.Send(Ok("0123456789", "Connection: close\r\n")), ScriptStep.Pause(2_000), ScriptStep.Close]);

        var samples = await RunAsync(engine, blocking, Get(target));

        AllAnswered(samples, target, 200, 10);
        ConnectionPerRequest(samples, target);
        Assert.Equal(0, target.SentAfterEnd); // nothing sent on a connection the answer said would close
    }

    [Theory, MemberData(nameof(All), MemberType = typeof(HttpEngines))]
    public async Task AnHttp10AnswerWithoutALengthIsReadUntilTheClose(HttpEngine engine, bool blocking)
    {
        await using var target = new ScriptedTcpTarget(_ =>
            [ScriptStep.Send("HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\n"), ScriptStep.Send(new string('z', 3000)), ScriptStep.Pause(5), ScriptStep.Send("tail"), ScriptStep.Close]);

        var samples = await RunAsync(engine, blocking, Get(target));

        AllAnswered(samples, target, 200, 3004);
        ConnectionPerRequest(samples, target);
    }

    [Theory]
    [InlineData(HttpEngine.Auto, false)]
    [InlineData(HttpEngine.Auto, true)]
    public async Task AnHttp10AnswerWithALengthIsTheLastOnItsConnection(HttpEngine engine, bool blocking)
    {
        // HTTP/1.0 without "Connection: keep-alive" is not persistent (RFC 9112 §9.3), though this server leaves the
        // connection open. Not asserted for SocketsHttpHandler: it sends the next request on it (.NET 10, seen here).
        await using var target = new ScriptedTcpTarget("HTTP/1.0 200 OK\r\nContent-Length: 5\r\n\r\nhello");

        var samples = await RunAsync(engine, blocking, Get(target));

        AllAnswered(samples, target, 200, 5);
        ConnectionPerRequest(samples, target);
    }

    [Theory, MemberData(nameof(All), MemberType = typeof(HttpEngines))]
    public async Task HeaderNamesAndCodingsAreReadInAnyCaseAndSpacing(HttpEngine engine, bool blocking)
    {
        string[] answers =
        [
            "HTTP/1.1 200\r\ncontent-length:   7  \r\n\r\nno-text",
            "HTTP/1.1 200 OK\r\nTRANSFER-ENCODING: Chunked\r\n\r\n7\r\nchunked\r\n0\r\n\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n7\r\n\x1f\x8b zip!\r\n0\r\n\r\n",
        ];
        await using var target = new ScriptedTcpTarget(r => [ScriptStep.Send(answers[r.Index % answers.Length])]);

        var samples = await RunAsync(engine, blocking, Get(target, requests: 3));

        AllAnswered(samples, target, 200, 7, requests: 3); // the coded body's bytes as sent: nothing is decompressed
        OneConnection(samples, target);
    }

    [Theory, MemberData(nameof(All), MemberType = typeof(HttpEngines))]
    public async Task AMegabyteBodyIsCountedToTheByte(HttpEngine engine, bool blocking)
    {
        const int size = 1_048_583; // not a multiple of any buffer's size
        await using var target = new ScriptedTcpTarget(Ok(new string('m', size)));

        var samples = await RunAsync(engine, blocking, Get(target, requests: 3));

        AllAnswered(samples, target, 200, size, requests: 3);
        OneConnection(samples, target);
    }

    [Theory, MemberData(nameof(All), MemberType = typeof(HttpEngines))]
    public async Task A100ContinueIsPassedOverForTheFinalStatus(HttpEngine engine, bool blocking)
    {
        await using var target = new ScriptedTcpTarget("HTTP/1.1 100 Continue\r\n\r\n" + Ok("hello"));

        var samples = await RunAsync(engine, blocking, Get(target));

        AllAnswered(samples, target, 200, 5);
        OneConnection(samples, target);
    }

    [Theory, MemberData(nameof(All), MemberType = typeof(HttpEngines))]
    public async Task EarlyHintsArePassedOverForTheFinalStatus(HttpEngine engine, bool blocking)
    {
        // Two interim answers, the first with headers the final answer's framing must not inherit.
        await using var target = new ScriptedTcpTarget(
            "HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload; as=style\r\nContent-Length: 999\r\n\r\n" +
            "HTTP/1.1 103 Early Hints\r\nLink: </app.js>; rel=preload; as=script\r\n\r\n" +
            "HTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\n\r\n4\r\ngone\r\n0\r\n\r\n");

        var samples = await RunAsync(engine, blocking, Get(target));

        AllAnswered(samples, target, 404, 4, ErrorKind.HttpStatus);
        OneConnection(samples, target);
    }

    [Theory, MemberData(nameof(All), MemberType = typeof(HttpEngines))]
    public async Task A204AndA304HaveNoBodyWhateverTheyAnnounce(HttpEngine engine, bool blocking)
    {
        // A 304 may carry the length of the representation it stands for; neither carries a body.
        await using var target = new ScriptedTcpTarget(r => [ScriptStep.Send(r.Index % 2 == 0
            ? "HTTP/1.1 204 No Content\r\nX-Request: done\r\n\r\n"
            : "HTTP/1.1 304 Not Modified\r\nETag: \"v1\"\r\nContent-Length: 5000\r\n\r\n")]);

        var samples = await RunAsync(engine, blocking, Get(target));

        Assert.Equal(["#0 status 204, 0 bytes, None", "#1 status 304, 0 bytes, None", "#2 status 204, 0 bytes, None", "#3 status 304, 0 bytes, None"],
            samples.Select(Outcome));
        OneConnection(samples, target);
    }

    [Theory, MemberData(nameof(All), MemberType = typeof(HttpEngines))]
    public async Task TheAnswerToAHeadRequestHasNoBodyThoughItAnnouncesALength(HttpEngine engine, bool blocking)
    {
        await using var target = new ScriptedTcpTarget("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n");

        var samples = await RunAsync(engine, blocking, Get(target) with { Method = "HEAD" });

        AllAnswered(samples, target, 200, 0);
        OneConnection(samples, target);
        Assert.All(target.Requests, r => Assert.StartsWith("HEAD /item?id=7 HTTP/1.1", r.RequestLine));
    }

    [Theory, MemberData(nameof(All), MemberType = typeof(HttpEngines))]
    public async Task ErrorStatusesKeepTheirBodyAndClass(HttpEngine engine, bool blocking)
    {
        string[] answers = [Ok("created", "").Replace("200 OK", "201 Created"), "HTTP/1.1 429 Too Many Requests\r\nRetry-After: 1\r\nContent-Length: 4\r\n\r\nslow",
            "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n", "HTTP/1.1 302 Found\r\nLocation: /elsewhere\r\nContent-Length: 3\r\n\r\nsee"];
        await using var target = new ScriptedTcpTarget(r => [ScriptStep.Send(answers[r.Index])]);

        var samples = await RunAsync(engine, blocking, Get(target));

        // A redirect is an answer, not followed: the runner measures the URL it was given.
        Assert.Equal(["#0 status 201, 7 bytes, None", "#1 status 429, 4 bytes, Throttled", "#2 status 503, 0 bytes, HttpStatus", "#3 status 302, 3 bytes, None"],
            samples.Select(Outcome));
        OneConnection(samples, target);
    }

    [Theory, MemberData(nameof(All), MemberType = typeof(HttpEngines))]
    public async Task AConnectionTheServerClosesAfterAnAnswerIsReplacedForTheNextRequest(HttpEngine engine, bool blocking)
    {
        // Keep-alive is not promised to last: the server may let a connection go right after an answer.
        await using var target = new ScriptedTcpTarget(_ => [ScriptStep.Send(Ok("0123456789")), ScriptStep.Close]);

        var samples = await RunAsync(engine, blocking, Get(target));

        AllAnswered(samples, target, 200, 10);
        ConnectionPerRequest(samples, target);
    }

    [Theory, MemberData(nameof(All), MemberType = typeof(HttpEngines))]
    public async Task ARequestSentOnAConnectionClosedUnansweredIsRetriedOnANewOne(HttpEngine engine, bool blocking)
    {
        // The close comes a moment after the answer, when the next request has already gone out on the
        // connection: the server closes it unanswered (as an idle timeout racing a request does), and nothing
        // of an answer arrived, so the request may be sent again on a new connection, as SocketsHttpHandler does.
        await using var target = new ScriptedTcpTarget(_ => [ScriptStep.Send(Ok("0123456789")), ScriptStep.Pause(50), ScriptStep.Close]);

        var samples = await RunAsync(engine, blocking, Get(target));

        AllAnswered(samples, target, 200, 10);
        ConnectionPerRequest(samples, target);
    }

    [Theory, MemberData(nameof(All), MemberType = typeof(HttpEngines))]
    public async Task BytesAfterAnAnswersEndAreNotTakenForTheNextAnswer(HttpEngine engine, bool blocking)
    {
        // Five bytes more than announced: a client must not read them as the start of the next answer.
        await using var target = new ScriptedTcpTarget(r => [ScriptStep.Send(r.IndexOnConnection == 0 ? Ok("hello") + "EXTRA" : Ok("second"))]);

        var samples = await RunAsync(engine, blocking, Get(target, requests: 3));

        AllAnswered(samples, target, 200, 5, requests: 3);
        ConnectionPerRequest(samples, target);
    }
}
