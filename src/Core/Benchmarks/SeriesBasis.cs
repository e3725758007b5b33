namespace BenchDashboard.Core.Benchmarks;

/// <summary>
/// How a kind's run may set its series side by side, so that its page and reports frame one answer one way: on one
/// basis, never blending what is unlike.
/// </summary>
/// <param name="Blended">
/// Whether all series together make a summary: true when they repeat one operation (an HTTP request under several
/// settings); false when they are unlike operations (a single insert and a batch of ten, creating files and listing
/// them), whose blended median describes none of them.
/// </param>
/// <param name="Percentages">
/// Whether each series is shown as a percentage of a baseline series; false when only the kind's own answer compares
/// like with like (files: each phase across locations, never one phase against another).
/// </param>
/// <param name="Unit">What figures are per when it is not a sample ("entity": a batch request carries many); null: per sample.</param>
/// <param name="PerSample">For <see cref="Unit"/>: how many units a sample of each series carries (a series not listed: 1).</param>
/// <param name="Iterations">
/// The series (its name's last part: "iteration", "A/iteration") whose samples are whole iterations of the other
/// series' requests (a journey's steps), not requests of their own: the run's count, rate and percentiles leave them
/// out, and they are counted apart. Null: every sample is a request.
/// </param>
public sealed record SeriesBasis(bool Blended, bool Percentages, string? Unit = null, IReadOnlyDictionary<string, int>? PerSample = null, string? Iterations = null)
{
    /// <summary>Series that repeat one operation: a summary of them all, and each as a percentage of the baseline per sample.</summary>
    public static readonly SeriesBasis Alike = new(Blended: true, Percentages: true);

    public int UnitsOf(string series) => PerSample?.GetValueOrDefault(series, 1) ?? 1;

    /// <summary>Whether the series is <see cref="Iterations"/>, alone or after a variant's or agent's prefix.</summary>
    public bool IsIterations(string series) =>
        Iterations is { } it && (series == it || series.EndsWith("/" + it, StringComparison.Ordinal));
}
