using System.Net;
using System.Net.Http.Json;
using System.Text;
using System.Text.Json;

namespace BenchDashboard.Web.Tests.Agents;

/// <summary>
/// <c>onEach</c> and <c>rounds</c> through the API: refused with the field named, accepted for every kind, kept with
/// a saved benchmark (its export and import, and its runs), and shown back on the run.
/// </summary>
public sealed class OnEachApiTests
{
    const string Key = "on-each-key";

    /// <summary>No agent ever links here: queued runs are only looked at, never measured. A run stores at most 10,000 samples.</summary>
    static DashboardFactory Dashboard() => new(new() { ["Auth:Required"] = "always", ["Auth:ApiKey"] = Key, ["Runner:Embedded"] = "false", ["RunLimits:MaxSamplesPerRun"] = "10000" });

    static HttpClient Admin(DashboardFactory app)
    {
        var client = app.CreateClient();
        client.DefaultRequestHeaders.Add("X-Api-Key", Key);
        return client;
    }

    static StringContent Body(string json) => new(json, Encoding.UTF8, "application/json");

    const string Http = "\"kind\":\"http\",\"url\":\"http://127.0.0.1:1/\",\"requests\":10";

    [Theory]
    [InlineData($$"""{{{Http}},"onEach":["cfg0"]}""", "onEach", "onEach names 2 to 8 agents (it names 1)")]
    [InlineData($$"""{{{Http}},"onEach":["a","b","c","d","e","f","g","h","i"]}""", "onEach", "(it names 9)")]
    [InlineData($$"""{{{Http}},"onEach":["cfg0","cfg 1"]}""", "onEach[1]", "letters, digits")]
    [InlineData($$"""{{{Http}},"onEach":["cfg0","cfg0"]}""", "onEach[1]", "named twice")]
    [InlineData($$"""{{{Http}},"onEach":["cfg0",7]}""", "onEach[1]", "is text")]
    [InlineData($$"""{{{Http}},"onEach":"cfg0,cfg1"}""", "onEach", "a list of agent names")]
    [InlineData($$"""{{{Http}},"onEach":["cfg0","cfg1"],"rounds":0}""", "rounds", "from 1 to 20")]
    [InlineData($$"""{{{Http}},"onEach":["cfg0","cfg1"],"rounds":21}""", "rounds", "from 1 to 20")]
    [InlineData($$"""{{{Http}},"onEach":["cfg0","cfg1"],"rounds":"three"}""", "rounds", "whole number")]
    [InlineData($$"""{{{Http}},"rounds":3}""", "rounds", "goes with onEach")]
    [InlineData("""{"kind":"http","url":"http://127.0.0.1:1/","requests":4000,"onEach":["cfg0","cfg1","cfg2"]}""", "rounds", "4,000 operations on each of 3 agents 3 times is 36,000 samples; a run stores at most 10,000")]
    [InlineData($$"""{{{Http}},"concurrency":2,"onEach":["cfg0","cfg1"],"agents":2}""", "onEach", "not both")]
    public async Task ABadOnEachIsA400NamingItsFieldAndQueuesNothing(string body, string field, string message)
    {
        await using var app = Dashboard();
        var admin = Admin(app);

        var response = await admin.PostAsync("/api/runs", Body(body));

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        var errors = (await response.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("errors");
        Assert.True(errors.TryGetProperty(field, out var messages), $"no error for {field}: {errors}");
        Assert.Contains(message, messages[0].GetString());
        Assert.Empty(await admin.GetFromJsonAsync<JsonElement[]>("/api/runs") ?? []);
    }

    [Theory]
    [InlineData("""{"kind":"http","url":"http://127.0.0.1:1/","requests":10}""")]
    [InlineData("""{"kind":"fileSystem","directories":["temp"],"fileCount":10,"largeFileMiB":0}""")]
    [InlineData("""{"kind":"cache","requests":10}""")]
    public async Task EveryKindRunsOnEachNamedAgentWithItsWholeLoad(string parameters)
    {
        await using var app = Dashboard();
        var admin = Admin(app);
        var body = parameters.TrimEnd('}') + ",\"onEach\":[\"cfg0\",\"cfg1\",\"cfg2\"],\"rounds\":2}";

        var response = await admin.PostAsync("/api/runs", Body(body));

        Assert.True(response.StatusCode == HttpStatusCode.Created, await response.Content.ReadAsStringAsync());
        var created = await response.Content.ReadFromJsonAsync<JsonElement>();
        var run = await admin.GetFromJsonAsync<JsonElement>($"/api/runs/{created.GetProperty("id").GetInt64()}?includeStats=false");
        foreach (var shown in new[] { created, run })
        {
            Assert.Equal(["cfg0", "cfg1", "cfg2"], shown.GetProperty("onEach").GetProperty("agents").EnumerateArray().Select(a => a.GetString()));
            Assert.Equal(2, shown.GetProperty("onEach").GetProperty("rounds").GetInt32());
            Assert.Equal(3, shown.GetProperty("agentsAsked").GetInt32()); // claimed by the agents' coordinator, as runs with agents are
        }
        // Nothing is divided: the parameters are those asked, for each agent.
        var asked = JsonDocument.Parse(parameters).RootElement;
        foreach (var field in asked.EnumerateObject().Where(f => f.Name != "kind"))
            Assert.Equal(field.Value.ToString(), run.GetProperty("parameters").GetProperty(field.Name).ToString());
    }

    [Fact]
    public async Task RoundsDefaultToThreeAndARunWithoutOnEachShowsNone()
    {
        await using var app = Dashboard();
        var admin = Admin(app);

        var onEach = await (await admin.PostAsync("/api/runs", Body($$"""{{{Http}},"onEach":["cfg0","cfg1"]}"""))).Content.ReadFromJsonAsync<JsonElement>();
        var plain = await (await admin.PostAsync("/api/runs", Body("{" + Http + "}"))).Content.ReadFromJsonAsync<JsonElement>();

        Assert.Equal(3, onEach.GetProperty("onEach").GetProperty("rounds").GetInt32());
        Assert.Equal(JsonValueKind.Null, plain.GetProperty("onEach").ValueKind);
        Assert.Equal(JsonValueKind.Null, plain.GetProperty("agentsAsked").ValueKind);
    }

    [Fact]
    public async Task RepeatedRunsEachRunOnEachAgentAndAreComparedByAgent()
    {
        await using var app = Dashboard();
        var admin = Admin(app);

        var response = await admin.PostAsync("/api/runs", Body($$"""{{{Http}},"repeat":2,"onEach":["cfg0","cfg1"],"rounds":2}"""));

        Assert.True(response.StatusCode == HttpStatusCode.Created, await response.Content.ReadAsStringAsync());
        var repeat = await response.Content.ReadFromJsonAsync<JsonElement>();
        var runs = repeat.GetProperty("runs").EnumerateArray().ToList();
        Assert.Equal(2, runs.Count);
        Assert.All(runs, r => Assert.Equal(["cfg0", "cfg1"], r.GetProperty("onEach").GetProperty("agents").EnumerateArray().Select(a => a.GetString())));
        var (first, second) = (runs[0].GetProperty("id").GetInt64(), runs[1].GetProperty("id").GetInt64());
        // A group per agent, of its series in every repeat: each agent's figures over the repeats, side by side.
        Assert.Equal([$"{first}/cfg0+{second}/cfg0", $"{first}/cfg1+{second}/cfg1"], repeat.GetProperty("groups").EnumerateArray().Select(g => g.GetString()));
    }

    [Fact]
    public async Task ASavedBenchmarkKeepsItsAgentsThroughExportImportAndItsRuns()
    {
        await using var app = Dashboard();
        var admin = Admin(app);
        const string definition = """{"name":"dynamic cache","kind":"fileSystem","parameters":{"directories":["temp"],"fileCount":10,"largeFileMiB":0},"onEach":["cfg0","cfg1","cfg2"],"rounds":4}""";

        var created = await admin.PostAsync("/api/benchmarks", Body(definition));
        Assert.True(created.StatusCode == HttpStatusCode.Created, await created.Content.ReadAsStringAsync());
        var benchmark = await created.Content.ReadFromJsonAsync<JsonElement>();
        var id = benchmark.GetProperty("id").GetInt32();
        Assert.Equal(["cfg0", "cfg1", "cfg2"], benchmark.GetProperty("onEach").EnumerateArray().Select(a => a.GetString()));
        Assert.Equal(4, benchmark.GetProperty("rounds").GetInt32());

        // Run now: the run takes the benchmark's agents and rounds.
        var run = await (await admin.PostAsync($"/api/benchmarks/{id}/runs", null)).Content.ReadFromJsonAsync<JsonElement>();
        Assert.Equal(["cfg0", "cfg1", "cfg2"], run.GetProperty("onEach").GetProperty("agents").EnumerateArray().Select(a => a.GetString()));
        Assert.Equal(4, run.GetProperty("onEach").GetProperty("rounds").GetInt32());

        // The export carries them, and an import of it changes nothing.
        var exported = await admin.GetStringAsync("/api/benchmarks/export");
        var entry = JsonDocument.Parse(exported).RootElement.GetProperty("benchmarks")[0];
        Assert.Equal(3, entry.GetProperty("onEach").GetArrayLength());
        Assert.Equal(4, entry.GetProperty("rounds").GetInt32());
        var imported = await (await admin.PostAsync("/api/benchmarks/import", Body(exported))).Content.ReadFromJsonAsync<JsonElement>();
        Assert.Empty(imported.GetProperty("updated").EnumerateArray());

        // A replace without them ends them; one with agents as well is refused, naming onEach.
        var both = await admin.PutAsync($"/api/benchmarks/{id}", Body(definition.Replace("\"rounds\":4", "\"rounds\":4,\"agents\":2")));
        Assert.Equal(HttpStatusCode.BadRequest, both.StatusCode);
        Assert.Contains("\"onEach\"", await both.Content.ReadAsStringAsync());
        var badName = await admin.PutAsync($"/api/benchmarks/{id}", Body(definition.Replace("\"cfg1\"", "\"cfg/1\"")));
        Assert.Contains("\"onEach[1]\"", await badName.Content.ReadAsStringAsync());
        var plain = await (await admin.PutAsync($"/api/benchmarks/{id}", Body(definition.Replace(",\"onEach\":[\"cfg0\",\"cfg1\",\"cfg2\"],\"rounds\":4", "")))).Content.ReadFromJsonAsync<JsonElement>();
        Assert.Equal(JsonValueKind.Null, plain.GetProperty("onEach").ValueKind);
    }
}
