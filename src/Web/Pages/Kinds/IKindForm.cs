namespace BenchDashboard.Web.Pages.Kinds;

/// <summary>
/// A kind's parameters as its form binds them. Mark the class with <see cref="KindPagesAttribute"/>: the
/// new-run form, the benchmark editor and the run page find it by the kind's name, so a kind's pages live
/// in its own folder and no shared page names it.
/// </summary>
public interface IKindForm
{
    /// <summary>The parameters record; what cannot be converted (a header line without a colon) goes into <paramref name="errors"/>.</summary>
    object ToParameters(Dictionary<string, string[]> errors);

    /// <summary>Fills the fields from stored parameters (the editor).</summary>
    void Load(object parameters);

    /// <summary>
    /// A link to the new-run form filled with an example of repeated runs of this kind against the dashboard's own
    /// targets at <paramref name="dashboard"/>, shown beside the repeat fields; null for none.
    /// </summary>
    string? RepeatExample(string dashboard);

    /// <summary>Whether the form has variant rows: only then may a repeat run each variant on its own or pick among a setting's runs.</summary>
    bool HasVariantRows { get; }
}

/// <summary>The typed half of <see cref="IKindForm"/>.</summary>
public abstract class KindForm<TParameters> : IKindForm where TParameters : class
{
    public abstract TParameters ToParameters(Dictionary<string, string[]> errors);
    public abstract void Load(TParameters parameters);
    public virtual string? RepeatExample(string dashboard) => null;
    public virtual bool HasVariantRows => false;

    object IKindForm.ToParameters(Dictionary<string, string[]> errors) => ToParameters(errors);
    void IKindForm.Load(object parameters) => Load((TParameters)parameters);
}

/// <summary>Which kind a form belongs to, the prefix of its fields ("Http" → <c>Http.Url</c>) and its partial views.</summary>
/// <param name="kind">The kind's <c>IBenchmarkKind.Name</c>.</param>
[AttributeUsage(AttributeTargets.Class)]
public sealed class KindPagesAttribute(string kind) : Attribute
{
    public string Kind { get; } = kind;

    /// <summary>Field names are "{Prefix}.{Property}", which is also how errors find their field.</summary>
    public required string Prefix { get; init; }

    /// <summary>The partial with the fields (its model is the form), e.g. "/Pages/Kinds/Tables/_TableFields.cshtml".</summary>
    public required string Fields { get; init; }

    /// <summary>A partial for the run page with what only this kind shows (its model is the run page's); optional.</summary>
    public string? Run { get; init; }

    /// <summary>
    /// A partial for the top of a finished run's page with the answer to the kind's job, in the first screen
    /// (the Table Storage matrix, the cache phases); its model is the run page's; optional.
    /// </summary>
    public string? Answer { get; init; }
}
