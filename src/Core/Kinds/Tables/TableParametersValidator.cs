using System.Text.RegularExpressions;
using BenchDashboard.Core.Benchmarks;

namespace BenchDashboard.Core.Kinds.Tables;

/// <summary>Checks Table Storage parameters against <see cref="RunLimits"/>; errors are keyed by the API's field names.</summary>
public static partial class TableParametersValidator
{
    /// <summary>The largest string property: 64 KiB of UTF-16. With 100 of them a batch stays under 4 MiB.</summary>
    public const int MaxEntityBytes = 32 * 1024;
    public const int MaxBatchSize = 100;

    [GeneratedRegex("^[A-Za-z][A-Za-z0-9]{2,62}$")]
    private static partial Regex TableName();

    /// <param name="connectionString">The configured string of a connection name, or null; checked here so a bad one is a field error, not a failed run.</param>
    public static Dictionary<string, string[]> Validate(TableParameters p, RunLimits limits, Func<string, bool> connectionExists, Func<string, string?>? connectionString = null)
    {
        var errors = new Dictionary<string, List<string>>();
        void Add(string field, string message)
        {
            if (!errors.TryGetValue(field, out var list)) errors[field] = list = [];
            list.Add(message);
        }

        if (string.IsNullOrWhiteSpace(p.Connection))
            Add("connection", "Name the connection string to use (ConnectionStrings:NAME in configuration).");
        else if (!connectionExists(p.Connection))
            Add("connection", $"No connection string named '{p.Connection}' is configured. Set ConnectionStrings:{p.Connection} in appsettings, user secrets, the environment (ConnectionStrings__{p.Connection}) or the App Service connection strings.");
        else if (TableAccount.Problem(connectionString?.Invoke(p.Connection)) is { } problem)
            Add("connection", $"The connection string '{p.Connection}' cannot be used for Table Storage: {problem}");

        if (p.Table is null || !TableName().IsMatch(p.Table) || p.Table.Equals("tables", StringComparison.OrdinalIgnoreCase))
            Add("table", "A table name is 3 to 63 letters and digits, starting with a letter (and not \"tables\").");
        if (p.EntityBytes < 0 || p.EntityBytes > MaxEntityBytes)
            Add("entityBytes", $"Entity size must be between 0 and {MaxEntityBytes:N0} bytes (one string property).");

        var operations = p.Operations ?? []; // JSON can say null
        if (operations.Count == 0) Add("operations", "Choose single, batch or both.");
        else if (operations.Distinct().Count() != operations.Count) Add("operations", "Each operation can appear once.");
        if (operations.Any(o => !Enum.IsDefined(o))) Add("operations", "Operations are single and batch.");
        if (p.BatchSize < 1 || p.BatchSize > MaxBatchSize)
            Add("batchSize", $"A batch holds 1 to {MaxBatchSize} entities (Table Storage's limit).");
        Toggle("expect100Continue", p.Expect100Continue);
        Toggle("nagle", p.Nagle);

        var variants = Math.Max(1, p.Variants().Count);
        LoadFieldsValidator.Validate(p, limits, new LoadCounting("requests", Variants: variants), Add);

        return errors.ToDictionary(e => e.Key, e => e.Value.ToArray());

        void Toggle(string field, List<bool>? settings)
        {
            if (settings is null || settings.Count == 0) Add(field, "Choose on, off or both.");
            else if (settings.Distinct().Count() != settings.Count) Add(field, "Each setting can appear once.");
        }
    }
}
