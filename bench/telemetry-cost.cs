// What exporting the runner's metrics costs per sample, timed over SAMPLES samples on one thread, with no meter
// provider (telemetry off) and with the OTLP exporter's provider listening (telemetry on):
//  - RunContext.Record, what a measuring worker does per sample (live figures, the budget, the writer's queue);
//  - the writer's side, RunMetrics.Record as SampleWriter calls it while draining (counters and the base-2
//    exponential histogram, through the SDK; one Enabled check when off).
// The exporter posts to a closed port every 60 s, so the figures are the recording path's, not the export's.
//   usage: dotnet run bench/telemetry-cost.cs -c Release -- [SAMPLES=2000000] [ROUNDS=5]
#:project ../src/Runner/BenchDashboard.Runner.csproj
#:property PublishAot=false
using System.Diagnostics;
using BenchDashboard.Core.Runs;
using BenchDashboard.Runner.Execution;
using BenchDashboard.Runner.Telemetry;
using OpenTelemetry;
using OpenTelemetry.Metrics;

var count = args.Length > 0 ? int.Parse(args[0]) : 2_000_000;
var rounds = args.Length > 1 ? int.Parse(args[1]) : 5;
var random = new Random(1);
var samples = Enumerable.Range(0, count).Select(i => new Sample
{
    Index = i, LatencyNs = 1_000_000 + random.Next(5_000_000), StatusCode = i % 50 == 0 ? 500 : 200,
    Error = i % 50 == 0 ? ErrorKind.ServerError : ErrorKind.None, Series = i % 2 == 0 ? "a" : "b",
}).ToArray();

(double Worker, double Writer) NsPerSample()
{
    var (worker, writer) = (double.MaxValue, double.MaxValue);
    for (var round = 0; round <= rounds; round++)
    {
        using var context = new RunContext(new Run { Id = round + 1, Kind = "http", ParametersJson = "{}", BenchmarkName = "bench" }, _ => true);
        var start = Stopwatch.GetTimestamp();
        foreach (var s in samples) context.Record(s);
        var workerNs = Stopwatch.GetElapsedTime(start).TotalNanoseconds / count;
        using var metrics = new RunMetrics(context.Run);
        start = Stopwatch.GetTimestamp();
        foreach (var s in samples) metrics.Record(s);
        var writerNs = Stopwatch.GetElapsedTime(start).TotalNanoseconds / count;
        if (round > 0) (worker, writer) = (Math.Min(worker, workerNs), Math.Min(writer, writerNs)); // round 0 warms the JIT
    }
    return (worker, writer);
}

var off = NsPerSample();
using (Sdk.CreateMeterProviderBuilder().AddMeter(RunnerMetrics.MeterName)
    .AddView(RunnerMetrics.ExponentialHistograms[0], new Base2ExponentialBucketHistogramConfiguration())
    .AddOtlpExporter((exporter, reader) =>
    {
        exporter.Endpoint = new Uri("http://127.0.0.1:9/v1/metrics");
        exporter.Protocol = OpenTelemetry.Exporter.OtlpExportProtocol.HttpProtobuf;
        reader.PeriodicExportingMetricReaderOptions.ExportIntervalMilliseconds = 60_000;
    }).Build())
{
    var on = NsPerSample();
    Console.WriteLine($"{count:N0} samples, best of {rounds}, ns per sample: worker (RunContext.Record) off {off.Worker:F0}, on {on.Worker:F0}; writer (RunMetrics.Record) off {off.Writer:F0}, on {on.Writer:F0}");
}
