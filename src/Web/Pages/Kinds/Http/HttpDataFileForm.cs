using BenchDashboard.Core.Kinds.Http.Journeys;

namespace BenchDashboard.Web.Pages.Kinds.Http;

/// <summary>
/// A journey's data file as the form sends it: the page's script reads the chosen file in the browser into
/// <see cref="Content"/>, so the post carries the API's <c>"data": {"name", "format", "mode", "content"}</c>.
/// </summary>
public sealed class HttpDataFileForm
{
    public string? Name { get; set; }

    /// <summary>"csv" or "jsonl" (one JSON object a line).</summary>
    public string Format { get; set; } = "csv";

    /// <summary>"sequential", "random" or "once" (each row once per run).</summary>
    public string Mode { get; set; } = "sequential";
    public string? Content { get; set; }

    public bool IsEmpty => string.IsNullOrEmpty(Content);

    /// <summary>The API's data file, or null when none was chosen (its checks are the API's, keyed <c>data.*</c>).</summary>
    public HttpDataFile? ToDataFile() =>
        IsEmpty ? null : new HttpDataFile { Name = (Name ?? "").Trim(), Format = Format.Trim(), Mode = Mode.Trim(), Content = Content! };

    /// <summary>
    /// A stored file back into the form, content and all: only the benchmark's edit page loads one, and only the
    /// administrator may open it (the API gives them the content too), so saving keeps the file.
    /// </summary>
    public static HttpDataFileForm From(HttpDataFile? data) =>
        data is null ? new() : new() { Name = data.Name, Format = data.Format, Mode = data.Mode, Content = data.Content };
}
