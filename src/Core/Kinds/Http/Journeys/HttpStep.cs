using System.Text.Json.Serialization;

namespace BenchDashboard.Core.Kinds.Http.Journeys;

/// <summary>
/// One request of a journey: its text may use <c>{{variables}}</c> (<see cref="Template"/>), extracted by earlier
/// steps or built in. Its samples are the series named after it.
/// </summary>
public sealed record HttpStep
{
    public string Name { get; init; } = "";
    public string Method { get; init; } = "GET";
    public string Url { get; init; } = "";
    public Dictionary<string, string>? Headers { get; init; }
    public string? Body { get; init; }

    /// <summary>Values taken from the answer into variables for the steps after it.</summary>
    public List<HttpExtract>? Extract { get; init; }

    /// <summary>What the answer must satisfy; the first that fails makes the step's sample a "check failed" error.</summary>
    public List<HttpCheck>? Checks { get; init; }

    /// <summary>The pause after this step before the next (none after the last); never part of a latency.</summary>
    public HttpThinkTime? ThinkTime { get; init; }
}

/// <summary>A value into a variable, from exactly one of <see cref="Json"/>, <see cref="Header"/> or <see cref="Regex"/>.</summary>
public sealed record HttpExtract
{
    public string Name { get; init; } = "";

    /// <summary>A JSON path into the body (<see cref="JsonPath"/>): <c>$.items[0].id</c>.</summary>
    public string? Json { get; init; }

    /// <summary>A response header's name.</summary>
    public string? Header { get; init; }

    /// <summary>A regular expression over the body: its first group when it has one, else the whole match.</summary>
    public string? Regex { get; init; }

    /// <summary>The value when the answer has none; without it a missing value fails the step.</summary>
    public string? Default { get; init; }
}

/// <summary>
/// One check on an answer, exactly one of <see cref="Status"/>, <see cref="Header"/> (present, or equal to
/// <see cref="EqualTo"/>), <see cref="Contains"/>, or <see cref="Json"/> with one of <see cref="EqualTo"/>,
/// <see cref="Exists"/> or <see cref="Matches"/>.
/// </summary>
public sealed record HttpCheck
{
    public int? Status { get; init; }
    public string? Header { get; init; }
    public string? Contains { get; init; }
    public string? Json { get; init; }

    [JsonPropertyName("equals")]
    public string? EqualTo { get; init; }
    public bool? Exists { get; init; }

    /// <summary>A regular expression the JSON value's text must match.</summary>
    public string? Matches { get; init; }
}

/// <summary>
/// A pause between steps: fixed (<see cref="Ms"/>), uniform between <see cref="MinMs"/> and <see cref="MaxMs"/>,
/// or exponential with mean <see cref="MeanMs"/>; exactly one shape.
/// </summary>
public sealed record HttpThinkTime
{
    public double? Ms { get; init; }
    public double? MinMs { get; init; }
    public double? MaxMs { get; init; }
    public double? MeanMs { get; init; }

    /// <summary>Longest pause a draw may give (an exponential's tail is cut here).</summary>
    public const double MaxPauseMs = 60_000;

    /// <summary>One pause in ms, drawn with <paramref name="random"/>.</summary>
    public double Draw(Random random) =>
        Ms ?? (MeanMs is { } mean ? Math.Min(MaxPauseMs, -mean * Math.Log(1 - random.NextDouble()))
            : MinMs is { } min && MaxMs is { } max ? min + (max - min) * random.NextDouble() : 0);
}
