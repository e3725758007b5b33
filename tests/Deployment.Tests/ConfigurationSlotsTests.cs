using System.Text.Json.Nodes;

namespace BenchDashboard.Deployment.Tests;

/// <summary>
/// deploy/main.bicep's App Service configurations, read from what the template would ask Azure for
/// (<see cref="TemplateSnapshot"/>): a slot per configuration on the production slot's plan, each an agent of the
/// production dashboard with its own key, every setting under test sticky, and the default still one staging slot.
/// </summary>
public sealed class ConfigurationSlotsTests
{
    const string App = "benchapp";
    const string Slots = "Microsoft.Web/sites/slots";
    static readonly string[] DynamicCache = ["cfg0", "cfg1", "cfg2"];

    /// <summary>The parameter file in deploy/ reads the app's name and secrets from the environment.</summary>
    static readonly Dictionary<string, string> DeployerEnvironment = new()
    {
        ["BENCH_APP_NAME"] = App, ["BENCH_API_KEY"] = "api-key-of-the-test", ["BENCH_ADMIN_PASSWORD"] = "password-of-the-test",
    };

    static Task<TemplateSnapshot> DynamicCacheAsync() =>
        TemplateSnapshot.OfAsync(File.ReadAllText(Repository.File("deploy/configurations.dynamic-cache.bicepparam")), DeployerEnvironment);

    static string Parameters(string configurations = "") =>
        $"using 'main.bicep'\nparam appName = '{App}'\nparam apiKey = 'k'\nparam adminPassword = 'p'\n{configurations}";

    [Fact]
    public async Task TheDynamicCacheParameterFileBuildsAgainstTheTemplate()
    {
        var result = await Tool.RunAsync(Tool.Bicep, DeployerEnvironment, "build-params", Repository.File("deploy/configurations.dynamic-cache.bicepparam"), "--stdout");

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.Empty(BicepTests.Diagnostics(result));
        var configurations = JsonNode.Parse(JsonNode.Parse(result.Out)!["parametersJson"]!.GetValue<string>())!["parameters"]!["configurations"]!["value"]!.AsArray();
        Assert.Equal(["cfg0 0", "cfg1 1", "cfg2 2"], configurations.Select(c => $"{c!["name"]} {c["appSettings"]!["WEBSITE_DYNAMIC_CACHE"]}"));
    }

    [Fact]
    public async Task EachConfigurationIsASlotOnTheProductionSlotsPlan()
    {
        var snapshot = await DynamicCacheAsync();

        var plan = Assert.Single(snapshot.OfType("Microsoft.Web/serverfarms"));
        var slots = snapshot.OfType(Slots);
        Assert.Equal(DynamicCache.Select(c => $"{App}/{c}"), slots.Select(s => (string)s["name"]!));
        Assert.Equal((string)plan["id"]!, (string)snapshot.Named("Microsoft.Web/sites", App)["properties"]!["serverFarmId"]!);
        Assert.All(slots, slot => Assert.Equal((string)plan["id"]!, (string)slot["properties"]!["serverFarmId"]!));
    }

