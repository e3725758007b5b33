using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using System.Text.RegularExpressions;
using BenchDashboard.TestSupport;

namespace BenchDashboard.Web.Tests.Pages;

/// <summary>Repeats from the API and the form lead to their comparison; the compare page groups runs by setting.</summary>
public class RepeatCompareTests
{
    static List<long> Ids(JsonElement repeat) => repeat.GetProperty("runs").EnumerateArray().Select(r => r.GetProperty("id").GetInt64()).ToList();

    [Fact]
    public async Task EveryRepeatTheApiQueuesLinksItsComparison()
    {
        await using var target = await KestrelTarget.StartAsync();
        await using var app = new DashboardFactory();
        var client = app.CreateClient();
        async Task<JsonElement> RepeatAsync(object body)
        {
            var response = await client.PostAsJsonAsync("/api/runs", body);
            Assert.Equal(HttpStatusCode.Created, response.StatusCode);
            return await response.Content.ReadFromJsonAsync<JsonElement>();
        }

        // One setting three times: the runs side by side, which shows how far runs land apart by chance.
        var plain = await RepeatAsync(new { kind = "http", url = target.Url("/delay?ms=1").ToString(), requests = 20, repeat = 3 });
        var ids = Ids(plain);
        Assert.Equal($"/compare?items={Uri.EscapeDataString($"{ids[0]},{ids[1]},{ids[2]}")}", plain.GetProperty("compare").GetString());

        // Variants taking turns in each run, asked for the best of 3 (an old address's pick): one group per variant.
        var interleaved = await RepeatAsync(new
        {
            kind = "http", url = target.Url("/delay?ms=1").ToString(), requests = 20, repeat = 3, pick = "best",
            variants = new object[] { new { name = "one" }, new { name = "four", url = target.Url("/delay?ms=4").ToString() } },
        });
        var v = Ids(interleaved);
        Assert.Equal($"/compare?items={Uri.EscapeDataString($"{v[0]}/one+{v[1]}/one+{v[2]}/one,{v[0]}/four+{v[1]}/four+{v[2]}/four")}&pick=best",
            interleaved.GetProperty("compare").GetString());

        foreach (var id in ids.Concat(v)) await DashboardFactory.WaitForEndAsync(client, id);
        // A repeat of one setting links its runs side by side from each run's page.
        Assert.Contains($"compare?items={Uri.EscapeDataString($"{ids[0]},{ids[1]},{ids[2]}")}", WebUtility.HtmlDecode(await client.GetStringAsync($"/runs/{ids[1]}")));
        foreach (var link in new[] { plain, interleaved }.Select(r => r.GetProperty("compare").GetString()!))
        {
            var html = WebUtility.HtmlDecode(await client.GetStringAsync(link));
            Assert.Contains("<table id=\"comparison\">", html);
        }
        var best = await client.GetFromJsonAsync<JsonElement>("/api" + interleaved.GetProperty("compare").GetString());
        // Each variant's group is named by the variant, then its runs; pick=best reads as all its runs, as the verdict weighs them.
        Assert.All(best.GetProperty("items").EnumerateArray(), i => Assert.Matches(@"^(one|four) — 3 runs: #\d+, #\d+, #\d+$", i.GetProperty("label").GetString()));

        var refused = await client.PostAsJsonAsync("/api/runs", new { kind = "http", url = target.Url("/").ToString(), requests = 5, repeat = 3, pick = "worst" });
        Assert.Equal(HttpStatusCode.BadRequest, refused.StatusCode);
        Assert.Equal(HttpStatusCode.BadRequest, (await client.GetAsync($"/api/compare?items={ids[0]},{ids[1]}&pick=worst")).StatusCode);
    }

