// The bare .NET client for issue 13's comparison: N connections sending GETs back to back through
// SocketsHttpHandler (one handler per connection, as the runner has), each reading the whole body, nothing
// measured or stored. Prints requests/s and the CPU this process used per request.
//   usage: dotnet run bench/bare-loop.cs -- URL CONNECTIONS SECONDS [async|threads]
//   async: one task per connection (await SendAsync); threads: one thread per connection (blocking Send).
using System.Diagnostics;
using System.Net;

var url = new Uri(args[0]);
var connections = int.Parse(args[1]);
var seconds = double.Parse(args[2], System.Globalization.CultureInfo.InvariantCulture);
var mode = args.Length > 3 ? args[3] : "async";
ThreadPool.SetMinThreads(connections + Environment.ProcessorCount + 8, 8);

HttpMessageInvoker Client() => new(new SocketsHttpHandler
{
    MaxConnectionsPerServer = 1, UseProxy = false, UseCookies = false, AllowAutoRedirect = false,
    AutomaticDecompression = DecompressionMethods.None, PooledConnectionIdleTimeout = Timeout.InfiniteTimeSpan,
}, disposeHandler: true);

long completed = 0;
var stop = DateTime.UtcNow;
async Task AsyncLoop(HttpMessageInvoker client, CancellationToken ct)
{
    var buffer = new byte[16 * 1024];
    while (!ct.IsCancellationRequested)
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, url);
        using var response = await client.SendAsync(request, ct);
        await using var stream = await response.Content.ReadAsStreamAsync(ct);
        while (await stream.ReadAsync(buffer, ct) > 0) { }
        Interlocked.Increment(ref completed);
    }
}
void ThreadLoop(HttpMessageInvoker client, CancellationToken ct)
{
    var buffer = new byte[16 * 1024];
    while (!ct.IsCancellationRequested)
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, url);
        using var response = client.Send(request, ct);
        using var stream = response.Content.ReadAsStream(ct);
        while (stream.Read(buffer) > 0) { }
        Interlocked.Increment(ref completed);
    }
}

var clients = Enumerable.Range(0, connections).Select(_ => Client()).ToArray();
// Two seconds of warm-up (JIT tiering), then the measured part.
for (var phase = 0; phase < 2; phase++)
{
    using var cts = new CancellationTokenSource(TimeSpan.FromSeconds(phase == 0 ? 2 : seconds));
    Interlocked.Exchange(ref completed, 0);
    var cpu = Process.GetCurrentProcess().TotalProcessorTime;
    var wall = Stopwatch.StartNew();
    if (mode == "threads")
    {
        var threads = clients.Select(c => new Thread(() => { try { ThreadLoop(c, cts.Token); } catch (OperationCanceledException) { } }) { IsBackground = true }).ToList();
        threads.ForEach(t => t.Start());
        threads.ForEach(t => t.Join());
    }
    else
    {
        await Task.WhenAll(clients.Select(c => Task.Run(async () => { try { await AsyncLoop(c, cts.Token); } catch (OperationCanceledException) { } })));
    }
    var used = Process.GetCurrentProcess().TotalProcessorTime - cpu;
    if (phase == 1)
        Console.WriteLine($"{mode} c={connections}: {completed / wall.Elapsed.TotalSeconds:F0} req/s, {used.TotalMicroseconds / Math.Max(1, completed):F1} µs CPU per request");
}
