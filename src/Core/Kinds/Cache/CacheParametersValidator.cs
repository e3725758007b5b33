using BenchDashboard.Core.Benchmarks;

namespace BenchDashboard.Core.Kinds.Cache;

/// <summary>Checks cache parameters against <see cref="RunLimits"/>; errors are keyed by the API's field names.</summary>
public static class CacheParametersValidator
{
    public const int MaxKeyCount = 1_000_000;
    public const int MaxValueBytes = 4 * 1024 * 1024;
    public const long MaxTotalBytes = 1024L * 1024 * 1024;

    /// <param name="connectionExists">Whether configuration has a connection string of that name.</param>
    public static Dictionary<string, string[]> Validate(CacheParameters p, RunLimits limits, Func<string, bool> connectionExists)
    {
        var errors = new Dictionary<string, List<string>>();
        void Add(string field, string message)
        {
            if (!errors.TryGetValue(field, out var list)) errors[field] = list = [];
            list.Add(message);
        }

        if (!Enum.IsDefined(p.Backend)) Add("backend", "Backend must be \"memory\" or \"redis\".");
        if (p.Backend == CacheBackend.Redis)
        {
            if (string.IsNullOrWhiteSpace(p.Connection))
                Add("connection", "Name the connection string to use (ConnectionStrings:NAME in configuration).");
            else if (!connectionExists(p.Connection))
                Add("connection", $"No connection string named '{p.Connection}' is configured. Set ConnectionStrings:{p.Connection} in appsettings, user secrets, the environment (ConnectionStrings__{p.Connection}) or the App Service connection strings.");
        }

        var phases = p.Phases ?? []; // JSON can say null
        if (phases.Count == 0) Add("phases", "Choose at least one phase.");
        if (phases.Distinct().Count() != phases.Count) Add("phases", "Each phase can appear once.");
        if (phases.Any(phase => !Enum.IsDefined(phase))) Add("phases", "Phases are write, read-same, read-distinct and read-miss.");

        LoadFieldsValidator.Validate(p, limits, new LoadCounting("operations", Variants: p.OperationsPerRequest, Phases: Math.Max(1, phases.Count)), Add);
        if (p.KeyCount < 1 || p.KeyCount > MaxKeyCount)
            Add("keyCount", $"Key count must be between 1 and {MaxKeyCount:N0}.");
        if (p.ValueBytes < 0 || p.ValueBytes > MaxValueBytes)
            Add("valueBytes", $"Value size must be between 0 and {MaxValueBytes:N0} bytes.");
        else if ((long)p.KeyCount * p.ValueBytes > MaxTotalBytes)
            Add("valueBytes", $"Key count × value size must be at most {MaxTotalBytes / (1024 * 1024):N0} MiB: a benchmark must not fill a shared cache.");
        if (string.IsNullOrEmpty(p.KeyPrefix) || p.KeyPrefix.Length > 100 || p.KeyPrefix.Any(c => c <= ' ' || c > '~'))
            Add("keyPrefix", "Key prefix must be 1 to 100 printable ASCII characters without spaces.");

        VariantRules.Validate(p.Variants, p.InterleaveBlock, v => v.Name, Add, (variant, field) =>
        {
            var own = Validate(variant.Over(p), limits, connectionExists);
            // A variant that moves to redis needs a connection even if it names none itself.
            foreach (var changed in variant.SetFields().Append("connection").Distinct())
                foreach (var message in own.GetValueOrDefault(changed) ?? [])
                    Add($"{field}.{changed}", message);
        });

        return errors.ToDictionary(e => e.Key, e => e.Value.ToArray());
    }
}
