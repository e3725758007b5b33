using System.Text.RegularExpressions;

namespace BenchDashboard.Core.Kinds.Http.Journeys;

/// <summary>
/// A step's text with <c>{{name}}</c> references: parsed once into literal parts and variable names, so each
/// iteration only concatenates. A text without references is its own value (<see cref="IsStatic"/>).
/// </summary>
public sealed partial class Template
{
    /// <summary>Built-in variables, never extracted: what each is is said in docs/kinds/http.md.</summary>
    public static readonly IReadOnlySet<string> BuiltIns = new HashSet<string>(StringComparer.Ordinal)
        { "counter", "random", "randomString", "guid", "time", "connection", "iteration" };

    [GeneratedRegex(@"^[A-Za-z_][A-Za-z0-9_]{0,63}$")]
    public static partial Regex VariableName();

    [GeneratedRegex(@"\{\{\s*([^{}]*?)\s*\}\}")]
    private static partial Regex Reference();

    readonly string[] literals;
    readonly string[] names;

    Template(string[] literals, string[] names) => (this.literals, this.names) = (literals, names);

    public string Text => string.Concat(literals.Select((l, i) => i < names.Length ? l + "{{" + names[i] + "}}" : l));

    public bool IsStatic => names.Length == 0;

    /// <summary>The variables it refers to, in order (repeats included).</summary>
    public IReadOnlyList<string> Names => names;

    /// <summary>The text before the first reference.</summary>
    public string Prefix => literals[0];

    public static Template Parse(string text)
    {
        var literals = new List<string>();
        var names = new List<string>();
        var at = 0;
        foreach (Match m in Reference().Matches(text))
        {
            literals.Add(text[at..m.Index]);
            names.Add(m.Groups[1].Value);
            at = m.Index + m.Length;
        }
        literals.Add(text[at..]);
        return new([.. literals], [.. names]);
    }

    /// <summary>The text with each reference replaced by <paramref name="value"/>'s answer for its name.</summary>
    public string Resolve(Func<string, string> value)
    {
        if (names.Length == 0) return literals[0];
        var text = new System.Text.StringBuilder(literals[0]);
        for (var i = 0; i < names.Length; i++) text.Append(value(names[i])).Append(literals[i + 1]);
        return text.ToString();
    }

    /// <summary>
    /// A URL whose origin a variable makes (<c>{{next}}</c>, <c>https://{{host}}/</c>): judged by the target policy
    /// only once resolved, before each send.
    /// </summary>
    public static bool IsVariableOrigin(string url)
    {
        var template = Parse(url);
        if (template.IsStatic) return false;
        var prefix = template.Prefix;
        return prefix.Length == 0
            || (prefix.StartsWith("http://", StringComparison.OrdinalIgnoreCase) || prefix.StartsWith("https://", StringComparison.OrdinalIgnoreCase))
               && prefix.IndexOfAny(['/', '?', '#'], prefix.IndexOf("://", StringComparison.Ordinal) + 3) < 0;
    }

    /// <summary>
    /// The URL's origin when it is fixed (scheme, host and port free of references, so the target policy can judge it
    /// before the run); null when a reference reaches into it.
    /// </summary>
    public static Uri? StaticOrigin(string url)
    {
        var template = Parse(url);
        var prefix = template.Prefix;
        var scheme = prefix.IndexOf("://", StringComparison.Ordinal);
        if (scheme < 0) return null;
        var end = prefix.IndexOfAny(['/', '?', '#'], scheme + 3);
        if (end < 0 && !template.IsStatic) return null; // the reference is part of the authority
        var origin = end < 0 ? prefix : prefix[..end];
        return Uri.TryCreate(origin, UriKind.Absolute, out var uri) && uri.Scheme is "http" or "https" ? uri : null;
    }
}
