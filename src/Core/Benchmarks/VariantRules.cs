namespace BenchDashboard.Core.Benchmarks;

/// <summary>
/// What every kind's variants have in common: 2 to 8 of them, each named (A, B, C … by position
/// unless given) with a name that can stand in a compare key ("12/A"), and an interleave block. A kind's
/// validator checks the rest of each variant as a run of its own.
/// </summary>
public static class VariantRules
{
    public const int Min = 2;
    public const int Max = 8;
    public const int MaxInterleaveBlock = 1000;
    public const int MaxNameLength = 32;

    public static string NameAt(string? name, int position) => string.IsNullOrWhiteSpace(name) ? ((char)('A' + position)).ToString() : name.Trim();

    /// <summary>
    /// Checks the list, the names and the block; calls <paramref name="each"/> with every variant and its field
    /// prefix ("variants[1]") so the kind can check the variant's own fields.
    /// </summary>
    public static void Validate<TVariant>(IReadOnlyList<TVariant?>? variants, int interleaveBlock, Func<TVariant, string?> name,
        Action<string, string> add, Action<TVariant, string> each) where TVariant : class
    {
        if (interleaveBlock < 1 || interleaveBlock > MaxInterleaveBlock)
            add("interleaveBlock", $"The interleave block must be between 1 and {MaxInterleaveBlock:N0} operations.");
        if (variants is null) return;
        if (variants.Count < Min || variants.Count > Max)
        {
            add("variants", $"Give {Min} to {Max} variants, or leave variants out.");
            return;
        }
        var names = new HashSet<string>(StringComparer.Ordinal);
        for (var i = 0; i < variants.Count; i++)
        {
            var field = $"variants[{i}]";
            if (variants[i] is not { } variant) { add(field, "A variant is an object such as {\"name\": \"B\", …} with the fields it changes."); continue; }
            var shown = NameAt(name(variant), i);
            if (!IsName(shown))
                add($"{field}.name", $"A variant's name is 1 to {MaxNameLength} letters, digits, '.', '_' or '-' (it names the series, as in a compare key 12/{Shown(shown)}).");
            else if (!names.Add(shown))
                add($"{field}.name", $"Two variants are named '{shown}'; each needs its own name.");
            // A variant that sets nothing is allowed: two identical variants are an A/A check of the setup itself.
            each(variant, field);
        }
    }

    /// <summary>1 to <see cref="MaxNameLength"/> letters, digits, '.', '_' or '-': a name that is a compare key's series as written.</summary>
    public static bool IsName(string name) => name.Length is > 0 and <= MaxNameLength && name.All(c => char.IsAsciiLetterOrDigit(c) || c is '.' or '_' or '-');

    /// <summary>A name as a message may quote it: not too long, no control characters.</summary>
    static string Shown(string name) =>
        new string(name.Take(40).Select(c => char.IsControl(c) ? '?' : c).ToArray()) + (name.Length > 40 ? "…" : "");
}
