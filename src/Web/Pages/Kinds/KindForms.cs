using System.Reflection;
using BenchDashboard.Core.Benchmarks;

namespace BenchDashboard.Web.Pages.Kinds;

/// <summary>A kind with its form and partials: what the shared pages render instead of switching on the kind.</summary>
public sealed record KindPage(IBenchmarkKind Kind, Type FormType, KindPagesAttribute Pages)
{
    public IKindForm NewForm() => (IKindForm)Activator.CreateInstance(FormType)!;
}

/// <summary>
/// Every form in this assembly marked with <see cref="KindPagesAttribute"/>, matched to the registered kinds.
/// A kind without a form, or a form for no kind, stops the app at start with a message: the pages would
/// otherwise fail only when someone opens them.
/// </summary>
public sealed class KindForms
{
    readonly Dictionary<string, KindPage> byKind = new(StringComparer.OrdinalIgnoreCase);

    public KindForms(BenchmarkKinds kinds)
    {
        foreach (var type in typeof(KindForms).Assembly.GetTypes())
        {
            if (type.GetCustomAttribute<KindPagesAttribute>() is not { } pages) continue;
            if (!type.IsAssignableTo(typeof(IKindForm))) throw new InvalidOperationException($"{type.Name} has [KindPages] but is not an IKindForm.");
            var kind = kinds.Find(pages.Kind) ?? throw new InvalidOperationException($"{type.Name} is the form of kind '{pages.Kind}', which is not registered.");
            if (kind.ParametersType != type.BaseType?.GetGenericArguments().FirstOrDefault())
                throw new InvalidOperationException($"{type.Name} does not edit {kind.ParametersType.Name}, the parameters of kind '{kind.Name}'.");
            if (!byKind.TryAdd(kind.Name, new KindPage(kind, type, pages))) throw new InvalidOperationException($"Kind '{kind.Name}' has two forms.");
        }
        All = kinds.All.Select(k => byKind.TryGetValue(k.Name, out var page) ? page : throw new InvalidOperationException($"Kind '{k.Name}' has no form (a class with [KindPages(\"{k.Name}\")]).")).ToList();
    }

    /// <summary>In the kinds' registration order: the order of the tabs.</summary>
    public IReadOnlyList<KindPage> All { get; }

    public KindPage? Find(string? kind) => kind is not null && byKind.TryGetValue(kind, out var page) ? page : null;

    /// <summary>The kind named, or the first one (the default tab).</summary>
    public KindPage FindOrDefault(string? kind) => Find(kind) ?? All[0];
}
