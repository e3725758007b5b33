using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using OpenTelemetry.Exporter;
using OpenTelemetry.Metrics;
using OpenTelemetry.Resources;

namespace BenchDashboard.ServiceDefaults;

/// <summary>
/// Metrics out through OpenTelemetry's OTLP exporter, off unless an endpoint is configured: <c>Telemetry:OtlpEndpoint</c>
/// (with <c>Telemetry:OtlpProtocol</c>, http/protobuf unless it says grpc) or the standard
/// <c>OTEL_EXPORTER_OTLP_ENDPOINT</c>/<c>OTEL_EXPORTER_OTLP_METRICS_ENDPOINT</c> (with the other OTEL_* variables). Each
/// process exports what it measures: the runner child its runs, the dashboard its ASP.NET Core metrics (and the
/// runs when the runner is in its process). docs/telemetry.md.
/// </summary>
public static class TelemetrySetup
{
    public const string Section = "Telemetry";

    /// <summary>ASP.NET Core's and Kestrel's own meters (.NET 8 and later): request durations, active requests, connections.</summary>
    public static readonly string[] AspNetCoreMeters = ["Microsoft.AspNetCore.Hosting", "Microsoft.AspNetCore.Server.Kestrel", "Microsoft.AspNetCore.Routing"];

    public static bool IsConfigured(IConfiguration configuration) =>
        !string.IsNullOrWhiteSpace(configuration[$"{Section}:OtlpEndpoint"])
        || !string.IsNullOrWhiteSpace(configuration["OTEL_EXPORTER_OTLP_ENDPOINT"])
        || !string.IsNullOrWhiteSpace(configuration["OTEL_EXPORTER_OTLP_METRICS_ENDPOINT"]);

    /// <param name="serviceName">service.name of this process: benchdash-dashboard or benchdash-runner.</param>
    /// <param name="meters">The meters this process exports.</param>
    /// <param name="exponentialHistograms">Instruments among them kept as base-2 exponential histograms (latencies, whose
    /// explicit default buckets would lose the tail).</param>
    public static IServiceCollection AddBenchTelemetry(this IServiceCollection services, IConfiguration configuration, string serviceName, IEnumerable<string> meters, IEnumerable<string> exponentialHistograms)
    {
        if (!IsConfigured(configuration)) return services;
        var section = configuration.GetSection(Section);
        var endpoint = section["OtlpEndpoint"];
        var grpc = string.Equals(section["OtlpProtocol"], "grpc", StringComparison.OrdinalIgnoreCase);
        // Live figures are for watching a run: every 10 s unless said otherwise (the SDK's default is 60 s).
        var intervalMs = (int)(section.GetValue("ExportIntervalSeconds", 10.0) * 1000);
        services.AddOpenTelemetry()
            .ConfigureResource(resource => resource.AddService(serviceName, serviceInstanceId: $"{Environment.MachineName}/{Environment.ProcessId}"))
            .WithMetrics(metrics =>
            {
                metrics.AddMeter([.. meters]);
                foreach (var name in exponentialHistograms)
                    metrics.AddView(name, new Base2ExponentialBucketHistogramConfiguration());
                metrics.AddOtlpExporter((exporter, reader) =>
                {
                    if (!string.IsNullOrWhiteSpace(endpoint))
                    {
                        exporter.Protocol = grpc ? OtlpExportProtocol.Grpc : OtlpExportProtocol.HttpProtobuf;
                        exporter.Endpoint = SignalEndpoint(endpoint, grpc);
                    }
                    reader.PeriodicExportingMetricReaderOptions.ExportIntervalMilliseconds = intervalMs;
                });
            });
        return services;
    }

    /// <summary>OTLP/HTTP posts metrics to /v1/metrics: a base address ("http://collector:4318") gets that path, as OTEL_EXPORTER_OTLP_ENDPOINT would.</summary>
    static Uri SignalEndpoint(string endpoint, bool grpc)
    {
        if (!Uri.TryCreate(endpoint, UriKind.Absolute, out var uri) || uri.Scheme is not ("http" or "https"))
            throw new InvalidOperationException($"{Section}:OtlpEndpoint must be an absolute http or https address (\"http://127.0.0.1:4318\"), not \"{endpoint}\".");
        if (grpc || uri.AbsolutePath.TrimEnd('/').EndsWith("/v1/metrics", StringComparison.Ordinal)) return uri;
        return new Uri(uri.GetLeftPart(UriPartial.Authority) + uri.AbsolutePath.TrimEnd('/') + "/v1/metrics");
    }
}
