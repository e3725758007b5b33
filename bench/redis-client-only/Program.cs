// SET of one key with a 3-byte value by C tasks sharing one multiplexer, N operations after 5,000 unmeasured:
// what the cache runner does, without the dashboard, its sample writer or its runner process.
//   usage: dotnet run -c Release --project bench/redis-client-only [-p:RedisVersion=1.2.6] -- PORT C N
using System.Diagnostics;
using System.Reflection;
using StackExchange.Redis;

var (port, concurrency, operations) = (args[0], int.Parse(args[1]), int.Parse(args[2]));
var options = ConfigurationOptions.Parse($"127.0.0.1:{port}");
#if REDIS_3
options.BacklogPolicy = BacklogPolicy.FailFast; // as the runner sets it
#endif
ThreadPool.SetMinThreads(concurrency + Environment.ProcessorCount, Environment.ProcessorCount);
using var connection = await ConnectionMultiplexer.ConnectAsync(options);
var database = connection.GetDatabase();
var value = new byte[3];
for (var i = 0; i < 5000; i++) await database.StringSetAsync("client-only", value);

var latencies = new long[operations];
var next = -1;
var elapsed = Stopwatch.StartNew();
await Task.WhenAll(Enumerable.Range(0, concurrency).Select(_ => Task.Run(async () =>
{
    int i;
    while ((i = Interlocked.Increment(ref next)) < operations)
    {
        var start = Stopwatch.GetTimestamp();
        await database.StringSetAsync("client-only", value);
        latencies[i] = Stopwatch.GetTimestamp() - start;
    }
})));
var seconds = elapsed.Elapsed.TotalSeconds;
Array.Sort(latencies);
double Us(long ticks) => ticks * 1e6 / Stopwatch.Frequency;
var version = typeof(ConnectionMultiplexer).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion;
Console.WriteLine($"StackExchange.Redis {version}, c={concurrency}: {operations / seconds:N0} SET/s, p50 {Us(latencies[operations / 2]):N1} us, p99 {Us(latencies[operations * 99 / 100]):N1} us");
