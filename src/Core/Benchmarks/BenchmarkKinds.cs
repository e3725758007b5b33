using System.Text.Json;
using BenchDashboard.Core.Runs;
using Microsoft.Extensions.DependencyInjection;

namespace BenchDashboard.Core.Benchmarks;

/// <summary>Every registered <see cref="IBenchmarkKind"/>, by name (case-insensitive, as the API accepts it) or by parameters type.</summary>
public sealed class BenchmarkKinds
{
    readonly Dictionary<string, IBenchmarkKind> byName = new(StringComparer.OrdinalIgnoreCase);
    readonly Dictionary<Type, IBenchmarkKind> byType = [];
    readonly Security.ParameterDisplay display;

    public BenchmarkKinds(IEnumerable<IBenchmarkKind> kinds, Security.ParameterDisplay display)
    {
        this.display = display;
        All = kinds.ToList();
        foreach (var kind in All)
        {
            if (!byName.TryAdd(kind.Name, kind)) throw new InvalidOperationException($"Two benchmark kinds are named '{kind.Name}'.");
            if (!byType.TryAdd(kind.ParametersType, kind)) throw new InvalidOperationException($"Two benchmark kinds take {kind.ParametersType.Name}.");
        }
    }

    /// <summary>In the order they were registered: the order of the tabs.</summary>
    public IReadOnlyList<IBenchmarkKind> All { get; }

    public IBenchmarkKind? Find(string? name) => name is not null && byName.TryGetValue(name, out var kind) ? kind : null;

    public IBenchmarkKind Get(string name) => Find(name) ?? throw new InvalidOperationException($"No benchmark kind named '{name}' is registered.");

    public IBenchmarkKind For(Type parametersType) =>
        byType.TryGetValue(parametersType, out var kind) ? kind : throw new InvalidOperationException($"No benchmark kind takes {parametersType.Name}.");

    /// <summary>Validates stored parameters (a saved benchmark's); returns them re-serialized in canonical form.</summary>
    public async Task<(string Json, Dictionary<string, string[]> Errors)> ValidateStoredAsync(string kindName, string parametersJson, CancellationToken ct)
    {
        if (Find(kindName) is not { } kind) return (parametersJson, new() { ["kind"] = [$"Unknown benchmark kind '{kindName}'."] });
        object parameters;
        try
        {
            parameters = kind.Deserialize(parametersJson);
        }
        catch (JsonException ex)
        {
            return (parametersJson, new() { ["parameters"] = [$"The stored parameters cannot be read: {ex.Message}"] });
        }
        return (Json.Serialize(parameters), await kind.ValidateAsync(parameters, ct));
    }

    /// <summary>
    /// What a run measured, in one line; the kind's name when its parameters cannot be read. Unless
    /// <paramref name="reveal"/> (an identified administrator), secrets in it are fingerprints (<see cref="Security.ParameterDisplay"/>).
    /// </summary>
    public string Describe(Run run, bool reveal = false) =>
        Ask(run, (kind, p) => kind.Describe(p), reveal ? run.ParametersJson : display.Redact(run.ParametersJson)) ?? run.Kind;

    /// <summary>The series a run was planned to produce (for picking phases or variants to compare).</summary>
    public IReadOnlyList<string> PlannedSeries(Run run) => Ask(run, (kind, p) => kind.PlannedSeries(p)) ?? [];

    /// <summary>The series a run's others are shown against by default (Table: both toggles on).</summary>
    public string? BaselineSeries(Run run) => Ask(run, (kind, p) => kind.BaselineSeries(p));

    /// <summary>An open-model run's schedule in words (<see cref="LoadProfile.Describe"/>); null for a closed run.</summary>
    public string? Schedule(Run run) => Ask(run, (_, p) => p is ILoadParameters load ? LoadProfile.Describe(load) : null);

    /// <summary>An open-model run's schedule, for charts of its target rate; null for a closed run.</summary>
    public LoadProfile? Profile(Run run) => Ask(run, (_, p) => p is ILoadParameters load ? LoadProfile.Of(load) : null);

    /// <summary>How much the run will do (<see cref="IBenchmarkKind.Planned"/>), or null.</summary>
    public PlannedLoad? Planned(Run run) => Ask(run, (kind, p) => kind.Planned(p));

    /// <summary>How the run's series are set side by side; as series of one operation when its kind or parameters cannot be read.</summary>
    public SeriesBasis SeriesBasis(Run run) => Ask(run, (kind, p) => kind.SeriesBasis(p)) ?? Benchmarks.SeriesBasis.Alike;

    /// <summary>Asks the run's kind about its parameters; null for an unknown kind or unreadable parameters (an old run).</summary>
    public T? Ask<T>(Run run, Func<IBenchmarkKind, object, T?> question, string? parametersJson = null) where T : class
    {
        if (Find(run.Kind) is not { } kind) return null;
        try
        {
            return question(kind, kind.Deserialize(parametersJson ?? run.ParametersJson));
        }
        catch (JsonException)
        {
            return null;
        }
    }
}

public static class BenchmarkKindRegistration
{
    /// <summary>Registers a kind: the one line that adding a kind takes (its executor and form are found by name).</summary>
    public static IServiceCollection AddBenchmarkKind<TKind>(this IServiceCollection services) where TKind : class, IBenchmarkKind =>
        services.AddSingleton<IBenchmarkKind, TKind>();
}
