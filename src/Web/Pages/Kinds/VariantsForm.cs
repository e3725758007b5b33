using BenchDashboard.Core.Benchmarks;

namespace BenchDashboard.Web.Pages.Kinds;

/// <summary>A further variant as a form binds it: a row whose blank fields are the first variant's.</summary>
public interface IVariantRow
{
    bool IsEmpty { get; }
}

/// <summary>
/// The form of a kind with variants: its fields describe the first variant, and rows below add the others, each
/// with only the fields that differ. The form shows the filled rows and empty ones up to the most a run may have.
/// </summary>
public abstract class VariantsForm<TParameters, TRow>(int requests, int durationSeconds, int timeoutMs)
    : LoadModelForm<TParameters>(requests, durationSeconds, timeoutMs)
    where TParameters : LoadParameters where TRow : IVariantRow, new()
{
    /// <summary>The other variants, measured in the same run as the fields above.</summary>
    public List<TRow> Variants { get; set; } = [];

    /// <summary>The name of the variant the fields above describe, when there are others.</summary>
    public string FirstVariantName { get; set; } = "A";

    public int InterleaveBlock { get; set; } = 1;

    public override bool HasVariantRows => true;

    /// <summary>Rows the form renders: every filled one and empty ones up to the most a run may have.</summary>
    public IReadOnlyList<TRow> VariantRows =>
        Variants.Where(v => !v.IsEmpty).Concat(Enumerable.Range(0, VariantRules.Max).Select(_ => new TRow()))
            .Take(VariantRules.Max - 1).ToList();

    /// <summary>How many variants the run measures: the fields above and each filled row.</summary>
    protected int VariantCount => Variants.Count(v => !v.IsEmpty) + 1;

    /// <summary>
    /// Null without filled rows; else <paramref name="first"/> (the fields above, under <see cref="FirstVariantName"/>),
    /// then each filled row as <paramref name="toVariant"/> reads it, its errors under <c>variants[i]</c>.
    /// </summary>
    protected List<TVariant>? VariantsOf<TVariant>(TVariant first, Func<TRow, string, TVariant> toVariant)
    {
        var others = Variants.Where(v => !v.IsEmpty).ToList();
        if (others.Count == 0) return null;
        return [first, .. others.Select((v, i) => toVariant(v, $"variants[{i + 1}]"))];
    }

    /// <summary>The stored variants back into the form: the first's name here (its fields folded into those above), the others as rows.</summary>
    protected void LoadVariants<TVariant>(IReadOnlyList<TVariant> variants, Func<TVariant, string?> name, Func<TVariant, int, TRow> toRow)
    {
        FirstVariantName = VariantRules.NameAt(name(variants[0]), 0);
        Variants = variants.Skip(1).Select((v, i) => toRow(v, i + 1)).ToList();
    }
}
