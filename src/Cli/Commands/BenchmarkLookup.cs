using System.Globalization;

namespace BenchDashboard.Cli.Commands;

/// <summary>A saved benchmark named on the command line by id, or by its name (exact first, then ignoring case if that is unique).</summary>
public static class BenchmarkLookup
{
    public static async Task<long> IdOfAsync(DashboardClient client, string nameOrId, CancellationToken ct)
    {
        if (long.TryParse(nameOrId, NumberStyles.None, CultureInfo.InvariantCulture, out var id)) return id;
        var saved = (await client.GetAsync("/api/benchmarks", ct)).EnumerateArray()
            .Select(b => (Id: b.Integer("id"), Name: b.String("name"))).ToList();
        var exact = saved.Where(b => b.Name == nameOrId).ToList();
        var matches = exact.Count > 0 ? exact : saved.Where(b => string.Equals(b.Name, nameOrId, StringComparison.OrdinalIgnoreCase)).ToList();
        return matches switch
        {
            [var one] when one.Id is { } found => found,
            [] => throw new CliException(saved.Count == 0
                ? $"No benchmark is named \"{nameOrId}\": the dashboard has none saved."
                : $"No benchmark is named \"{nameOrId}\". Saved: {string.Join(", ", saved.Select(b => $"\"{b.Name}\" ({b.Id})"))}."),
            _ => throw new CliException($"\"{nameOrId}\" names {matches.Count} benchmarks that differ only in case: give its id ({string.Join(", ", matches.Select(b => b.Id))})."),
        };
    }
}
