using BenchDashboard.Core.Benchmarks.Cache;

namespace BenchDashboard.Web.Pages.Kinds.Cache;

/// <summary>The cache benchmark's fields as the new-run form and the editor bind them.</summary>
[KindPages(CacheKind.KindName, Prefix = "Cache", Fields = "/Pages/Kinds/Cache/_CacheFields.cshtml")]
public sealed class CacheForm : LoadModelForm<CacheParameters>
{
    public static readonly CachePhase[] AllPhases = Enum.GetValues<CachePhase>();

    public string Backend { get; set; } = "memory";
    public string? Connection { get; set; }

    /// <summary>Phase names ("read-same"); they run in the seed's order.</summary>
    public List<string> Phases { get; set; } = AllPhases.Select(p => p.Name()).ToList();

    /// <summary>"requests" (a count per phase) or "duration" (seconds per phase).</summary>
    public string Mode { get; set; } = "requests";
    public int? Requests { get; set; } = 100;
    public int? DurationSeconds { get; set; } = 10;
    public int KeyCount { get; set; } = 100;
    public int ValueBytes { get; set; } = 16;
    public int Concurrency { get; set; } = 1;
    public int TimeoutMs { get; set; } = 5_000;
    public string KeyPrefix { get; set; } = "benchdashboard";
    public bool Cleanup { get; set; } = true;

    public override CacheParameters ToParameters(Dictionary<string, string[]> errors)
    {
        var backend = Backend == "redis" ? CacheBackend.Redis : CacheBackend.Memory;
        if (Backend is not ("redis" or "memory")) errors["backend"] = ["Choose memory or redis."];
        var duration = Mode == "duration";
        var (model, rate, stages) = LoadFields(errors);
        return new CacheParameters
        {
            Backend = backend,
            Connection = backend == CacheBackend.Redis ? Connection?.Trim() : null,
            Phases = AllPhases.Where(p => Phases.Contains(p.Name())).ToList(),
            Requests = duration || LastsAsStages ? null : Requests ?? 0,
            DurationSeconds = !duration || LastsAsStages ? null : DurationSeconds ?? 0,
            Model = model,
            Rate = rate,
            Stages = stages,
            KeyCount = KeyCount,
            ValueBytes = ValueBytes,
            Concurrency = Concurrency,
            TimeoutMs = TimeoutMs,
            KeyPrefix = KeyPrefix.Trim(),
            Cleanup = Cleanup,
        };
    }

    public override void Load(CacheParameters p)
    {
        Backend = p.Backend == CacheBackend.Redis ? "redis" : "memory";
        Connection = p.Connection;
        Phases = p.Phases.Select(phase => phase.Name()).ToList();
        Mode = p.DurationSeconds is null ? "requests" : "duration";
        Requests = p.Requests ?? 100;
        DurationSeconds = p.DurationSeconds ?? 10;
        LoadFrom(p);
        KeyCount = p.KeyCount;
        ValueBytes = p.ValueBytes;
        Concurrency = p.Concurrency;
        TimeoutMs = p.TimeoutMs;
        KeyPrefix = p.KeyPrefix;
        Cleanup = p.Cleanup;
    }
}