    [Fact]
    public async Task EachConfigurationSlotRunsAnAgentOfTheProductionDashboardWithItsOwnKey()
    {
        var snapshot = await DynamicCacheAsync();
        var production = snapshot.ProductionSettings(App);

        foreach (var (name, index) in DynamicCache.Select((name, index) => (name, index)))
        {
            var settings = snapshot.SlotSettings(App, name);
            Assert.Equal(name, settings["BENCHDASHBOARD_SLOT"]);
            Assert.Equal($"{index}", settings["WEBSITE_DYNAMIC_CACHE"]);
            Assert.Equal("agent", settings["Runner__Mode"]);
            Assert.Equal(name, settings["Runner__AgentName"]);
            Assert.Equal("Production", settings["ASPNETCORE_ENVIRONMENT"]);
            Assert.DoesNotContain(settings.Keys, k => k.StartsWith("Auth__", StringComparison.Ordinal));
            // Host names exist only once Azure made the sites: the production slot's for the dashboard, the slot's own for its address.
            Assert.Equal($"[format('https://{{0}}', reference('{TemplateSnapshot.SiteId(App)}', '2023-12-01').defaultHostName)]", settings["Runner__Coordinator"]);
            Assert.Equal($"[format('https://{{0}}', reference('{TemplateSnapshot.SiteId(App, name)}', '2023-12-01').defaultHostName)]", settings["Runner__PublicUrl"]);
            // The dashboard holds the very key the agent presents.
            Assert.Equal(production[$"Agents__Keys__{name}"], settings["Runner__AgentKey"]);
            Assert.Contains(name, settings["Runner__AgentKey"]);
            Assert.Contains("newGuid()", settings["Runner__AgentKey"]);
        }
        Assert.Equal(3, DynamicCache.Select(name => production[$"Agents__Keys__{name}"]).Distinct().Count());
        Assert.DoesNotContain("WEBSITE_DYNAMIC_CACHE", production.Keys);
        Assert.DoesNotContain(production.Keys, k => k.StartsWith("Runner__", StringComparison.Ordinal));
    }

    [Fact]
    public async Task EverySettingOfAConfigurationSlotThatProductionDoesNotShareIsSticky()
    {
        var snapshot = await TemplateSnapshot.OfAsync(Parameters("""
            param configurations = [
              { name: 'local', appSettings: { WEBSITE_LOCAL_CACHE_OPTION: 'Always', WEBSITE_RUN_FROM_PACKAGE: '1' }
                siteSettings: { alwaysOn: false, http20Enabled: false, use32BitWorkerProcess: true, clientAffinityEnabled: true } }
              { name: 'shared', appSettings: { WEBSITE_LOCAL_CACHE_OPTION: 'Never', WEBSITE_DYNAMIC_CACHE: '0' }, siteSettings: { clientAffinityEnabled: false } }
            ]
            """));

        var production = snapshot.ProductionSettings(App);
        var sticky = snapshot.StickySettingNames(App);
        foreach (var slot in new[] { "local", "shared" })
        {
            var own = snapshot.SlotSettings(App, slot).Where(s => production.GetValueOrDefault(s.Key) != s.Value).Select(s => s.Key).ToList();
            Assert.Contains("Runner__AgentKey", own);
            Assert.All(own, name => Assert.Contains(name, sticky));
        }
        Assert.Contains("WEBSITE_RUN_FROM_PACKAGE", sticky);
        Assert.Contains("Agents__Keys__local", sticky);
        Assert.Contains("Agents__Keys__shared", sticky);

        // Site settings go to the slot's siteConfig, ARR affinity to the slot itself; what is not given stays production's.
        var local = snapshot.Named(Slots, $"{App}/local")["properties"]!;
        var shared = snapshot.Named(Slots, $"{App}/shared")["properties"]!;
        Assert.Equal([false, false, true, true], new[] { local["siteConfig"]!["alwaysOn"], local["siteConfig"]!["http20Enabled"], local["siteConfig"]!["use32BitWorkerProcess"], local["clientAffinityEnabled"] }.Select(v => (bool)v!));
        Assert.Null(local["siteConfig"]!["clientAffinityEnabled"]);
        Assert.Equal([true, true, false], new[] { shared["siteConfig"]!["alwaysOn"], shared["siteConfig"]!["http20Enabled"], shared["clientAffinityEnabled"] }.Select(v => (bool)v!));
        Assert.Equal("/healthz", (string)shared["siteConfig"]!["healthCheckPath"]!);
    }

