#:project ../src/Core/BenchDashboard.Core.csproj
// Issue 16's sample channel on its own: an "agent" task encodes batches of samples (SampleFrames) and sends them
// over a WebSocket on a loopback TCP connection within an acknowledgement window (AckWindow); a "dashboard"
// task decodes each frame, checks it against the shard's lease (ShardInbox) and acknowledges it. Nothing is
// stored: storage (~3.4 µs of CPU a sample, bench/README.md) is the real ceiling. Prints samples/s and the CPU this
// process used per sample (both sides together).
//   usage: dotnet run bench/agent-channel.cs -- [samples=20000000] [batch=1024] [window=8]
using System.Buffers.Binary;
using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using System.Net.WebSockets;
using BenchDashboard.Core.Agents;
using BenchDashboard.Core.Runs;

var total = args.Length > 0 ? long.Parse(args[0]) : 20_000_000;
var batch = args.Length > 1 ? int.Parse(args[1]) : 1024;
var windowSize = args.Length > 2 ? int.Parse(args[2]) : 8;
string[] series = ["A", "B"];

var listener = new TcpListener(IPAddress.Loopback, 0);
listener.Start();
var client = new TcpClient { NoDelay = true };
await client.ConnectAsync(IPAddress.Loopback, ((IPEndPoint)listener.LocalEndpoint).Port);
var server = await listener.AcceptTcpClientAsync();
server.NoDelay = true;
using var agent = WebSocket.CreateFromStream(client.GetStream(), new WebSocketCreationOptions { IsServer = false, KeepAliveInterval = TimeSpan.Zero });
using var dashboard = WebSocket.CreateFromStream(server.GetStream(), new WebSocketCreationOptions { IsServer = true, KeepAliveInterval = TimeSpan.Zero });

var frames = (total + batch - 1) / batch;
var samples = Enumerable.Range(0, batch).Select(i => new Sample
{
    Index = i, OffsetNs = 1_000_000L * i, LatencyNs = 100_000 + i, StatusCode = 200, Bytes = 4096, Connection = i % 4, Series = series[i % 2],
}).ToList();
var window = new AckWindow(windowSize);
var inbox = new ShardInbox();
inbox.Lease(0, epoch: 1);
long received = 0;

var cpu = Process.GetCurrentProcess().TotalProcessorTime;
var clock = Stopwatch.StartNew();

var receiving = Task.Run(async () =>
{
    var buffer = new byte[SampleFrames.SizeOf(SampleFrames.MaxCount)];
    var ack = new byte[8];
    for (long f = 0; f < frames; f++)
    {
        var length = 0;
        while (true)
        {
            var r = await dashboard.ReceiveAsync(buffer.AsMemory(length), default);
            length += r.Count;
            if (r.EndOfMessage) break;
        }
        var (header, decoded) = SampleFrames.Decode(buffer.AsSpan(0, length), series);
        var (verdict, through) = inbox.Accept(header);
        if (verdict != FrameVerdict.Accepted) throw new InvalidOperationException($"frame {header.Sequence}: {verdict}");
        received += decoded.Count;
        BinaryPrimitives.WriteInt64LittleEndian(ack, through);
        await dashboard.SendAsync(ack, WebSocketMessageType.Binary, true, default);
    }
});
var acking = Task.Run(async () =>
{
    var ack = new byte[8];
    for (long f = 0; f < frames; f++)
    {
        await agent.ReceiveAsync(ack, default);
        window.Acknowledge(BinaryPrimitives.ReadInt64LittleEndian(ack));
    }
});
for (long f = 0; f < frames; f++)
{
    var sequence = await window.AddAsync(default);
    await agent.SendAsync(SampleFrames.Encode(new(0, 1, sequence, batch), samples, series), WebSocketMessageType.Binary, true, default);
}
await Task.WhenAll(receiving, acking);
clock.Stop();
var used = Process.GetCurrentProcess().TotalProcessorTime - cpu;
Console.WriteLine($"{received:N0} samples in {clock.Elapsed.TotalSeconds:N3} s: {received / clock.Elapsed.TotalSeconds / 1e6:N2} M samples/s; " +
    $"CPU {used.TotalMilliseconds * 1000 / received:N3} µs a sample (both sides); batch {batch}, window {windowSize}, {SampleFrames.RecordBytes} B a sample");
