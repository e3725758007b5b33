using System.Net;
using System.Net.Http.Json;
using System.Text;
using System.Text.Json;
using System.Text.RegularExpressions;
using Microsoft.AspNetCore.Mvc.Testing;

namespace BenchDashboard.Web.Tests.Pages;

/// <summary>
/// The steps editor: the one-request form shows no step cards; posted cards queue a journey or save a benchmark
/// with the API's own steps; errors keyed by step come back beside the card's field; a stored journey edits in cards.
/// </summary>
public sealed partial class JourneyFormTests
{
    static DashboardFactory Dashboard() => new(new() { ["Runner:Embedded"] = "false" });

    static HttpClient Client(DashboardFactory app) => app.CreateClient(new WebApplicationFactoryClientOptions { AllowAutoRedirect = false });

    static List<KeyValuePair<string, string>> LoadFields(string html) =>
    [
        new("kind", "http"), new("Http.Url", ""), new("Http.Method", "GET"), new("Http.Mode", "requests"), new("Http.Requests", "5"),
        new("Http.Concurrency", "1"), new("Http.TimeoutMs", "1000"), new("Http.Model", "closed"), new("Http.KeepAlive", "true"),
        new("__RequestVerificationToken", FormPost.Token(html)),
    ];

    /// <summary>A card's fields as a browser posts them.</summary>
    static IEnumerable<KeyValuePair<string, string>> Card(int i, string name, string method, string url, string headers = "", string body = "", string extract = "", string checks = "", string thinkTime = "") =>
    [
        new($"Http.Steps[{i}].Name", name), new($"Http.Steps[{i}].Method", method), new($"Http.Steps[{i}].Url", url),
        new($"Http.Steps[{i}].Headers", headers), new($"Http.Steps[{i}].Body", body), new($"Http.Steps[{i}].Extract", extract),
        new($"Http.Steps[{i}].Checks", checks), new($"Http.Steps[{i}].ThinkTime", thinkTime),
    ];

    static IEnumerable<KeyValuePair<string, string>> ThreeSteps(string detailUrl = "http://127.0.0.1:1/orders/{{first}}") =>
    [
        .. Card(0, "signin", "POST", "http://127.0.0.1:1/signin", "Content-Type: application/json", """{"user":"a","password":"secret"}""",
            """[{"name":"token","json":"$.token"}]""", """[{"status":200}]""", """{"minMs":5,"maxMs":10}"""),
        .. Card(1, "orders", "GET", "http://127.0.0.1:1/orders", "Authorization: Bearer {{token}}", "",
            """[{"name":"first","json":"$.items[0].id"}]""", """[{"status":200},{"json":"$.items","exists":true}]"""),
        .. Card(2, "detail", "GET", detailUrl, checks: """[{"json":"$.status","equals":"shipped"}]"""),
    ];

    /// <summary>The HTML of the card for step <paramref name="index"/> (up to the next card).</summary>
    static string CardHtml(string page, int index)
    {
        var start = page.IndexOf($"<div class=\"step-card\" data-step=\"{index}\"", StringComparison.Ordinal);
        Assert.True(start >= 0, $"No card {index} on the page.");
        var end = page.IndexOf("<div class=\"step-card\"", start + 1, StringComparison.Ordinal);
        return page[start..(end < 0 ? page.IndexOf("data-valmsg-for=\"Http.Steps\"", start, StringComparison.Ordinal) : end)];
    }

    [Fact]
    public async Task TheOneRequestFormShowsNoStepCardsUntilAStepIsAdded()
    {
        await using var app = Dashboard();

        var html = await Client(app).GetStringAsync("/runs/new?kind=http");

        Assert.Matches("<div id=\"single-request\">", html); // not hidden
        Assert.Matches("<div id=\"step-cards\">\\s*</div>", html);
        Assert.Matches("<div id=\"data-file\" class=\"field\" hidden=\"hidden\">", html);
        Assert.Contains("<button type=\"button\" id=\"add-step\">Add a step</button>", html);
        Assert.Contains("id=\"har-file\"", html);
    }

