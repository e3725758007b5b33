using Microsoft.EntityFrameworkCore.Storage.ValueConversion;

namespace BenchDashboard.Core.Text;

/// <summary>
/// Text made storable on every provider before it is written: PostgreSQL refuses a NUL in text (22021), and Npgsql
/// refuses a lone surrogate (it is not UTF-8); SQLite would keep both and hand a terminal a NUL later. Each becomes
/// U+FFFD, the replacement character. Applied to every string column (<see cref="Data.BenchDbContext"/>): what
/// arrives from outside (an error message, a receiver's status line) can no longer make a write fail and be retried
/// forever. Names are refused before this (<see cref="Names"/>), so it changes none the user typed.
/// </summary>
public sealed class StorableText() : ValueConverter<string, string>(text => Of(text), text => text)
{
    public static string Of(string text)
    {
        var i = 0;
        while (i < text.Length && text[i] != '\0' && !char.IsSurrogate(text[i])) i++;
        if (i == text.Length) return text;
        var chars = text.ToCharArray();
        for (; i < chars.Length; i++)
        {
            if (chars[i] == '\0') chars[i] = '\uFFFD';
            else if (char.IsHighSurrogate(chars[i]) && i + 1 < chars.Length && char.IsLowSurrogate(chars[i + 1])) i++;
            else if (char.IsSurrogate(chars[i])) chars[i] = '\uFFFD';
        }
        return new string(chars);
    }
}
