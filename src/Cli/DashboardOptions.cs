using System.CommandLine;

namespace BenchDashboard.Cli;

/// <summary>The options every verb takes: where the dashboard is, its key, and whether to answer in JSON.</summary>
public sealed class DashboardOptions
{
    public Option<string> Url { get; } = new("--url") { Description = "The dashboard's address (default: BENCHDASH_URL).", Recursive = true };

    public Option<string> ApiKey { get; } = new("--api-key") { Description = "The administrator's API key, sent as Authorization: Bearer (default: BENCHDASH_API_KEY).", Recursive = true };

    public Option<bool> Json { get; } = new("--json") { Description = "Print machine-readable JSON instead of text.", Recursive = true };

    /// <summary>A client for the dashboard the options (or, failing them, the environment) name.</summary>
    public DashboardClient Connect(ParseResult parse, Terminal terminal)
    {
        var url = parse.GetValue(Url) ?? terminal.Environment("BENCHDASH_URL");
        if (string.IsNullOrWhiteSpace(url)) throw new CliException("Give the dashboard's address with --url or BENCHDASH_URL.");
        if (!Uri.TryCreate(url.Trim(), UriKind.Absolute, out var address) || address.Scheme is not ("http" or "https"))
            throw new CliException($"The dashboard's address must be an http or https URL, not \"{url}\".");
        var key = parse.GetValue(ApiKey) ?? terminal.Environment("BENCHDASH_API_KEY");
        return new DashboardClient(address, key);
    }
}
