using System.Text.Json;
using BenchDashboard.Core.Benchmarks;

namespace BenchDashboard.Web.Api;

/// <summary>
/// A saved benchmark: its kind's parameters as in <c>POST /api/runs</c> (secrets fingerprinted for a reader who is
/// not an identified administrator), its cron schedule (null: on demand only), the IANA zone the schedule is read
/// in, its limits and change rule (null: no limits, the default rule), its runner agents and its webhook URLs
/// (only scheme and host for a reader who is not an identified administrator), and the agents its runs run on each
/// of in turn (<c>onEach</c>, <c>rounds</c>; null otherwise).
/// </summary>
public sealed record BenchmarkDto(
    int Id, string Name, string Kind, JsonElement Parameters, string? Schedule, string TimeZone, bool Enabled, JsonElement? Thresholds, int? Agents,
    IReadOnlyList<string> Webhooks, IReadOnlyList<string>? OnEach = null, int? Rounds = null)
{
    public static BenchmarkDto From(Benchmark b, RunsApi.Reader reader)
    {
        var onEach = Core.Agents.OnEach.Parse(b.OnEachJson);
        return new(b.Id, b.Name, b.Kind, JsonSerializer.Deserialize<JsonElement>(reader.Parameters(b.ParametersJson)), b.CronSchedule, b.TimeZone, b.Enabled,
            b.ThresholdsJson is null ? null : JsonSerializer.Deserialize<JsonElement>(b.ThresholdsJson), b.Agents, b.WebhookUrls.Select(reader.WebhookUrl).ToList(),
            onEach?.Agents, onEach?.Rounds);
    }
}

/// <summary>A benchmark as a definition file holds it: <see cref="BenchmarkDto"/> without the id, which is this dashboard's.</summary>
public sealed record BenchmarkDefinitionDto(
    string Name, string Kind, JsonElement Parameters, string? Schedule, string TimeZone, bool Enabled, JsonElement? Thresholds, int? Agents,
    IReadOnlyList<string> Webhooks, IReadOnlyList<string>? OnEach = null, int? Rounds = null)
{
    public static BenchmarkDefinitionDto From(BenchmarkDto b) => new(b.Name, b.Kind, b.Parameters, b.Schedule, b.TimeZone, b.Enabled, b.Thresholds, b.Agents, b.Webhooks,
        b.OnEach, b.Rounds);
}

/// <summary>Every benchmark, sorted by name: what <c>GET /api/benchmarks/export</c> answers and <c>POST /api/benchmarks/import</c> takes.</summary>
public sealed record BenchmarkFileDto(IReadOnlyList<BenchmarkDefinitionDto> Benchmarks);
