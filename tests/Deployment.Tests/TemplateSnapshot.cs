using System.Text.Json.Nodes;
using BenchDashboard.TestSupport;

namespace BenchDashboard.Deployment.Tests;

/// <summary>
/// What deploy/main.bicep would ask Azure Resource Manager for with a parameter file: <c>bicep snapshot</c> evaluates
/// the template offline (loops, conditions, functions, parameter values) and leaves as expressions only what needs
/// Azure: references to deployed resources, <c>newGuid()</c> and secure parameters' values.
/// </summary>
public sealed class TemplateSnapshot(JsonObject root)
{
    /// <summary>Any subscription, group and region: the snapshot names resources with them and nothing else.</summary>
    public const string Subscription = "00000000-0000-0000-0000-000000000001", Group = "bench-rg", Region = "japaneast";

    public IReadOnlyList<JsonObject> Resources { get; } = root["predictedResources"]!.AsArray().Select(r => r!.AsObject()).ToList();

    public JsonObject Outputs { get; } = root["outputs"]!.AsObject();

    public IReadOnlyList<JsonObject> OfType(string type) => Resources.Where(r => (string?)r["type"] == type).ToList();

    public JsonObject Named(string type, string name) => OfType(type).Single(r => (string?)r["name"] == name);

    /// <summary>
    /// Snapshots <paramref name="parameters"/> (a .bicepparam's text, <c>using 'main.bicep'</c>) beside a copy of
    /// the template in a folder of its own: bicep wants a relative <c>using</c> and writes the snapshot beside it.
    /// </summary>
    public static async Task<(ToolResult Bicep, string? Snapshot)> TryAsync(string parameters, IReadOnlyDictionary<string, string>? environment = null)
    {
        using var dir = new TempDirectory();
        File.Copy(Repository.File("deploy/main.bicep"), dir.File("main.bicep"));
        await File.WriteAllTextAsync(dir.File("test.bicepparam"), parameters);

        var result = await Tool.RunAsync(Tool.Bicep, environment ?? new Dictionary<string, string>(), "snapshot", dir.File("test.bicepparam"),
            "--subscription-id", Subscription, "--resource-group", Group, "--location", Region);
        var snapshot = dir.File("test.snapshot.json");
        return (result, File.Exists(snapshot) ? await File.ReadAllTextAsync(snapshot) : null);
    }

    public static async Task<TemplateSnapshot> OfAsync(string parameters, IReadOnlyDictionary<string, string>? environment = null)
    {
        var (bicep, snapshot) = await TryAsync(parameters, environment);
        Assert.True(bicep.ExitCode == 0 && snapshot is not null, bicep.ToString());
        Assert.Empty(BicepTests.Diagnostics(bicep));
        return new TemplateSnapshot(JsonNode.Parse(snapshot)!.AsObject());
    }

    /// <summary>The production slot's app settings (a list of name and value in its siteConfig).</summary>
    public IReadOnlyDictionary<string, string> ProductionSettings(string app) =>
        Named("Microsoft.Web/sites", app)["properties"]!["siteConfig"]!["appSettings"]!.AsArray()
            .ToDictionary(s => (string)s!["name"]!, s => (string)s!["value"]!);

    /// <summary>A configuration slot's app settings (its own <c>appsettings</c> resource, an object).</summary>
    public IReadOnlyDictionary<string, string> SlotSettings(string app, string slot) =>
        Named("Microsoft.Web/sites/slots/config", $"{app}/{slot}/appsettings")["properties"]!.AsObject()
            .ToDictionary(p => p.Key, p => (string)p.Value!);

    public IReadOnlyList<string> StickySettingNames(string app) =>
        Named("Microsoft.Web/sites/config", $"{app}/slotConfigNames")["properties"]!["appSettingNames"]!.AsArray().Select(n => (string)n!).ToList();

    /// <summary>The resource id of the site or of one of its slots, as ARM writes it.</summary>
    public static string SiteId(string app, string? slot = null) =>
        $"/subscriptions/{Subscription}/resourceGroups/{Group}/providers/Microsoft.Web/sites/{app}" + (slot is null ? "" : $"/slots/{slot}");
}