    [Fact]
    public async Task TheFormQueuesSettingsTimesRunsAndOpensTheirComparisonGroupedAndNamedBySetting()
    {
        await using var target = await KestrelTarget.StartAsync();
        await using var app = new DashboardFactory();
        var client = app.CreateClient();

        var response = await FormPost.SubmitAsync(client, "/runs/new?kind=http", new()
        {
            ["kind"] = "http", ["Http.Url"] = target.Url("/delay?ms=1").ToString(), ["Http.Mode"] = "requests", ["Http.Requests"] = "30",
            ["Http.Concurrency"] = "1", ["Http.TimeoutMs"] = "10000", ["Http.KeepAlive"] = "true", ["Http.FirstVariantName"] = "one",
            ["Http.Variants[0].Name"] = "two", ["Http.Variants[0].Url"] = target.Url("/delay?ms=2").ToString(),
            ["Http.Variants[1].Name"] = "four", ["Http.Variants[1].Url"] = target.Url("/delay?ms=4").ToString(),
            ["Repeat.Times"] = "3", ["Repeat.SeparateRuns"] = "true",
        });
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var address = response.RequestMessage!.RequestUri!;
        Assert.Equal("/compare", address.AbsolutePath);
        Assert.DoesNotContain("pick=", address.Query); // every group counts all its runs: there is nothing to pick
        var runs = await client.GetFromJsonAsync<JsonElement>("/api/runs");
        var ids = runs.EnumerateArray().Select(r => r.GetProperty("id").GetInt64()).Order().ToList();
        Assert.Equal(9, ids.Count);
        // Three groups, one per setting, each of the runs of its round: A B C A B C A B C.
        var groups = Enumerable.Range(0, 3).Select(s => string.Join("+", Enumerable.Range(0, 3).Select(round => ids[round * 3 + s]))).ToList();
        Assert.Equal(string.Join(",", groups), Uri.UnescapeDataString(Regex.Match(address.Query, "items=([^&]+)").Groups[1].Value));

        foreach (var id in ids) await DashboardFactory.WaitForEndAsync(client, id);
        // Each of the repeat's runs links their comparison, grouped by setting.
        var runPage = WebUtility.HtmlDecode(await client.GetStringAsync($"/runs/{ids[4]}"));
        Assert.Contains($"<a href=\"/compare?items={Uri.EscapeDataString(string.Join(",", groups))}\">compare them, 3 settings grouped</a>", runPage);
        var html = WebUtility.HtmlDecode(await client.GetStringAsync(address.PathAndQuery));
        Assert.Contains("each percentile is the mean of its runs'", html); // the basis, said once above the table
        // Each setting by its name, its runs, and what sets it apart in full: no URL cut, no ms=1 hidden as a secret.
        foreach (var (name, ms) in new[] { ("one", 1), ("two", 2), ("four", 4) })
            Assert.Matches($"<tr data-item=\"[^\"]+\">\\s*<th><a href=\"/runs/\\d+\">{name} — 3 runs: #\\d+, #\\d+, #\\d+</a>[^<]*<br /><span class=\"muted setting\">url {Regex.Escape(target.Url($"/delay?ms={ms}").ToString())}</span>", html);
        Assert.DoesNotContain("(hidden", html[..html.IndexOf("id=\"compared-runs\"", StringComparison.Ordinal)]);
        // The runs list names each run by its setting, not "(ad hoc)".
        var list = WebUtility.HtmlDecode(await client.GetStringAsync("/"));
        Assert.DoesNotContain("(ad hoc)", list);
        foreach (var name in new[] { "one", "two", "four" }) Assert.Equal(3, Regex.Matches(list, $"<td class=\"long\">{name}</td>").Count);

        // Ticking all nine on the picker with "Group repeats" compares the same three groups, not an error.
        var ticked = string.Join("&", ids.Select(id => $"items={id}"));
        var picked = await client.GetAsync($"/compare?group=true&pick=pooled&{ticked}");
        Assert.Equal(HttpStatusCode.OK, picked.StatusCode);
        Assert.Equal(string.Join(",", groups), Uri.UnescapeDataString(Regex.Match(picked.RequestMessage!.RequestUri!.Query, "items=([^&]+)").Groups[1].Value));
        var pooled = WebUtility.HtmlDecode(await picked.Content.ReadAsStringAsync());
        Assert.DoesNotContain("Choose 2 to", pooled);
        Assert.Contains("id=\"basis\"", pooled);
    }

    [Fact]
    public async Task ARepeatTheFormCannotDoQueuesNothingAndSaysWhy()
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient();
        var response = await FormPost.SubmitAsync(client, "/runs/new?kind=http", new()
        {
            ["kind"] = "http", ["Http.Url"] = "http://127.0.0.1:1/", ["Http.Mode"] = "requests", ["Http.Requests"] = "5",
            ["Http.Concurrency"] = "1", ["Http.TimeoutMs"] = "10000", ["Repeat.Times"] = "50",
        });
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Contains("Repeat is a number of runs from 2 to 20", WebUtility.HtmlDecode(await response.Content.ReadAsStringAsync()));

        response = await FormPost.SubmitAsync(client, "/runs/new?kind=http", new()
        {
            ["kind"] = "http", ["Http.Url"] = "http://127.0.0.1:1/", ["Http.Mode"] = "requests", ["Http.Requests"] = "5",
            ["Http.Concurrency"] = "1", ["Http.TimeoutMs"] = "10000", ["Repeat.Times"] = "3", ["Repeat.SeparateRuns"] = "true",
        });
        Assert.Contains("need variants", WebUtility.HtmlDecode(await response.Content.ReadAsStringAsync()));
        Assert.Equal(0, (await client.GetFromJsonAsync<JsonElement>("/api/runs")).GetArrayLength());
    }
}
