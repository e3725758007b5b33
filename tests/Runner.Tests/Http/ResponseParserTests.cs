using System.Text;
using BenchDashboard.Core.Runs;
using BenchDashboard.Runner.Http.Lean;

namespace BenchDashboard.Runner.Tests.Http;

/// <summary>The lean engine's parser on its own: the same answer whatever pieces it arrives in, and every violation named.</summary>
public sealed class ResponseParserTests
{
    /// <summary>Feeds <paramref name="response"/> as a connection would, <paramref name="piece"/> bytes per receive, keeping what the parser left.</summary>
    static (ResponseParser Parser, int Taken) Read(byte[] response, int piece, bool head = false, bool close = false, CachingEvidence? evidence = null)
    {
        var parser = new ResponseParser(evidence);
        parser.Reset(head);
        var pending = new List<byte>();
        var offered = 0;
        var taken = 0;
        while (!parser.Complete && offered < response.Length)
        {
            var n = Math.Min(piece, response.Length - offered);
            pending.AddRange(response.AsSpan(offered, n).ToArray());
            offered += n;
            var took = parser.Feed(pending.ToArray());
            pending.RemoveRange(0, took);
            taken += took;
        }
        if (!parser.Complete && close) parser.EndOfStream();
        return (parser, taken);
    }

    static byte[] Bytes(string text) => Encoding.Latin1.GetBytes(text);

    public static TheoryData<string, int, long, bool> Answers => new()
    {
        { "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", 200, 5, true },
        { "HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n", 404, 0, true },
        { "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\nA\r\n0123456789\r\n0\r\nX-Trailer: t\r\n\r\n", 200, 15, true },
        { "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok", 201, 2, true },
        { "HTTP/1.1 204 No Content\r\n\r\n", 204, 0, true },
        { "HTTP/1.1 304 Not Modified\r\nContent-Length: 99\r\n\r\n", 304, 0, true },
        { "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc", 200, 3, false },
        { "HTTP/1.0 200 OK\r\nContent-Length: 3\r\n\r\nabc", 200, 3, false },
        { "HTTP/1.0 200 OK\r\nContent-Length: 3\r\nConnection: Keep-Alive\r\n\r\nabc", 200, 3, true },
        { "HTTP/1.1 200\nContent-Length: 1\n\nx", 200, 1, true },
    };

    [Theory, MemberData(nameof(Answers))]
    public void EveryWayOfCuttingAnAnswerReadsTheSame(string response, int status, long bytes, bool keepAlive)
    {
        var raw = Bytes(response);
        for (var piece = 1; piece <= raw.Length; piece++)
        {
            var (parser, taken) = Read([.. raw, .. "HTTP/1.1 500 next"u8], piece);
            Assert.True(parser.Complete, $"piece {piece}");
            Assert.Equal((status, bytes, keepAlive), (parser.StatusCode, parser.BodyBytes, parser.KeepAlive));
            Assert.Equal(raw.Length, taken); // never a byte of what follows
        }
    }

    [Fact]
    public void ABodyWithoutALengthEndsWithTheConnection()
    {
        var (parser, _) = Read(Bytes("HTTP/1.1 200 OK\r\n\r\n0123456789"), 4, close: true);

        Assert.True(parser.Complete);
        Assert.Equal(10, parser.BodyBytes);
        Assert.False(parser.KeepAlive);
    }

    [Fact]
    public void TheAnswerToHeadHasNoBodyWhateverItsLength()
    {
        var head = Bytes("HTTP/1.1 200 OK\r\nContent-Length: 4096\r\n\r\n");
        var (parser, taken) = Read([.. head, .. "body"u8], 7, head: true);

        Assert.True(parser.Complete);
        Assert.Equal(0, parser.BodyBytes);
        Assert.True(parser.KeepAlive);
        Assert.Equal(head.Length, taken);
    }

    [Theory]
    [InlineData("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc", true, true)]
    [InlineData("HTTP/1.1 200 OK\r\nContent-Le", false, true)]
    [InlineData("", false, false)]
    public void AnAnswerCutShortByTheCloseIsAnEndedResponse(string response, bool headers, bool started)
    {
        var ended = Assert.Throws<ResponseEndedException>(() => Read(Bytes(response), 3, close: true));

        Assert.Equal(started, ended.Started);
        var (parser, _) = Read(Bytes(response), 3);
        Assert.Equal(headers, parser.HeadersDone);
    }

    [Theory]
    [InlineData("HTTP/2 200 OK\r\n\r\n")]
    [InlineData("HTTP/1.1 2000 OK\r\n\r\n")]
    [InlineData("HTTP/1.1 20x OK\r\n\r\n")]
    [InlineData("ICY 200 OK\r\n\r\n")]
    [InlineData("HTTP/1.1 101 Switching Protocols\r\n\r\n")]
    [InlineData("HTTP/1.1 200 OK\r\nno colon here\r\n\r\n")]
    [InlineData("HTTP/1.1 200 OK\r\n folded: value\r\n\r\n")]
    [InlineData("HTTP/1.1 200 OK\r\nContent-Length: ten\r\n\r\n")]
    [InlineData("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab")]
    [InlineData("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")]
    [InlineData("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabX\r\n")]
    public void AViolationIsAnInvalidResponse(string response)
    {
        Assert.Throws<InvalidResponseException>(() => Read(Bytes(response), 5));
    }

    [Fact]
    public void HeadersPastTheLimitAreAnInvalidResponseNotAnEndlessRead()
    {
        var huge = "HTTP/1.1 200 OK\r\n" + string.Concat(Enumerable.Repeat("X-Filler: " + new string('a', 1000) + "\r\n", 70));

        Assert.Throws<InvalidResponseException>(() => Read(Bytes(huge), 4096));
    }

    [Fact]
    public void CachingHeadersAreCountedOnlyForTheFinalAnswer()
    {
        var evidence = new CachingEvidence();

        Read(Bytes("HTTP/1.1 103 Early Hints\r\nETag: \"early\"\r\n\r\nHTTP/1.1 200 OK\r\netag: \"v1\"\r\nX-Cache: HIT\r\nContent-Length: 0\r\n\r\n"), 9, evidence: evidence);

        Assert.Equal(1, evidence.Headers["ETag"]["\"v1\""]);
        Assert.False(evidence.Headers["ETag"].ContainsKey("\"early\""));
        Assert.Equal(1, evidence.Headers["X-Cache"]["HIT"]);
    }
}
