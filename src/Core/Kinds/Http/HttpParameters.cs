using System.Text.Json.Serialization;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Kinds.Http.Journeys;

namespace BenchDashboard.Core.Kinds.Http;

/// <summary>Parameters of an HTTP latency benchmark, with the load fields of <see cref="LoadParameters"/>. Names match the JSON API (camelCase).</summary>
public sealed record HttpParameters : LoadParameters
{
    public HttpParameters() : base(timeoutMs: 10_000) { }

    public string Url { get; init; } = "";
    public string Method { get; init; } = "GET";
    public Dictionary<string, string> Headers { get; init; } = new();
    public string? Body { get; init; }

    /// <summary>
    /// A journey instead of one request (<see cref="Url"/>, <see cref="Method"/>, <see cref="Headers"/> and
    /// <see cref="Body"/> then stay unset): one operation is an iteration of these steps in order, on the worker's
    /// connection(s). Null: the one request, on the path it has always taken.
    /// </summary>
    // Left out when null: one request's stored parameters (and exports) keep exactly the shape they had.
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public List<HttpStep>? Steps { get; init; }

    /// <summary>Whether this is a journey of <see cref="Steps"/> rather than one request.</summary>
    [JsonIgnore]
    public bool IsJourney => Steps is not null;

    public bool KeepAlive { get; init; } = true;

    /// <summary>Requests sent before measurement starts (per variant); stored, flagged, excluded from statistics.</summary>
    public int WarmupRequests { get; init; }
    protected override int Warmup => WarmupRequests;

    /// <summary>
    /// 2 to 8 variants of these parameters measured in one run, interleaved: each names only the fields it
    /// changes. Requests go round the variants in rounds (<see cref="InterleaveBlock"/> of each a round, the round's leader drawn each round), so drift of
    /// the machine or the service hits every variant alike, each worker's variants on one connection where they can
    /// (<see cref="ConnectionKey"/>). Each sample's series is its variant's name.
    /// </summary>
    public List<HttpVariant>? Variants { get; init; }

    /// <summary>With variants: requests of one variant in a row before the next variant's turn (1: one of each variant a round, in an order drawn each round).</summary>
    public int InterleaveBlock { get; init; } = 1;

    /// <summary><see cref="LoadParameters.Requests"/> counts per variant: a count of n is n requests of each.</summary>
    [JsonIgnore]
    public override int OperationsPerRequest => Math.Max(1, Variants?.Count ?? 1);

    /// <summary>Each variant's name and its full parameters (these with its fields put over them), in order; none without variants.</summary>
    public IReadOnlyList<(string Name, HttpParameters Parameters)> Resolved() =>
        (Variants ?? []).Select((v, i) => (VariantRules.NameAt(v?.Name, i), v is null ? this with { Variants = null } : v.Over(this))).ToList();

    /// <summary>
    /// What must be equal for two variants to send on one connection: the origin (a connection goes to one), the
    /// timeout (the connect's too), and keep-alive (a variant that closes its connection after each request would
    /// make the others pay the next connect).
    /// </summary>
    public string ConnectionKey() =>
        $"{(Uri.TryCreate(Url, UriKind.Absolute, out var uri) ? $"{uri.Scheme}://{uri.Authority}" : Url)} {TimeoutMs} {KeepAlive}";

    /// <summary>Connections each worker opens: one per distinct <see cref="ConnectionKey"/> among the variants.</summary>
    public int ConnectionsPerWorker() => Variants is { Count: > 1 } ? Resolved().Select(v => v.Parameters.ConnectionKey()).Distinct().Count() : 1;
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

    /// <summary>Steps that replace the journey's (a variant changes steps by giving them all).</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public List<HttpStep>? Steps { get; init; }
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
        Steps = Steps ?? run.Steps,
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
        if (Steps is not null) yield return "steps";
        if (KeepAlive is not null) yield return "keepAlive";
        if (TimeoutMs is not null) yield return "timeoutMs";
    }
}