    [Fact]
    public async Task TheNewRunFormWithThreeCardsQueuesTheJourneyTheApiWouldTake()
    {
        await using var app = Dashboard();
        var client = Client(app);
        var html = await client.GetStringAsync("/runs/new?kind=http");

        var posted = await client.PostAsync("/runs/new", new FormUrlEncodedContent([.. LoadFields(html), .. ThreeSteps()]));

        Assert.True(posted.StatusCode == HttpStatusCode.Redirect, await posted.Content.ReadAsStringAsync());
        var id = Regex.Match(posted.Headers.Location!.ToString(), "/runs/(\\d+)").Groups[1].Value;
        var steps = (await client.GetFromJsonAsync<JsonElement>($"/api/runs/{id}")).GetProperty("parameters").GetProperty("steps");
        Assert.Equal(["signin", "orders", "detail"], steps.EnumerateArray().Select(s => s.GetProperty("name").GetString()));
        Assert.Equal("POST", steps[0].GetProperty("method").GetString());
        Assert.Equal("""{"user":"a","password":"secret"}""", steps[0].GetProperty("body").GetString());
        Assert.Equal("$.token", steps[0].GetProperty("extract")[0].GetProperty("json").GetString());
        Assert.Equal(5, steps[0].GetProperty("thinkTime").GetProperty("minMs").GetDouble());
        Assert.True(steps[1].GetProperty("checks")[1].GetProperty("exists").GetBoolean());
        Assert.Equal("shipped", steps[2].GetProperty("checks")[0].GetProperty("equals").GetString());
    }

    public static TheoryData<string, int, string, string> BadCards => new()
    {
        // A field of the step, beside that field of its card.
        { "http://127.0.0.1:1/orders/{{nope}}", 2, "Url", "neither a built-in" },
        // Deeper inside a step (its extract list), beside the card's box for it, saying where.
        { "http://127.0.0.1:1/orders/{{first}}\u0001extract", 1, "Extract", "extract[0].json: " },
        // The box's own JSON, unreadable.
        { "http://127.0.0.1:1/orders/{{first}}\u0001checks", 0, "Checks", "Not a list of checks" },
    };

    [Theory]
    [MemberData(nameof(BadCards))]
    public async Task AnErrorKeyedByStepComesBackBesideTheRightCardsField(string detail, int card, string field, string message)
    {
        await using var app = Dashboard();
        var client = Client(app);
        var html = await client.GetStringAsync("/runs/new?kind=http");
        var fields = ThreeSteps(detail.Split('\u0001')[0]).ToList();
        if (detail.EndsWith("extract", StringComparison.Ordinal)) fields[fields.FindIndex(f => f.Key == "Http.Steps[1].Extract")] = new("Http.Steps[1].Extract", """[{"name":"first","json":"items"}]""");
        if (detail.EndsWith("checks", StringComparison.Ordinal)) fields[fields.FindIndex(f => f.Key == "Http.Steps[0].Checks")] = new("Http.Steps[0].Checks", """[{"status":"200"}""");

        var posted = await client.PostAsync("/runs/new", new FormUrlEncodedContent([.. LoadFields(html), .. fields]));

        var page = await posted.Content.ReadAsStringAsync();
        Assert.NotEqual(HttpStatusCode.Redirect, posted.StatusCode); // the form again, nothing queued
        var cardHtml = WebUtility.HtmlDecode(CardHtml(page, card));
        // The error follows the field itself, before any other field of the card.
        Assert.Matches($"name=\"Http.Steps\\[{card}\\].{field}\"[^<]*(<(?!input|textarea|select)[^>]*>[^<]*)*?<span class=\"field-error\">[^<]*{Regex.Escape(message)}", cardHtml);
        foreach (var other in new[] { 0, 1, 2 }.Where(c => c != card)) Assert.DoesNotContain("class=\"field-error\">", CardHtml(page, other));
        Assert.Matches("<div id=\"single-request\" hidden=\"hidden\">", page); // the journey comes back as cards
        Assert.Equal(0, (await client.GetFromJsonAsync<JsonElement>("/api/runs")).GetArrayLength());
    }

