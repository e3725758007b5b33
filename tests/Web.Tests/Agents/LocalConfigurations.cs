using System.Security.Cryptography;
using System.Text.Json;
using BenchDashboard.TestSupport;
using BenchDashboard.Web.Tests.Deployment;

namespace BenchDashboard.Web.Tests.Agents;

/// <summary>
/// N App Service configurations on this machine, as scripts/configurations.sh starts them: the published site as
/// configuration processes cfg0…cfgN-1 (the web host with Runner__Mode=agent), each on a free loopback port with its
/// own environment, linked as agents to a test <see cref="Dashboard"/> with a key of its own.
/// </summary>
sealed class LocalConfigurations : IAsyncDisposable
{
    /// <summary>One configuration: its name (= its agent's), its site, its process, and its own home, temp and content folders.</summary>
    public sealed record Configuration(string Name, int Index, int Port, PublishedApp App, string Home, string Temp, string Content)
    {
        public Uri Site => new($"http://127.0.0.1:{Port}");
    }

    public IReadOnlyList<Configuration> All { get; }

    LocalConfigurations(IReadOnlyList<Configuration> all) => All = all;

    public static string NameOf(int i) => $"cfg{i}";

    /// <summary>A key per configuration, as the script generates them.</summary>
    public static Dictionary<string, string> Keys(int count) =>
        Enumerable.Range(0, count).ToDictionary(NameOf, _ => Convert.ToHexStringLower(RandomNumberGenerator.GetBytes(16)));

    /// <summary>The dashboard's side of the keys: <c>Agents__Keys__cfgI</c>.</summary>
    public static Dictionary<string, string?> DashboardSettings(Dictionary<string, string> keys) =>
        keys.ToDictionary(k => $"Agents__Keys__{k.Key}", k => (string?)k.Value);

    /// <summary>
    /// Configuration <paramref name="i"/>'s environment, the same as scripts/configurations.sh gives it: seed 000's
    /// WEBSITE_DYNAMIC_CACHE cycling 0/1/2, its slot's name, one WEBSITE_INSTANCE_ID for all (slots on one plan
    /// share instances), its own HOME and TMPDIR (the file-system kind's "home" and temp roots), Production.
    /// </summary>
    public static Dictionary<string, string?> Environment(int i, int port, string coordinator, string key, string home, string temp) => new()
    {
        ["ASPNETCORE_URLS"] = $"http://127.0.0.1:{port}", ["ASPNETCORE_ENVIRONMENT"] = "Production", ["PORT"] = null,
        ["Runner__Mode"] = "agent", ["Runner__Coordinator"] = coordinator, ["Runner__AgentName"] = NameOf(i), ["Runner__AgentKey"] = key,
        ["Runner__PublicUrl"] = $"http://127.0.0.1:{port}",
        ["WEBSITE_DYNAMIC_CACHE"] = (i % 3).ToString(), ["WEBSITE_LOCAL_CACHE_OPTION"] = "Never", ["BENCHDASHBOARD_SLOT"] = NameOf(i),
        ["WEBSITE_INSTANCE_ID"] = "local", ["HOME"] = home, ["TMPDIR"] = temp,
    };

    public static LocalConfigurations Start(PublishedOutput published, TempDirectory dir, Dashboard dashboard, Dictionary<string, string> keys)
    {
        var all = new List<Configuration>();
        foreach (var (name, i) in keys.Keys.Order(StringComparer.Ordinal).Select((n, i) => (n, i)))
        {
            var port = PublishedAppTests.FreePort();
            var home = Directory.CreateDirectory(dir.File($"{name}/home")).FullName;
            var temp = Directory.CreateDirectory(dir.File($"{name}/tmp")).FullName;
            var content = ContentOf(published, dir.File($"{name}/content"));
            var app = PublishedApp.Start(published.Folder, content, Environment(i, port, $"http://127.0.0.1:{dashboard.Port}", keys[name], home, temp), "--contentRoot", content);
            all.Add(new Configuration(name, i, port, app, home, temp, content));
        }
        return new LocalConfigurations(all);
    }

    /// <summary>
    /// A configuration's own content root, as the script makes it: the settings and the target files (what
    /// /target/files reads, and where the file-system kind's "content" root is), each slot having its own site folder.
    /// </summary>
    static string ContentOf(PublishedOutput published, string folder)
    {
        var target = Directory.CreateDirectory(Path.Combine(folder, "wwwroot", "target")).FullName;
        File.Copy(Path.Combine(published.Folder, "appsettings.json"), Path.Combine(folder, "appsettings.json"));
        foreach (var file in Directory.EnumerateFiles(Path.Combine(published.Folder, "wwwroot", "target"), "*", SearchOption.AllDirectories))
        {
            var copy = Path.Combine(target, Path.GetRelativePath(Path.Combine(published.Folder, "wwwroot", "target"), file));
            Directory.CreateDirectory(Path.GetDirectoryName(copy)!);
            File.Copy(file, copy);
        }
        return folder;
    }

    /// <summary>Until every configuration's agent is linked with a clock offset and its environment; returns each as /api/agents lists it.</summary>
    public async Task<IReadOnlyList<JsonElement>> UntilLinkedAsync(Dashboard dashboard)
    {
        var listed = new List<JsonElement>();
        foreach (var c in All)
            listed.Add((await dashboard.UntilAgentAsync(c.Name, linked: true, a =>
                a.GetProperty("clockOffsetMs").ValueKind == JsonValueKind.Number && a.GetProperty("environment").ValueKind == JsonValueKind.Object, seconds: 60)).Agent);
        return listed;
    }

    public async ValueTask DisposeAsync()
    {
        foreach (var c in All) await c.App.DisposeAsync();
    }
}
