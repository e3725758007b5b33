namespace BenchDashboard.Core.Kinds.Http.Journeys;

/// <summary>What a journey's runs share between the runner and the pages: its limits and how its series are named.</summary>
public static class Journey
{
    /// <summary>An extracted value longer than this fails its step: values travel in URLs and headers.</summary>
    public const int MaxValueLength = 8 * 1024;

    /// <summary>How much of an answer's body is kept for extractions and checks (all of it is still read and counted).</summary>
    public const int MaxInspectedBody = 1024 * 1024;

    /// <summary>A step's series: its name, or "variant/name" in a run with variants (as the cache kind's phases).</summary>
    public static string SeriesOf(string? variant, string step) => variant is null ? step : $"{variant}/{step}";

    /// <summary>The series a journey's run makes: each step's, then the iteration's, per variant.</summary>
    public static IEnumerable<string> Series(string? variant, IEnumerable<HttpStep> steps) =>
        steps.Select(s => SeriesOf(variant, s.Name)).Append(SeriesOf(variant, JourneyValidator.IterationSeries));
}