    [Fact]
    public async Task ADataFileChosenOnTheFormIsQueuedWithTheJourneyAndABadOneComesBackBesideItsField()
    {
        await using var app = Dashboard();
        var client = Client(app);
        var html = await client.GetStringAsync("/runs/new?kind=http");
        static KeyValuePair<string, string>[] File(string content) =>
            [new("Http.Data.Name", "users.csv"), new("Http.Data.Format", "csv"), new("Http.Data.Mode", "once"), new("Http.Data.Content", content)];

        var bad = await client.PostAsync("/runs/new", new FormUrlEncodedContent([.. LoadFields(html), .. ThreeSteps(), .. File("user,password\nann\n")]));
        var page = WebUtility.HtmlDecode(await bad.Content.ReadAsStringAsync());
        Assert.NotEqual(HttpStatusCode.Redirect, bad.StatusCode); // the form again, nothing queued
        Assert.Matches("data-valmsg-for=\"Http.Data\"[^>]*>data.content: line 2", page);
        Assert.Contains("<option value=\"once\" selected=\"selected\">", page); // what was chosen comes back
        Assert.Equal(0, (await client.GetFromJsonAsync<JsonElement>("/api/runs")).GetArrayLength());

        var posted = await client.PostAsync("/runs/new", new FormUrlEncodedContent([.. LoadFields(html), .. ThreeSteps(), .. File("user\nann\nbob\n")]));
        Assert.True(posted.StatusCode == HttpStatusCode.Redirect, await posted.Content.ReadAsStringAsync());
        var id = Regex.Match(posted.Headers.Location!.ToString(), "/runs/(\\d+)").Groups[1].Value;
        var data = (await client.GetFromJsonAsync<JsonElement>($"/api/runs/{id}")).GetProperty("parameters").GetProperty("data");
        Assert.Equal("users.csv", data.GetProperty("name").GetString());
        Assert.Equal("once", data.GetProperty("mode").GetString());
        Assert.Equal("user\nann\nbob\n", data.GetProperty("content").GetString()); // the administrator's API keeps it whole
    }

    [Fact]
    public async Task ACardWithATokenScopeIsATokenStepAndComesBackInItsCard()
    {
        await using var app = Dashboard();
        var client = Client(app);
        var html = await client.GetStringAsync("/runs/new?kind=http");
        KeyValuePair<string, string>[] token =
        [
            .. Card(0, "token", "GET", ""), new("Http.Steps[0].TokenScope", "api://0f3c/.default"), new("Http.Steps[0].TokenCredential", "default"),
            .. Card(1, "orders", "GET", "http://127.0.0.1:1/orders", "Authorization: Bearer {{token}}"),
        ];

        var bad = await client.PostAsync("/runs/new", new FormUrlEncodedContent(
            [.. LoadFields(html), .. token.Select(f => f.Key == "Http.Steps[0].Url" ? new(f.Key, "http://127.0.0.1:1/x") : f)]));
        Assert.NotEqual(HttpStatusCode.Redirect, bad.StatusCode); // a token step sends nothing: its URL is refused beside the field
        Assert.Contains("<span class=\"field-error\">", CardHtml(await bad.Content.ReadAsStringAsync(), 0));

        var posted = await client.PostAsync("/runs/new", new FormUrlEncodedContent([.. LoadFields(html), .. token]));
        Assert.True(posted.StatusCode == HttpStatusCode.Redirect, string.Join("\n", Regex.Matches(await posted.Content.ReadAsStringAsync(), "field-error[^>]*>[^<]+").Select(m => m.Value)));
        var id = Regex.Match(posted.Headers.Location!.ToString(), "/runs/(\\d+)").Groups[1].Value;
        var step = (await client.GetFromJsonAsync<JsonElement>($"/api/runs/{id}")).GetProperty("parameters").GetProperty("steps")[0];
        Assert.Equal("api://0f3c/.default", step.GetProperty("token").GetProperty("scope").GetString());
        Assert.Equal("token", step.GetProperty("token").GetProperty("variable").GetString());
        Assert.Equal("default", step.GetProperty("token").GetProperty("credential").GetString());

        const string definition = """
            {"name":"behind entra","kind":"http","parameters":{"requests":5,"steps":[{"name":"token","token":{"scope":"api://0f3c/.default","variable":"jwt"}},
             {"name":"orders","url":"http://127.0.0.1:1/orders","headers":{"Authorization":"Bearer {{jwt}}"}}]}}
            """;
        var created = await client.PostAsync("/api/benchmarks", new StringContent(definition, Encoding.UTF8, "application/json"));
        Assert.True(created.StatusCode == HttpStatusCode.Created, await created.Content.ReadAsStringAsync());
        var edit = WebUtility.HtmlDecode(CardHtml(await client.GetStringAsync($"/benchmarks/edit/{(await created.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("id").GetInt32()}"), 0));
        Assert.Contains("name=\"Http.Steps[0].TokenScope\" value=\"api://0f3c/.default\"", edit);
        Assert.Contains("name=\"Http.Steps[0].TokenVariable\" value=\"jwt\"", edit);
        Assert.DoesNotContain("Http.Steps[0].More", edit); // the card has boxes for it: nothing carried hidden
    }

