using BenchDashboard.Core.Agents;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Kinds.Http.Journeys;
using BenchDashboard.Core.Reports;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Security;
using BenchDashboard.Core.Statistics;
using System.Text.Json;
using Microsoft.Extensions.Options;

namespace BenchDashboard.Core.Kinds.Http;

/// <summary>HTTP request latency against a URL (App Service Dynamic Cache settings, a cache in front of a slow CGI).</summary>
public sealed class HttpKind(IOptions<RunLimits> limits, TargetPolicy targets) : BenchmarkKind<HttpParameters>, IKindFigures
{
    public const string KindName = "http";
    public override string Name => KindName;
    public override string Title => "HTTP latency";
    public override string SampleNoun => "requests";
    public override string SeriesNoun => "variant";

    /// <summary>
    /// The fields, then whether the target may be reached at all (<see cref="TargetPolicy"/>). A {{self}} URL is
    /// each agent's own site, judged by that agent when it takes the run (<see cref="SelfUrl"/>), not here.
    /// </summary>
    public override async Task<Dictionary<string, string[]>> ValidateAsync(HttpParameters p, CancellationToken ct)
    {
        var errors = HttpParametersValidator.Validate(p, limits.Value);
        if (p.IsJourney) await CheckStepsAsync(p.Steps!, "", errors, ct);
        else if (!errors.ContainsKey("url") && !SelfUrl.IsSelf(p.Url) && await targets.CheckAsync(new Uri(p.Url), ct) is { } refused) errors["url"] = [refused];
        // Each variant's own URL is a target too.
        foreach (var (variant, i) in (p.Variants ?? []).Select((v, i) => (v, i)))
            if (variant?.Steps is { } steps) await CheckStepsAsync(steps, $"variants[{i}].", errors, ct);
            else if (variant?.Url is { } url && !SelfUrl.IsSelf(url) && !errors.ContainsKey($"variants[{i}].url") && await targets.CheckAsync(new Uri(url), ct) is { } refusedVariant)
                errors[$"variants[{i}].url"] = [refusedVariant];
        return errors;
    }

    /// <summary>Each step's static origin: what the policy can judge before the run (each resolved URL is judged again before it is sent).</summary>
    async Task CheckStepsAsync(List<HttpStep> steps, string prefix, Dictionary<string, string[]> errors, CancellationToken ct)
    {
        for (var i = 0; i < steps.Count; i++)
            if (!errors.ContainsKey($"{prefix}steps[{i}].url") && steps[i]?.Url is { } url && Template.StaticOrigin(url) is { } origin
                && await targets.CheckAsync(origin, ct) is { } refused)
                errors[$"{prefix}steps[{i}].url"] = [refused];
    }

    public override string Describe(HttpParameters p) =>
        (p.IsJourney ? $"journey: {string.Join(" → ", p.Steps!.Select(s => s.Name))}" : $"{p.Method} {p.Url}") + (p.Variants is { Count: > 0 } ? $", variants {string.Join(", ", p.Resolved().Select(v => v.Name))} interleaved" : "");

    public override IReadOnlyList<string> PlannedSeries(HttpParameters p) =>
        !p.IsJourney ? p.Resolved().Select(v => v.Name).ToList()
        : p.Variants is { Count: > 0 } ? p.Resolved().SelectMany(v => Journey.Series(v.Name, v.Parameters.Steps ?? [])).ToList()
        : Journey.Series(null, p.Steps!).ToList();

    /// <summary>A journey's steps and its iteration are unlike operations: no blended summary, and the answer is the step table.</summary>
    public override SeriesBasis SeriesBasis(HttpParameters p) => p.IsJourney ? new(Blended: false, Percentages: false) : Benchmarks.SeriesBasis.Alike;

    /// <summary>A journey's step table (<see cref="JourneyTable"/>); none for one request.</summary>
    object? IKindFigures.Figures(object parameters, IReadOnlyList<SeriesStatistics> series, IReadOnlyList<Sample> samples) =>
        JourneyTable.From((HttpParameters)parameters, series);

    IReadOnlyList<AnswerTable> IKindFigures.Answer(JsonElement figures) =>
        figures.ValueKind == JsonValueKind.Object ? JourneyAnswer.Of(figures.Deserialize<JourneyTable>(Json.Options)) : [];

    public override IReadOnlyList<(string Name, HttpParameters Parameters)> SeparateVariants(HttpParameters p) =>
        p.Resolved().Select(v => (v.Name, v.Parameters with { InterleaveBlock = 1, Setting = v.Name })).ToList();

    public override HttpParameters IdenticalVariants(HttpParameters plain) => plain with { Variants = [new() { Name = "A" }, new() { Name = "B" }], InterleaveBlock = 1 };

    /// <summary>
    /// Connections, request counts and warm-up requests divided as evenly as whole numbers allow (the first shards
    /// take the remainder), an open run's rate and every stage's rate divided by the shards; durations, the URL
    /// and the variants are every shard's. Each shard needs a connection, and a request when counted.
    /// </summary>
    public override IReadOnlyList<DemoBenchmark> Demos(string dashboard) =>
    [
        new("Demo: 5 ms endpoint, 4 connections",
            new HttpParameters { Url = $"{dashboard}/target/delay?ms=5&size=4096", Requests = 300, Concurrency = 4, WarmupRequests = 20 }, QueueFirst: true),
        new("Demo: cold first request, then served from cache",
            new HttpParameters { Url = $"{dashboard}/target/cacheable?coldMs=400", Requests = 100, Concurrency = 1 }),
        new("Demo: page that reads 64 small files",
            new HttpParameters { Url = $"{dashboard}/target/files?count=64", Requests = 50, Concurrency = 1, WarmupRequests = 10 }),
    ];

    public override bool SpreadsOverAgents => true;

    public override ShardSplit Split(HttpParameters p, int shards)
    {
        if (p.Concurrency < shards)
            return ShardSplit.Refused($"Each agent needs a connection of its own: concurrency {p.Concurrency} cannot be divided between {shards} agents.");
        if (p.Requests is { } requests && requests < shards)
            return ShardSplit.Refused($"{requests} requests cannot be divided between {shards} agents: give each at least one.");
        var parts = new List<ShardPart>();
        for (var i = 0; i < shards; i++)
        {
            var part = p with
            {
                Concurrency = ShardSplit.Part(p.Concurrency, shards, i),
                Requests = p.Requests is { } n ? ShardSplit.Part(n, shards, i) : null,
                WarmupRequests = ShardSplit.Part(p.WarmupRequests, shards, i),
                Rate = p.Rate / shards,
                Stages = p.Stages?.Select(s => s is null ? s! : s with { Rate = s.Rate / shards }).ToList(), // a null stage is the validator's to refuse
            };
            parts.Add(new ShardPart(part, part.Concurrency * part.OperationsPerRequest));
        }
        return new ShardSplit(parts, null);
    }
}
