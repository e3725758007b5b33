using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Runs;
using BenchDashboard.Processing;
using BenchDashboard.Runner.Http;
using BenchDashboard.Runner.Tests.Execution;
using BenchDashboard.TestSupport;
using static BenchDashboard.Runner.Tests.Http.HttpEngines;

namespace BenchDashboard.Runner.Tests.Http;

/// <summary>What each engine puts on the wire is the same request in substance, and a run says which engine measured it.</summary>
public sealed class HttpEngineRequestTests
{
    const string Ok = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";

    /// <summary>The request line, each header (name in lower case, sorted) and the body, as the target read them.</summary>
    static string Substance(ScriptedRequest r) =>
        string.Join("\n", [r.RequestLine, .. r.Headers.Select(h => $"{h.Name.ToLowerInvariant()}: {h.Value}").Order(StringComparer.Ordinal), $"body: {System.Text.Encoding.UTF8.GetString(r.Body)}"]);

    static async Task<List<string>> SentAsync(HttpEngine engine, bool blocking, HttpParameters parameters)
    {
        await using var target = new ScriptedTcpTarget(_ => [ScriptStep.Send(Ok)]);
        var samples = await RunAsync(engine, blocking, parameters with { Url = parameters.Url.Replace("{port}", target.Port.ToString()), Requests = 2 });
        Assert.All(samples, s => Assert.Equal((200, ErrorKind.None), (s.StatusCode, s.Error)));
        return target.Requests.Select(Substance).ToList();
    }

    static readonly HttpParameters Post = new()
    {
        Url = "http://127.0.0.1:{port}/orders?source=bench&x=%20y", Method = "POST", Body = "{\"item\":\"café\"}", KeepAlive = false,
        Headers = new() { ["Content-Type"] = "application/json", ["X-Trace"] = "abc-123", ["Accept"] = "*/*" },
    };

    [Theory, MemberData(nameof(All), MemberType = typeof(HttpEngines))]
    public async Task APostSendsHostWithPortItsHeadersItsBodyAndConnectionClose(HttpEngine engine, bool blocking)
    {
        // As servers do (RFC 9112 §9.6), it answers a request that asked for close with "Connection: close" and closes.
        await using var target = new ScriptedTcpTarget(r => r.Header("Connection") == "close"
            ? [ScriptStep.Send(Ok.Replace("\r\n\r\n", "\r\nConnection: close\r\n\r\n")), ScriptStep.Close]
            : [ScriptStep.Send(Ok)]);

        var samples = await RunAsync(engine, blocking, Post with { Url = target.Url("/orders?source=bench&x=%20y").ToString(), Requests = 2 });

        Assert.Equal(["#0 status 200, 2 bytes, None", "#1 status 200, 2 bytes, None"], samples.Select(Outcome));
        Assert.Equal([(0, 0), (1, 0)], target.Requests.Select(r => (r.Connection, r.IndexOnConnection)));
        Assert.Equal(0, target.SentAfterEnd);
        Assert.All(target.Requests, r =>
        {
            Assert.Equal("POST /orders?source=bench&x=%20y HTTP/1.1", r.RequestLine);
            Assert.Equal($"127.0.0.1:{target.Port}", r.Header("Host"));
            Assert.Equal("application/json", r.Header("Content-Type"));
            Assert.Equal("abc-123", r.Header("X-Trace"));
            Assert.Equal("*/*", r.Header("Accept"));
            Assert.Equal("16", r.Header("Content-Length")); // UTF-8 bytes, not characters: é is two
            Assert.Equal("close", r.Header("Connection"));
            Assert.Equal("{\"item\":\"café\"}", System.Text.Encoding.UTF8.GetString(r.Body));
        });
    }

    [Theory]
    [InlineData(HttpEngine.Auto, false)]
    [InlineData(HttpEngine.Auto, true)]
    public async Task AConnectionOnWhichCloseWasAskedIsNeverReusedThoughTheServerKeepsIt(HttpEngine engine, bool blocking)
    {
        // RFC 9112 §9.6: a client that sent "close" must not send further requests on that connection. Not asserted
        // for SocketsHttpHandler: it sends the next request on the connection unless the answer said close too (.NET
        // 10, seen here); when the server closes without saying so, a POST sent before its FIN arrived is then a reset.
        await using var target = new ScriptedTcpTarget(_ => [ScriptStep.Send(Ok)]);

        var samples = await RunAsync(engine, blocking, new HttpParameters { Url = target.Url().ToString(), Requests = 3, KeepAlive = false });

        Assert.Equal(["#0 status 200, 2 bytes, None", "#1 status 200, 2 bytes, None", "#2 status 200, 2 bytes, None"], samples.Select(Outcome));
        Assert.Equal(3, target.Connections);
        Assert.All(samples, s => Assert.NotNull(s.ConnectNs));
    }

    [Fact]
    public async Task BothEnginesSendTheSameRequests()
    {
        HttpParameters[] cases =
        [
            Post,
            new() { Url = "http://127.0.0.1:{port}/", Headers = new() { ["X-Api-Key"] = "k", ["Cache-Control"] = "no-cache" } },
            new() { Url = "http://127.0.0.1:{port}/head", Method = "HEAD" },
            new() { Url = "http://127.0.0.1:{port}/put", Method = "PUT", Body = "" },
            new() { Url = "http://127.0.0.1:{port}/delete", Method = "DELETE" },
        ];
        foreach (var parameters in cases)
            foreach (var blocking in new[] { false, true })
            {
                var lean = await SentAsync(HttpEngine.Auto, blocking, parameters);
                var sockets = await SentAsync(HttpEngine.Sockets, blocking, parameters);
                // The port differs from one target to the next; everything else must not.
                Assert.Equal(Normalized(sockets), Normalized(lean));
            }

        static List<string> Normalized(List<string> requests) =>
            requests.Select(r => System.Text.RegularExpressions.Regex.Replace(r, @"127\.0\.0\.1:\d+", "127.0.0.1:PORT")).ToList();
    }

