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

    /// <summary>
    /// HttpParameters has no data file yet (it comes with the data files' own change): until then a file chosen
    /// is refused by name, never dropped without a word. That change puts the file into the parameters here.
    /// </summary>
    public void Refuse(Dictionary<string, string[]> errors)
    {
        if (!IsEmpty) errors["data"] = ["This dashboard does not run data files yet: remove the file, or use {{variables}} from earlier steps."];
    }
}
