using System.Globalization;
using System.Text;

namespace BenchDashboard.Core.Text;

/// <summary>
/// One rule for the names people give (benchmarks, variants) on every store and every screen: trimmed and in Unicode's
/// composed form (NFC), so two names that look alike are one name; and refused when they hold what a page, a
/// terminal or a file cannot show as written: control characters (a line break that forges an output line, an
/// escape sequence that writes a terminal link), format characters (zero-width and bidirectional marks, which make
/// two different names look the same), line and paragraph separators, and lone surrogates (not text at all).
/// </summary>
public static class Names
{
    /// <summary>The name as it is stored and compared.</summary>
    public static string Normalize(string name)
    {
        name = name.Trim();
        // A lone surrogate cannot be normalised (nor stored as UTF-8): left as it is for Refusal to name.
        return HasLoneSurrogate(name) ? name : name.Normalize(NormalizationForm.FormC);
    }

    /// <summary>Why the name cannot be used, or null when it can.</summary>
    public static string? Refusal(string name)
    {
        if (HasLoneSurrogate(name)) return "A name must be text: it holds half of a character (a lone surrogate).";
        foreach (var rune in name.EnumerateRunes())
            switch (Rune.GetUnicodeCategory(rune))
            {
                case UnicodeCategory.Control:
                    return $"A name cannot hold control characters (U+{rune.Value:X4}): line breaks, tabs, escape sequences and NUL are refused.";
                case UnicodeCategory.Format or UnicodeCategory.LineSeparator or UnicodeCategory.ParagraphSeparator:
                    return $"A name cannot hold invisible formatting (U+{rune.Value:X4}, a zero-width, direction or separator mark): two names would look the same.";
            }
        return null;
    }

    static bool HasLoneSurrogate(string text)
    {
        for (var i = 0; i < text.Length; i++)
        {
            if (char.IsHighSurrogate(text[i]) && i + 1 < text.Length && char.IsLowSurrogate(text[i + 1])) i++;
            else if (char.IsSurrogate(text[i])) return true;
        }
        return false;
    }
}
