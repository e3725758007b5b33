using System.Text.Json.Serialization;

namespace BenchDashboard.Core.Runs;

/// <summary>
/// What an executor tells the reader of a run beyond its samples: the distinct error messages behind the
/// classified errors (with counts, capped so a failing run cannot grow them without bound) and plain notes
/// such as what was cleaned up. Thread-safe while a run executes; stored as JSON when it ends.
/// </summary>
public sealed class RunNotes
{
    public const int MaxDistinctMessages = 20;
    const int MaxMessageLength = 300;
    readonly Lock gate = new();

    public List<ErrorMessage> ErrorMessages { get; init; } = [];
    public List<string> Notes { get; init; } = [];

    /// <summary>What a reader must not miss, shown at the top of the run (an emulator's timings are not the service's).</summary>
    public List<string> Warnings { get; init; } = [];

    public void AddError(ErrorKind kind, string message) => AddError(kind, message, 1);

    void AddError(ErrorKind kind, string message, int count)
    {
        if (message.Length > MaxMessageLength) message = message[..MaxMessageLength] + "…";
        lock (gate)
        {
            var existing = ErrorMessages.FindIndex(m => m.Kind == kind && m.Message == message);
            if (existing >= 0) ErrorMessages[existing] = ErrorMessages[existing] with { Count = ErrorMessages[existing].Count + count };
            else if (ErrorMessages.Count < MaxDistinctMessages) ErrorMessages.Add(new ErrorMessage(kind, message, count));
        }
    }

    public void Add(string note)
    {
        lock (gate) Notes.Add(note);
    }

    public void AddWarning(string warning)
    {
        lock (gate) Warnings.Add(warning);
    }

    /// <summary>
    /// Another's notes (a runner agent's, for its shard or its turn), each said to come from <paramref name="source"/>. An
    /// agent that takes several turns says the same note each time: it is kept once, while its errors' counts add up.
    /// </summary>
    public void AddFrom(RunNotes other, string source)
    {
        foreach (var m in other.ErrorMessages) AddError(m.Kind, $"{source}: {m.Message}", m.Count);
        lock (gate)
        {
            foreach (var note in other.Notes.Select(n => $"{source}: {n}").Where(n => !Notes.Contains(n))) Notes.Add(note);
            foreach (var warning in other.Warnings.Select(w => $"{source}: {w}").Where(w => !Warnings.Contains(w))) Warnings.Add(warning);
        }
    }

    [JsonIgnore]
    public bool IsEmpty => ErrorMessages.Count == 0 && Notes.Count == 0 && Warnings.Count == 0;
}

public sealed record ErrorMessage(ErrorKind Kind, string Message, int Count);
