using System.Collections.Concurrent;
using System.IO.Compression;
using Google.Protobuf;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using OpenTelemetry.Proto.Collector.Metrics.V1;
using OpenTelemetry.Proto.Common.V1;
using OpenTelemetry.Proto.Metrics.V1;

namespace BenchDashboard.TestSupport.Otlp;

/// <summary>One exported data point as the receiver decoded it, with its metric, its resource's service.name and its attributes.</summary>
public sealed record OtlpPoint(string Service, string Metric, string Unit, IReadOnlyDictionary<string, string> Attributes,
    long? Sum, ulong? Count, int? Scale, DataKind Kind);

public enum DataKind { Sum, Gauge, Histogram, ExponentialHistogram }

/// <summary>
/// A real OTLP/HTTP metrics receiver on 127.0.0.1 (Kestrel): POST /v1/metrics with an
/// <c>ExportMetricsServiceRequest</c> in binary protobuf (the official messages, compiled from opentelemetry-proto),
/// answered as the specification says. It keeps every point it decoded, so a test asks what arrived.
/// </summary>
public sealed class OtlpReceiver : IAsyncDisposable
{
    readonly WebApplication app;
    readonly ConcurrentQueue<OtlpPoint> points = new();

    public string Endpoint { get; }

    /// <summary>Requests that could not be decoded (the test fails on any).</summary>
    public int Undecodable => undecodable;

    int undecodable;

    OtlpReceiver(WebApplication app, string endpoint)
    {
        this.app = app;
        Endpoint = endpoint;
    }

    public IReadOnlyList<OtlpPoint> Points => points.ToArray();

    public static async Task<OtlpReceiver> StartAsync()
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.WebHost.UseUrls("http://127.0.0.1:0");
        builder.Logging.ClearProviders();
        var app = builder.Build();
        OtlpReceiver? receiver = null;
        app.MapPost("/v1/metrics", async (HttpRequest request) =>
        {
            using var body = new MemoryStream();
            var source = request.Headers.ContentEncoding.ToString() == "gzip" ? new GZipStream(request.Body, CompressionMode.Decompress) : request.Body;
            await source.CopyToAsync(body);
            try
            {
                receiver!.Take(ExportMetricsServiceRequest.Parser.ParseFrom(body.ToArray()));
            }
            catch (InvalidProtocolBufferException)
            {
                Interlocked.Increment(ref receiver!.undecodable);
                return Results.BadRequest();
            }
            return Results.Bytes(new ExportMetricsServiceResponse().ToByteArray(), "application/x-protobuf");
        });
        await app.StartAsync();
        var address = app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.First();
        receiver = new OtlpReceiver(app, address);
        return receiver;
    }

    void Take(ExportMetricsServiceRequest request)
    {
        foreach (var resource in request.ResourceMetrics)
        {
            var service = Text(resource.Resource.Attributes, "service.name") ?? "";
            foreach (var metric in resource.ScopeMetrics.SelectMany(s => s.Metrics))
            {
                switch (metric.DataCase)
                {
                    case Metric.DataOneofCase.Sum:
                        foreach (var p in metric.Sum.DataPoints) Add(service, metric, p.Attributes, p.AsInt, null, null, DataKind.Sum);
                        break;
                    case Metric.DataOneofCase.Gauge:
                        foreach (var p in metric.Gauge.DataPoints) Add(service, metric, p.Attributes, p.AsInt, null, null, DataKind.Gauge);
                        break;
                    case Metric.DataOneofCase.Histogram:
                        foreach (var p in metric.Histogram.DataPoints) Add(service, metric, p.Attributes, null, p.Count, null, DataKind.Histogram);
                        break;
                    case Metric.DataOneofCase.ExponentialHistogram:
                        foreach (var p in metric.ExponentialHistogram.DataPoints) Add(service, metric, p.Attributes, null, p.Count, p.Scale, DataKind.ExponentialHistogram);
                        break;
                }
            }
        }
    }

    void Add(string service, Metric metric, IEnumerable<KeyValue> attributes, long? sum, ulong? count, int? scale, DataKind kind) =>
        points.Enqueue(new OtlpPoint(service, metric.Name, metric.Unit, attributes.ToDictionary(a => a.Key, a => ValueText(a.Value)), sum, count, scale, kind));

    static string? Text(IEnumerable<KeyValue> attributes, string key) => attributes.FirstOrDefault(a => a.Key == key) is { } found ? ValueText(found.Value) : null;

    static string ValueText(AnyValue value) => value.ValueCase switch
    {
        AnyValue.ValueOneofCase.StringValue => value.StringValue,
        AnyValue.ValueOneofCase.IntValue => value.IntValue.ToString(System.Globalization.CultureInfo.InvariantCulture),
        AnyValue.ValueOneofCase.BoolValue => value.BoolValue ? "true" : "false",
        AnyValue.ValueOneofCase.DoubleValue => value.DoubleValue.ToString(System.Globalization.CultureInfo.InvariantCulture),
        _ => value.ToString(),
    };

    /// <summary>Waits until a point matches <paramref name="match"/>; the latest matching one (cumulative temporality: the latest is the total).</summary>
    public async Task<OtlpPoint> UntilAsync(Func<OtlpPoint, bool> match, TimeSpan timeout, string what)
    {
        var deadline = DateTime.UtcNow + timeout;
        while (DateTime.UtcNow < deadline)
        {
            if (Points.LastOrDefault(match) is { } found) return found;
            await Task.Delay(200);
        }
        throw new TimeoutException($"No {what} arrived in {timeout.TotalSeconds} s; metrics seen: {string.Join(", ", Points.Select(p => $"{p.Service}/{p.Metric}").Distinct())}");
    }

    public async ValueTask DisposeAsync() => await app.DisposeAsync();
}