    [Fact]
    public async Task AStoredJourneysDataFileIsKeptThroughAnEditOfItsSteps()
    {
        await using var app = Dashboard();
        var client = Client(app);
        const string definition = """
            {"name":"with rows","kind":"http","parameters":{"requests":5,"steps":[{"name":"signin","method":"POST","url":"http://127.0.0.1:1/signin","body":"{\"user\":\"{{user}}\"}"}],
             "data":{"name":"users.jsonl","format":"jsonl","mode":"random","content":"{\"user\":\"ann\"}\n{\"user\":\"bob\"}\n"}}}
            """;
        var created = await client.PostAsync("/api/benchmarks", new StringContent(definition, Encoding.UTF8, "application/json"));
        Assert.True(created.StatusCode == HttpStatusCode.Created, await created.Content.ReadAsStringAsync());
        var id = (await created.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("id").GetInt32();
        var before = (await client.GetFromJsonAsync<JsonElement>($"/api/benchmarks/{id}")).GetProperty("parameters").GetProperty("data").GetRawText();

        var edit = WebUtility.HtmlDecode(await client.GetStringAsync($"/benchmarks/edit/{id}"));
        Assert.Contains("<span id=\"data-file-chosen\" class=\"muted\">users.jsonl</span>", edit);
        var content = Regex.Match(edit, "<textarea[^>]*name=\"Http.Data.Content\"[^>]*>\\s*([^<]*)</textarea>").Groups[1].Value;
        var posted = await client.PostAsync($"/benchmarks/edit/{id}", new FormUrlEncodedContent(
        [
            .. LoadFields(edit), .. Card(0, "signin", "POST", "http://127.0.0.1:1/signin2", body: "{\"user\":\"{{user}}\"}"),
            new("Http.Data.Name", "users.jsonl"), new("Http.Data.Format", "jsonl"), new("Http.Data.Mode", "random"), new("Http.Data.Content", content),
            new("Name", "with rows"), new("Enabled", "true"),
        ]));
        Assert.True(posted.StatusCode == HttpStatusCode.Redirect, string.Join("\n", Regex.Matches(await posted.Content.ReadAsStringAsync(), "field-error[^>]*>[^<]+").Select(m => m.Value)));

        var edited = (await client.GetFromJsonAsync<JsonElement>($"/api/benchmarks/{id}")).GetProperty("parameters");
        Assert.Equal("http://127.0.0.1:1/signin2", edited.GetProperty("steps")[0].GetProperty("url").GetString());
        Assert.Equal(before, edited.GetProperty("data").GetRawText());
    }

    [Fact]
    public async Task AStoredJourneyEditsInCardsWithItsCredentialsMarkedAndSavesTheChange()
    {
        await using var app = Dashboard();
        var client = Client(app);
        const string definition = """
            {"name":"journey","kind":"http","parameters":{"requests":5,"steps":[
              {"name":"login","method":"POST","url":"http://127.0.0.1:1/signin","body":"{\"u\":1}","extract":[{"name":"token","json":"$.token","default":"none"}],"checks":[{"status":200}]},
              {"name":"orders","url":"http://127.0.0.1:1/orders","headers":{"Authorization":"Bearer {{token}}"},"checks":[{"header":"X-Session"}],"thinkTime":{"meanMs":50}}]}}
            """;
        var created = await client.PostAsync("/api/benchmarks", new StringContent(definition, Encoding.UTF8, "application/json"));
        Assert.True(created.StatusCode == HttpStatusCode.Created, await created.Content.ReadAsStringAsync());
        var id = (await created.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("id").GetInt32();
        var before = (await client.GetFromJsonAsync<JsonElement>($"/api/benchmarks/{id}")).GetProperty("parameters").GetProperty("steps");

        var edit = await client.GetStringAsync($"/benchmarks/edit/{id}");
        var login = WebUtility.HtmlDecode(CardHtml(edit, 0));
        var orders = WebUtility.HtmlDecode(CardHtml(edit, 1));
        Assert.Contains("name=\"Http.Steps[0].Name\" value=\"login\"", login);
        Assert.Contains("""[{"name":"token","json":"$.token","default":"none"}]</textarea>""", login);
        Assert.Matches("<span class=\"secret-note note\" hidden=\"hidden\">", login);
        Assert.Contains("Authorization: Bearer {{token}}</textarea>", orders);
        Assert.Matches("<span class=\"secret-note note\">Holds credentials \\(<span class=\"secret-names\">Authorization</span>\\)", orders);
        Assert.Contains("value=\"{\"meanMs\":50}\"", orders);

        // What the browser posts back: every card's fields as shown, the second step's URL changed.
        var fields = Regex.Matches(edit[..edit.IndexOf("id=\"step-template\"", StringComparison.Ordinal)],
                "name=\"(Http\\.Steps\\[\\d\\]\\.\\w+)\"(?: value=\"([^\"]*)\"[^>]*>|[^>]*>([^<]*)</textarea>|[^>]*>(?:\\s*<option[^>]*>[^<]*</option>)*)")
            .Select(m => new KeyValuePair<string, string>(m.Groups[1].Value, WebUtility.HtmlDecode(m.Groups[2].Success ? m.Groups[2].Value : m.Groups[3].Value))).ToList();
        fields = fields.Select(f => f.Key.EndsWith(".Method", StringComparison.Ordinal) ? new(f.Key, f.Key.Contains("[0]") ? "POST" : "GET") : f).ToList();
        fields[fields.FindIndex(f => f.Key == "Http.Steps[1].Url")] = new("Http.Steps[1].Url", "http://127.0.0.1:1/orders?page=2");
        var posted = await client.PostAsync($"/benchmarks/edit/{id}", new FormUrlEncodedContent(
            [.. LoadFields(edit).Where(f => f.Key != "Http.Requests"), new("Http.Requests", "9"), .. fields, new("Name", "journey"), new("Enabled", "true")]));
        Assert.True(posted.StatusCode == HttpStatusCode.Redirect, string.Join("\n", Regex.Matches(await posted.Content.ReadAsStringAsync(), "field-error[^>]*>[^<]+").Select(m => m.Value)));

        var edited = (await client.GetFromJsonAsync<JsonElement>($"/api/benchmarks/{id}")).GetProperty("parameters");
        Assert.Equal(9, edited.GetProperty("requests").GetInt32());
        var after = edited.GetProperty("steps");
        Assert.Equal("http://127.0.0.1:1/orders?page=2", after[1].GetProperty("url").GetString());
        Assert.Equal(before[0].GetRawText(), after[0].GetRawText());
        foreach (var part in new[] { "name", "method", "headers", "checks", "thinkTime", "extract", "body" })
            Assert.Equal(before[1].GetProperty(part).GetRawText(), after[1].GetProperty(part).GetRawText());
    }

    [Fact]
    public async Task AVariantsOwnStepsAreKeptThroughAnEditOfTheRest()
    {
        await using var app = Dashboard();
        var client = Client(app);
        const string definition = """
            {"name":"two journeys","kind":"http","parameters":{"requests":5,"steps":[{"name":"a","url":"http://127.0.0.1:1/a"}],
             "variants":[{"name":"A"},{"name":"B","steps":[{"name":"a","url":"http://127.0.0.1:1/b","checks":[{"status":204}]}]}]}}
            """;
        var created = await client.PostAsync("/api/benchmarks", new StringContent(definition, Encoding.UTF8, "application/json"));
        Assert.True(created.StatusCode == HttpStatusCode.Created, await created.Content.ReadAsStringAsync());
        var id = (await created.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("id").GetInt32();
        var before = (await client.GetFromJsonAsync<JsonElement>($"/api/benchmarks/{id}")).GetProperty("parameters").GetProperty("variants")[1].GetProperty("steps").GetRawText();

        var edit = await client.GetStringAsync($"/benchmarks/edit/{id}");
        var kept = Regex.Match(edit, "name=\"Http.Variants\\[0\\].StepsJson\" value=\"([^\"]*)\"");
        Assert.True(kept.Success, "The variant's steps are not on the page.");
        Assert.Contains("This variant replaces the steps with its own (1 steps", edit);
        var posted = await client.PostAsync($"/benchmarks/edit/{id}", new FormUrlEncodedContent(
        [
            .. LoadFields(edit), .. Card(0, "a", "GET", "http://127.0.0.1:1/a2"), new("Http.FirstVariantName", "A"), new("Http.Variants[0].Name", "B"),
            new("Http.Variants[0].StepsJson", WebUtility.HtmlDecode(kept.Groups[1].Value)), new("Name", "two journeys"), new("Enabled", "true"),
        ]));
        Assert.True(posted.StatusCode == HttpStatusCode.Redirect, string.Join("\n", Regex.Matches(await posted.Content.ReadAsStringAsync(), "field-error[^>]*>[^<]+").Select(m => m.Value)));

        var edited = (await client.GetFromJsonAsync<JsonElement>($"/api/benchmarks/{id}")).GetProperty("parameters");
        Assert.Equal("http://127.0.0.1:1/a2", edited.GetProperty("steps")[0].GetProperty("url").GetString());
        Assert.Equal(before, edited.GetProperty("variants")[1].GetProperty("steps").GetRawText());
    }

    [Theory]
    [InlineData("{\"bogus\":1}", "Not fields a step takes: bogus.")]
    [InlineData("[1]", "The step&#x27;s other fields are not a JSON object.")]
    public async Task FieldsACardHasNoBoxForMustBeOnesAStepTakes(string more, string message)
    {
        await using var app = Dashboard();
        var client = Client(app);
        var html = await client.GetStringAsync("/runs/new?kind=http");

        var posted = await client.PostAsync("/runs/new", new FormUrlEncodedContent([.. LoadFields(html), .. ThreeSteps(), new("Http.Steps[1].More", more)]));

        var page = await posted.Content.ReadAsStringAsync();
        Assert.NotEqual(HttpStatusCode.Redirect, posted.StatusCode);
        Assert.Contains($"<span class=\"field-error\">{message}</span>", CardHtml(page, 1));
        Assert.Equal(0, (await client.GetFromJsonAsync<JsonElement>("/api/runs")).GetArrayLength());
    }
}