    [Fact]
    public async Task NoOutputCarriesAnAgentKey()
    {
        var snapshot = await DynamicCacheAsync();
        var compiled = await Tool.RunAsync(Tool.Bicep, "build", Repository.File("deploy/main.bicep"), "--stdout");

        Assert.Equal(DynamicCache, snapshot.Outputs["configurationSlots"]!.AsArray().Select(n => (string)n!));
        Assert.True(compiled.ExitCode == 0, compiled.ToString());
        foreach (var outputs in new[] { snapshot.Outputs.ToJsonString(), JsonNode.Parse(compiled.Out)!["outputs"]!.ToJsonString() })
            Assert.All(new[] { "agentKey", "agent-key", "newGuid", "Agents__Keys", "Runner__AgentKey", "appsettings" }, word => Assert.DoesNotContain(word, outputs));
    }

    [Fact]
    public async Task TheDefaultParametersStillGiveExactlyOneStagingSlot()
    {
        var snapshot = await TemplateSnapshot.OfAsync(Parameters());

        var slot = Assert.Single(snapshot.OfType(Slots));
        Assert.Equal($"{App}/staging", (string)slot["name"]!);
        Assert.Empty(snapshot.OfType("Microsoft.Web/sites/slots/config"));
        Assert.Equal(["BENCHDASHBOARD_SLOT", "WEBSITE_DYNAMIC_CACHE", "Database__Provider", "ConnectionStrings__results"], snapshot.StickySettingNames(App));
        Assert.DoesNotContain(snapshot.ProductionSettings(App).Keys, k => k.StartsWith("Agents__", StringComparison.Ordinal));
        Assert.StartsWith("[format('https://{0}', reference(", (string)snapshot.Outputs["stagingUrl"]!);
        Assert.Empty(snapshot.Outputs["configurationSlots"]!.AsArray());
    }

    [Theory]
    [InlineData("create")]
    [InlineData("existing")]
    public async Task WithAResultsDatabaseOnlyTheProductionSlotHasOne(string database)
    {
        var snapshot = await TemplateSnapshot.OfAsync(Parameters($$"""
            param database = '{{database}}'
            param keyVaultName = 'benchvault'
            param postgresAdminPassword = 'a-password-of-the-test'
            param configurations = [ { name: 'cfg0' }, { name: 'cfg1' } ]
            """));

        Assert.Equal("postgresql", snapshot.ProductionSettings(App)["Database__Provider"]);
        Assert.All(new[] { "cfg0", "cfg1" }, slot => Assert.DoesNotContain(snapshot.SlotSettings(App, slot).Keys, k => k.StartsWith("Database__", StringComparison.Ordinal) || k.StartsWith("ConnectionStrings__", StringComparison.Ordinal)));
        Assert.Equal(database == "create" ? [$"{App}-db/bench"] : [], snapshot.OfType("Microsoft.DBforPostgreSQL/flexibleServers/databases").Select(d => (string)d["name"]!));
        Assert.Equal(database == "existing" ? 1 : 0, snapshot.OfType("Microsoft.Authorization/roleAssignments").Count);
    }

    [Fact]
    public async Task AKeySeedSomeoneCouldGuessIsRefused()
    {
        var (bicep, snapshot) = await TemplateSnapshot.TryAsync(Parameters("param agentKeySeed = 'short'\nparam configurations = [ { name: 'cfg0' }, { name: 'cfg1' } ]"));

        Assert.Null(snapshot);
        Assert.Contains("minimum allowable length is 16", bicep.Out + bicep.Error);
    }

    [Theory]
    [InlineData("cfg-0")]
    [InlineData("Cfg0")]
    [InlineData("0cfg")]
    public async Task AConfigurationNameThatCannotNameASettingIsRefused(string name)
    {
        var (bicep, snapshot) = await TemplateSnapshot.TryAsync(Parameters($"param configurations = [ {{ name: '{name}' }}, {{ name: 'cfg1' }} ]"));

        Assert.Null(snapshot);
        Assert.NotEqual(0, bicep.ExitCode);
        Assert.Contains($"Configuration \"{name}\": a configuration's name is lower-case letters and digits", bicep.Out + bicep.Error);
    }
}
