namespace BenchDashboard.Core.Benchmarks;

/// <summary>
/// What a count of a kind means, for <see cref="LoadFieldsValidator"/>'s limits and its messages: "requests per
/// variant" (HTTP, Table) or "operations per phase" (cache, whose phases each run the whole load again).
/// </summary>
/// <param name="Noun">What one operation is called: "requests", "operations".</param>
/// <param name="Variants">How many variants take turns; a count is per variant.</param>
/// <param name="Phases">How many times the load runs (cache phases); a count and a duration are per phase.</param>
public sealed record LoadCounting(string Noun = "requests", int Variants = 1, int Phases = 1)
{
    /// <summary>" per variant", " per phase", " per phase and variant" or "".</summary>
    public string Per => (Phases > 1, Variants > 1) switch
    {
        (true, true) => " per phase and variant",
        (true, false) => " per phase",
        (false, true) => " per variant",
        _ => "",
    };

    /// <summary>Operations a count of one stands for: one of each variant in each phase.</summary>
    public long Multiplier => (long)Math.Max(1, Variants) * Math.Max(1, Phases);
}

/// <summary>
/// Checks the load fields (<see cref="LoadParameters"/>) the same way for every kind, the load model's too
/// (<see cref="LoadModelValidator"/>): a count or a duration, concurrency, timeout and warm-up against
/// <see cref="RunLimits"/>, counting per variant and phase as the run will. Errors are keyed by the API's field names.
/// </summary>
public static class LoadFieldsValidator
{
    public static void Validate(LoadParameters p, RunLimits limits, LoadCounting counting, Action<string, string> add)
    {
        var noun = counting.Noun;
        var per = counting.Per;
        var times = Times(counting);
        if (!LoadModelValidator.LastsAsItsStages(p) && p.Requests is null == p.DurationSeconds is null)
            add("requests", $"Set either a number of {noun}{per} or a duration, not both.");
        LoadModelValidator.Validate(p, limits, repeats: Math.Max(1, counting.Phases), add);
        if (p.Setting is { } setting && !VariantRules.IsName(setting))
            add("setting", $"A setting's name is a variant's: 1 to {VariantRules.MaxNameLength} letters, digits, '.', '_' or '-'.");

        if (p.Requests is { } n && (n < 1 || n * counting.Multiplier > limits.MaxRequests))
            add("requests", times is null
                ? $"{Capital(noun)} must be between 1 and {limits.MaxRequests:N0} (RunLimits:MaxRequests)."
                : $"{Capital(noun)}{per} must be at least 1 and, times {times}, at most {limits.MaxRequests:N0} (RunLimits:MaxRequests): {n:N0} × {counting.Multiplier:N0} = {n * counting.Multiplier:N0}.");
        var phases = Math.Max(1, counting.Phases);
        if (p.DurationSeconds is { } d && (d < 1 || (long)d * phases > limits.MaxDurationSeconds))
            add("durationSeconds", phases == 1
                ? $"Duration must be between 1 and {limits.MaxDurationSeconds:N0} seconds (RunLimits:MaxDurationSeconds)."
                : $"Seconds per phase must be at least 1 and, times the {phases} phases, at most {limits.MaxDurationSeconds:N0} (RunLimits:MaxDurationSeconds).");
        if (p.Concurrency < 1 || p.Concurrency > limits.MaxConcurrency)
            add("concurrency", $"Concurrency must be between 1 and {limits.MaxConcurrency:N0} (RunLimits:MaxConcurrency).");
        if (p.Requests is { } r && p.Concurrency > r)
            add("concurrency", $"Concurrency cannot exceed the {noun}{per} ({r:N0}).");
        if (p.TimeoutMs < 1 || p.TimeoutMs > limits.MaxTimeoutMs)
            add("timeoutMs", $"Timeout must be between 1 and {limits.MaxTimeoutMs:N0} ms (RunLimits:MaxTimeoutMs).");

        // Warm-up goes round the variants like the measured load, so it is counted per variant too.
        var warmup = ((ILoadParameters)p).WarmupRequests;
        var variants = Math.Max(1, counting.Variants);
        if (warmup < 0 || (long)warmup * variants > limits.MaxWarmupRequests)
            add("warmupRequests", variants == 1
                ? $"Warm-up {noun} must be between 0 and {limits.MaxWarmupRequests:N0} (RunLimits:MaxWarmupRequests)."
                : $"Warm-up {noun} per variant must be at least 0 and, times the {variants} variants, at most {limits.MaxWarmupRequests:N0} (RunLimits:MaxWarmupRequests).");
    }

    /// <summary>"the 3 variants", "the 4 phases and 2 variants"; null when a count is the run's whole count.</summary>
    static string? Times(LoadCounting c) => (c.Phases > 1, c.Variants > 1) switch
    {
        (true, true) => $"the {c.Phases} phases and {c.Variants} variants",
        (true, false) => $"the {c.Phases} phases",
        (false, true) => $"the {c.Variants} variants",
        _ => null,
    };

    static string Capital(string noun) => char.ToUpperInvariant(noun[0]) + noun[1..];
}
