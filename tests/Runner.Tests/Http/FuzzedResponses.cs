using System.Text;
using BenchDashboard.TestSupport;

namespace BenchDashboard.Runner.Tests.Http;

/// <summary>
/// Answers for a fuzzed target: a valid HTTP/1.1 response (Content-Length, chunked with random chunk sizes,
/// interim answers, close-delimited HTTP/1.0), often mutated (flipped bytes, truncated, random header lines,
/// chunk sizes that lie) or replaced by random bytes, sent in random pieces. Each request's answer depends only on
/// the seed and the request's number, so a seed reproduces a failure (exactly so on one connection).
/// </summary>
static class FuzzedResponses
{
    /// <summary>A valid answer and what it must read as.</summary>
    public sealed record Valid(byte[] Bytes, int Status, int BodyBytes, bool DelimitedByClose);

    /// <summary>One answer: valid (with what it reads as) or mutated (Intact null), the same for the same random state.</summary>
    public static (byte[] Bytes, Valid? Intact) Answer(Random random)
    {
        var valid = NewValid(random);
        var answer = valid.Bytes;
        var mutated = random.Next(6) switch
        {
            0 => null,
            1 => Flipped(random, answer),
            2 => answer[..random.Next(1, answer.Length)],
            3 => WithRandomHeaderLines(random, answer),
            4 => WithLyingChunkSizes(random),
            _ => RandomBytes(random, random.Next(1, 600)),
        };
        return mutated is null ? (answer, valid) : (mutated, null);
    }

    public static IEnumerable<ScriptStep> For(int seed, ScriptedRequest request)
    {
        var random = new Random(HashCode.Combine(seed, request.Index));
        var (answer, intact) = Answer(random);
        var steps = Pieces(random, answer).ToList();
        // Anything but an intact answer ends its connection, so the client is never left waiting for bytes that
        // cannot come: a timeout in a fuzzed run is the client's fault.
        if (intact is not { DelimitedByClose: false } || random.Next(8) == 0) steps.Add(random.Next(3) == 0 ? ScriptStep.Reset : ScriptStep.Close);
        return steps;
    }

    static Valid NewValid(Random random)
    {
        var body = RandomText(random, random.Next(0, 3000));
        var interim = random.Next(4) == 0 ? "HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n" : "";
        var status = new[] { "200 OK", "201 Created", "204 No Content", "404 Not Found", "429 Too Many Requests", "500 Internal Server Error" }[random.Next(6)];
        var code = int.Parse(status[..3]);
        if (code == 204) return new(Latin1($"{interim}HTTP/1.1 {status}\r\n\r\n"), code, 0, false);
        return random.Next(4) switch
        {
            0 => new(Latin1($"{interim}HTTP/1.1 {status}\r\nTransfer-Encoding: chunked\r\n\r\n{Chunked(random, body)}"), code, body.Length, false),
            1 => new(Latin1($"HTTP/1.0 {status}\r\nContent-Type: text/plain\r\n\r\n{body}"), code, body.Length, true),
            _ => new(Latin1($"{interim}HTTP/1.1 {status}\r\nContent-Length: {body.Length}\r\nX-Seq: {random.Next()}\r\n\r\n{body}"), code, body.Length, false),
        };
    }

    static string Chunked(Random random, string body)
    {
        var text = new StringBuilder();
        for (var at = 0; at < body.Length;)
        {
            var size = Math.Min(body.Length - at, random.Next(1, 700));
            text.Append($"{size:x}{(random.Next(5) == 0 ? ";ext=1" : "")}\r\n{body.Substring(at, size)}\r\n");
            at += size;
        }
        return text.Append(random.Next(3) == 0 ? "0\r\nX-Trailer: t\r\n\r\n" : "0\r\n\r\n").ToString();
    }

    static byte[] Flipped(Random random, byte[] answer)
    {
        var copy = (byte[])answer.Clone();
        for (var i = random.Next(1, 6); i > 0; i--) copy[random.Next(copy.Length)] ^= (byte)(1 << random.Next(8));
        return copy;
    }

    static byte[] WithRandomHeaderLines(Random random, byte[] answer)
    {
        var lineEnd = Array.IndexOf(answer, (byte)'\n') + 1;
        var lines = new List<byte>();
        for (var i = random.Next(1, 4); i > 0; i--)
            lines.AddRange(random.Next(3) switch
            {
                0 => Latin1($"X-{RandomText(random, random.Next(1, 20))}: {RandomText(random, random.Next(0, 200))}\r\n"),
                1 => [.. RandomBytes(random, random.Next(1, 80)), (byte)'\r', (byte)'\n'],
                _ => Latin1(new[] { "Content-Length: 7\r\n", "Content-Length: -1\r\n", "Transfer-Encoding: chunked\r\n", "Connection: close\r\n", "Content-Length: 99999999999999999999\r\n" }[random.Next(5)]),
            });
        return [.. answer[..lineEnd], .. lines, .. answer[lineEnd..]];
    }

    static byte[] WithLyingChunkSizes(Random random)
    {
        var text = new StringBuilder("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
        for (var i = random.Next(1, 5); i > 0; i--)
            text.Append($"{random.Next(0, 5000):x}\r\n{RandomText(random, random.Next(0, 2000))}\r\n");
        return Latin1(text.ToString());
    }

    /// <summary>Where to cut an answer into 1 to 6 pieces.</summary>
    public static List<int> Cuts(Random random, int length) =>
        Enumerable.Range(0, random.Next(0, 6)).Select(_ => random.Next(length)).Append(0).Append(length).Distinct().Order().ToList();

    /// <summary>The answer in 1 to 6 sends, now and then a millisecond apart, so reads end at random places.</summary>
    static IEnumerable<ScriptStep> Pieces(Random random, byte[] answer)
    {
        var cuts = Cuts(random, answer.Length);
        for (var i = 0; i + 1 < cuts.Count; i++)
        {
            yield return ScriptStep.Send(answer[cuts[i]..cuts[i + 1]]);
            if (random.Next(4) == 0) yield return ScriptStep.Pause(1);
        }
    }

    static string RandomText(Random random, int length) =>
        string.Create(length, random, (span, r) => { for (var i = 0; i < span.Length; i++) span[i] = (char)r.Next('!', '~' + 1); });

    static byte[] RandomBytes(Random random, int length)
    {
        var bytes = new byte[length];
        random.NextBytes(bytes);
        return bytes;
    }

    static byte[] Latin1(string text) => Encoding.Latin1.GetBytes(text);
}
