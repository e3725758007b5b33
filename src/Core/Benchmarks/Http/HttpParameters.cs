using System.Text.Json.Serialization;

namespace BenchDashboard.Core.Benchmarks.Http;

/// <summary>Parameters of an HTTP latency benchmark. Names match the JSON API (camelCase).</summary>
public sealed record HttpParameters : ILoadParameters
{
    public string Url { get; init; } = "";
    public string Method { get; init; } = "GET";
    public Dictionary<string, string> Headers { get; init; } = new();
    public string? Body { get; init; }

    /// <summary>Measured requests to issue (per variant when there are <see cref="Variants"/>); exactly one of this and <see cref="DurationSeconds"/> is set.</summary>
    public int? Requests { get; init; }
    public int? DurationSeconds { get; init; }

    /// <summary>Closed (each connection sends when answered) or open (requests start on a schedule: <see cref="Rate"/>, <see cref="Stages"/>).</summary>
    public LoadModel Model { get; init; } = LoadModel.Closed;
    public double? Rate { get; init; }
    public List<RateStage>? Stages { get; init; }

    /// <summary>Connections, each issuing requests one after another (like wrk/ab -c); in the open model, the most in flight. With variants, per variant.</summary>
    public int Concurrency { get; init; } = 1;
    public bool KeepAlive { get; init; } = true;
    public int TimeoutMs { get; init; } = 10_000;

    /// <summary>Requests sent before measurement starts (per variant); stored, flagged, excluded from statistics.</summary>
    public int WarmupRequests { get; init; }

    /// <summary>
    /// 2 to 8 variants of these parameters measured in one run, interleaved: each names only the fields it
    /// changes. Requests go round the variants (A B A B …, <see cref="InterleaveBlock"/> at a time), each variant
    /// on connections of its own, so drift of the machine or the service hits every variant alike. Each
    /// sample's series is its variant's name.
    /// </summary>
    public List<HttpVariant>? Variants { get; init; }

    /// <summary>With variants: requests of one variant in a row before the next variant's turn (1: A B A B …).</summary>
    public int InterleaveBlock { get; init; } = 1;

    [JsonIgnore]
    public TimeSpan Timeout => TimeSpan.FromMilliseconds(TimeoutMs);

    /// <summary><see cref="Requests"/> counts per variant: a count of n is n requests of each.</summary>
    [JsonIgnore]
    public int OperationsPerRequest => Math.Max(1, Variants?.Count ?? 1);

    /// <summary>Each variant's name and its full parameters (these with its fields put over them), in order; none without variants.</summary>
    public IReadOnlyList<(string Name, HttpParameters Parameters)> Resolved() =>
        (Variants ?? []).Select((v, i) => (VariantRules.NameAt(v?.Name, i), v is null ? this with { Variants = null } : v.Over(this))).ToList();
}

/// <summary>One variant of an HTTP run: a name and the fields that differ from the run's own; unset fields are inherited.</summary>
public sealed record HttpVariant
{
    /// <summary>Default A, B, C … by position.</summary>
    public string? Name { get; init; }
    public string? Url { get; init; }
    public string? Method { get; init; }
    public Dictionary<string, string>? Headers { get; init; }
    public string? Body { get; init; }
    public bool? KeepAlive { get; init; }
    public int? TimeoutMs { get; init; }


    /// <summary>The run's parameters with this variant's fields put over them.</summary>
    public HttpParameters Over(HttpParameters run) => run with
    {
        Variants = null,
        Url = Url ?? run.Url,
        Method = Method ?? run.Method,
        Headers = Headers ?? run.Headers,
        Body = Body ?? run.Body,
        KeepAlive = KeepAlive ?? run.KeepAlive,
        TimeoutMs = TimeoutMs ?? run.TimeoutMs,
    };

    /// <summary>The fields it sets, by API name; the rest (the load, the counts) is the run's, the same for every variant.</summary>
    public IEnumerable<string> SetFields()
    {
        if (Url is not null) yield return "url";
        if (Method is not null) yield return "method";
        if (Headers is not null) yield return "headers";
        if (Body is not null) yield return "body";
        if (KeepAlive is not null) yield return "keepAlive";
        if (TimeoutMs is not null) yield return "timeoutMs";
    }
}
