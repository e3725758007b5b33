using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Kinds.Cache;

namespace BenchDashboard.Web.Pages.Kinds.Cache;

/// <summary>The cache benchmark's fields as the new-run form and the editor bind them.</summary>
[KindPages(CacheKind.KindName, Prefix = "Cache", Fields = "/Pages/Kinds/Cache/_CacheFields.cshtml", Answer = "/Pages/Kinds/Cache/_Answer.cshtml")]
public sealed class CacheForm() : VariantsForm<CacheParameters, CacheVariantForm>(requests: 100, durationSeconds: 10, timeoutMs: 5_000)
{
    public static readonly CachePhase[] AllPhases = Enum.GetValues<CachePhase>();

    public string Backend { get; set; } = "memory";
    public string? Connection { get; set; }

    /// <summary>Phase names ("read-same"); they run in the seed's order.</summary>
    public List<string> Phases { get; set; } = AllPhases.Select(p => p.Name()).ToList();

    public int KeyCount { get; set; } = 100;
    public int ValueBytes { get; set; } = 16;
    public string KeyPrefix { get; set; } = "benchdashboard";
    public bool Cleanup { get; set; } = true;

    /// <summary>A count or a duration is per phase (each phase runs the whole load) and, with variants, per variant.</summary>
    public override LoadFormCounting Counting { get; } = new("operations", "per phase and variant", "per phase",
        "workers; 1 = one operation after another", [("phases", "checked:Cache.Phases"), ("variants", "rows:Cache.Variants")]);

    public override IReadOnlyList<(string Noun, int Count)> CountFactors() =>
        [("phases", AllPhases.Count(p => Phases.Contains(p.Name()))), ("variants", VariantCount)];

    public override CacheParameters ToParameters(Dictionary<string, string[]> errors)
    {
        var backend = Backend == "redis" ? CacheBackend.Redis : CacheBackend.Memory;
        if (Backend is not ("redis" or "memory")) errors["backend"] = ["Choose memory or redis."];
        return WithLoad(new CacheParameters
        {
            Backend = backend,
            Connection = backend == CacheBackend.Redis ? Connection?.Trim() : null,
            Phases = AllPhases.Where(p => Phases.Contains(p.Name())).ToList(),
            KeyCount = KeyCount,
            ValueBytes = ValueBytes,
            KeyPrefix = KeyPrefix.Trim(),
            Cleanup = Cleanup,
            Variants = VariantsOf(new CacheVariant { Name = FirstVariantName }, (row, field) => row.ToVariant(errors, field)),
            InterleaveBlock = InterleaveBlock,
        }, errors);
    }

    public override void Load(CacheParameters p)
    {
        Backend = p.Backend == CacheBackend.Redis ? "redis" : "memory";
        Connection = p.Connection;
        Phases = p.Phases.Select(phase => phase.Name()).ToList();
        LoadFrom(p);
        KeyCount = p.KeyCount;
        ValueBytes = p.ValueBytes;
        KeyPrefix = p.KeyPrefix;
        Cleanup = p.Cleanup;
        InterleaveBlock = p.InterleaveBlock;
        if (p.Variants is { Count: > 0 } variants)
        {
            // The first variant's own fields are folded into the fields above; the others keep what they change.
            Load(variants[0].Over(p) with { Variants = null, InterleaveBlock = p.InterleaveBlock });
            LoadVariants(variants, v => v.Name, CacheVariantForm.From);
        }
    }
}

/// <summary>One more variant as the form binds it: blank fields are the first variant's.</summary>
public sealed class CacheVariantForm : IVariantRow
{
    public string? Name { get; set; }

    /// <summary>"", "memory" or "redis".</summary>
    public string? Backend { get; set; }
    public string? Connection { get; set; }
    public int? ValueBytes { get; set; }
    public int? KeyCount { get; set; }

    public bool IsEmpty => string.IsNullOrWhiteSpace(Name) && string.IsNullOrWhiteSpace(Backend) && string.IsNullOrWhiteSpace(Connection)
        && ValueBytes is null && KeyCount is null;

    public CacheVariant ToVariant(Dictionary<string, string[]> errors, string field)
    {
        CacheBackend? backend = Backend?.Trim() switch
        {
            null or "" => null,
            "memory" => CacheBackend.Memory,
            "redis" => CacheBackend.Redis,
            _ => null,
        };
        if (backend is null && !string.IsNullOrWhiteSpace(Backend)) errors[$"{field}.backend"] = ["Choose memory or redis, or leave it the same."];
        return new CacheVariant
        {
            Name = string.IsNullOrWhiteSpace(Name) ? null : Name.Trim(),
            Backend = backend,
            Connection = string.IsNullOrWhiteSpace(Connection) ? null : Connection.Trim(),
            ValueBytes = ValueBytes,
            KeyCount = KeyCount,
        };
    }

    public static CacheVariantForm From(CacheVariant v, int position) => new()
    {
        Name = VariantRules.NameAt(v.Name, position),
        Backend = v.Backend switch { CacheBackend.Memory => "memory", CacheBackend.Redis => "redis", _ => null },
        Connection = v.Connection,
        ValueBytes = v.ValueBytes,
        KeyCount = v.KeyCount,
    };
}