    [Theory, MemberData(nameof(All), MemberType = typeof(HttpEngines))]
    public async Task VariantsTakeTurnsOnOneConnectionEachWithItsOwnRequest(HttpEngine engine, bool blocking)
    {
        // Each variant's answer differs in length, so a sample read as another variant's answer would show.
        await using var target = new ScriptedTcpTarget(r => [ScriptStep.Send(r.RequestLine.StartsWith("POST") ? "HTTP/1.1 201 Created\r\nContent-Length: 3\r\n\r\nnew" : Ok)]);

        var samples = await RunAsync(engine, blocking, new HttpParameters
        {
            Url = target.Url("/a").ToString(), Requests = 3,
            Variants = [new HttpVariant { Name = "get" }, new HttpVariant { Name = "post", Url = target.Url("/b?x=1").ToString(), Method = "POST", Body = "abc" }],
        });

        Assert.Equal(TurnOrder.Of(["get 200 2", "post 201 3"], Enumerable.Range(0, 3)), samples.Select(s => $"{s.Series} {s.StatusCode} {s.Bytes}"));
        Assert.Equal(1, target.Connections);
        Assert.Equal(TurnOrder.Of(["GET /a HTTP/1.1 ", "POST /b?x=1 HTTP/1.1 abc"], Enumerable.Range(0, 3)),
            target.Requests.Select(r => $"{r.RequestLine} {System.Text.Encoding.UTF8.GetString(r.Body)}"));
    }

    [Theory]
    [InlineData(HttpEngine.Auto, "Engine: lean HTTP/1.1")]
    [InlineData(HttpEngine.Sockets, "Engine: SocketsHttpHandler")]
    public async Task TheRunSaysWhichEngineMeasured(HttpEngine engine, string note)
    {
        await using var target = new ScriptedTcpTarget(Ok);

        var (samples, _, notes) = await HttpRun.ExecuteWithNotesAsync(new HttpParameters { Url = target.Url().ToString(), Requests = 3 }, engine: engine);

        Assert.Equal(3, samples.Count);
        Assert.Single(notes.Notes, n => n.StartsWith("Engine: ", StringComparison.Ordinal));
        Assert.Contains(notes.Notes, n => n.StartsWith(note, StringComparison.Ordinal));
    }

    [Theory]
    [InlineData(HttpEngine.Auto, 0, "lean HTTP/1.1", "asynchronous")]
    [InlineData(HttpEngine.Auto, 1, "lean HTTP/1.1", "blocking")]
    [InlineData(HttpEngine.Sockets, 0, "SocketsHttpHandler", "asynchronous")]
    [InlineData(HttpEngine.Sockets, 1, "SocketsHttpHandler", "blocking")]
    public async Task TheEngineAndItsSendsAreFieldsOfTheRunsEnvironment(HttpEngine engine, int blockingUpTo, string name, string sends)
    {
        await using var target = new ScriptedTcpTarget(Ok);

        var (samples, _, context) = await HttpRun.ExecuteWithContextAsync(new HttpParameters { Url = target.Url().ToString(), Requests = 3 }, default, blockingUpTo, engine);

        Assert.Equal(3, samples.Count);
        Assert.Equal(new SortedDictionary<string, string> { ["httpEngine"] = name, ["httpSends"] = sends }, context.Client());
    }

    [Theory]
    [InlineData(4, LoadModel.Closed, "asynchronous, answers read before sends")]
    [InlineData(1, LoadModel.Closed, "asynchronous")]
    [InlineData(4, LoadModel.Open, "asynchronous")]
    public async Task SeveralClosedModelConnectionsReadWhatArrivedTogetherBeforeSendingAgain(int concurrency, LoadModel model, string sends)
    {
        await using var target = new ScriptedTcpTarget(Ok);
        var parameters = new HttpParameters { Url = target.Url().ToString(), Requests = 40, Concurrency = concurrency, Model = model, Rate = model == LoadModel.Open ? 400 : null };

        var (samples, _, context) = await HttpRun.ExecuteWithContextAsync(parameters, default, 0, HttpEngine.Auto);

        Assert.Equal(40, samples.Count);
        Assert.All(samples, s => Assert.Equal(ErrorKind.None, s.Error));
        Assert.Equal(Enumerable.Range(0, 40), samples.Select(s => s.Index).Order());
        Assert.Equal(sends, context.Client()!["httpSends"]);
    }

    [Fact]
    public async Task ARequestTheLeanEngineDoesNotSpeakFallsBackAndSaysSo()
    {
        await using var target = new ScriptedTcpTarget(Ok);

        // A Connection header set by the user is framing the lean engine leaves to SocketsHttpHandler.
        var (samples, _, notes) = await HttpRun.ExecuteWithNotesAsync(
            new HttpParameters { Url = target.Url().ToString(), Requests = 3, Headers = new() { ["Connection"] = "keep-alive" } }, engine: HttpEngine.Auto);

        Assert.Equal(3, samples.Count);
        Assert.Contains(notes.Notes, n => n.StartsWith("Engine: SocketsHttpHandler", StringComparison.Ordinal));
        Assert.DoesNotContain(notes.Notes, n => n.StartsWith("Engine: lean", StringComparison.Ordinal));
    }
}
