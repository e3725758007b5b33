using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using BenchDashboard.Core;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Data;
using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Runs;
using Microsoft.Extensions.DependencyInjection;

namespace BenchDashboard.Web.Tests.Api;

/// <summary>What App Service needs from the app: a health probe, and runs that can be told apart by platform settings.</summary>
public class PlatformTests
{
    [Fact]
    public async Task HealthzReportsTheDatabaseAndTheRunner()
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient();

        // The runner's first pass comes right after start; give it a moment.
        HttpResponseMessage response;
        var deadline = DateTime.UtcNow.AddSeconds(10);
        while ((response = await client.GetAsync("/healthz")).StatusCode != HttpStatusCode.OK && DateTime.UtcNow < deadline) await Task.Delay(50);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var health = await response.Content.ReadFromJsonAsync<JsonElement>();
        Assert.Equal("Healthy", health.GetProperty("status").GetString());
        Assert.Equal("Reachable, all migrations applied.", health.GetProperty("checks").GetProperty("database").GetProperty("description").GetString());
        Assert.StartsWith("Last pass", health.GetProperty("checks").GetProperty("runner").GetProperty("description").GetString());
    }

    [Fact]
    public async Task Seed000sSelfBenchmarkPagesServeAStaticFileADynamicPageAndManySmallFiles()
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient();

        var page = await client.GetAsync("/target/static.html");
        Assert.Equal("text/html", page.Content.Headers.ContentType!.MediaType);
        Assert.Contains("A static file", await page.Content.ReadAsStringAsync());
        Assert.Contains("<li>Item 9:", await client.GetStringAsync("/target/dynamic?items=10"));
        Assert.StartsWith("read 64 files, ", await client.GetStringAsync("/target/files?count=64"));
        Assert.StartsWith("read 5 files, ", await client.GetStringAsync("/target/files?count=5"));
    }

    [Fact]
    public async Task AFileSystemRunShowsItsLocationsTableAndRefusesDirectoriesOutsideTheRoots()
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient();

        foreach (var outside in new[] { "/etc", "/tmp/benchdashboard-fs/../../etc", "../escape" })
        {
            var refused = await client.PostAsJsonAsync("/api/runs", new { kind = "fileSystem", directories = new[] { outside }, fileCount = 10 });
            Assert.Equal(HttpStatusCode.BadRequest, refused.StatusCode);
            Assert.Contains("directories", await refused.Content.ReadAsStringAsync());
        }

        var id = await DashboardFactory.CreateRunAsync(client, new { kind = "fileSystem", directories = new[] { "temp" }, fileCount = 60, fileBytes = 512, filesPerDirectory = 20, largeFileMiB = 1 });
        var run = await DashboardFactory.WaitForEndAsync(client, id);
        Assert.Equal("completed", run.GetProperty("status").GetString());
        Assert.Equal(["temp/create", "temp/read", "temp/stat", "temp/delete", "temp/large-write", "temp/large-read"],
            run.GetProperty("series").EnumerateArray().Select(s => s.GetProperty("name").GetString()));

        var page = WebUtility.HtmlDecode(await client.GetStringAsync($"/runs/{id}"));
        Assert.Contains("<table class=\"matrix\" id=\"answer-locations\">", page);
        Assert.Contains("<tr data-location=\"temp\">", page);
    }

    [Fact]
    public async Task RunsCanBeFilteredAndGroupedByAnEnvironmentField()
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient();
        using (var scope = app.Services.CreateScope())
        {
            var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
            foreach (var cache in new[] { "0", "2", "2", null })
            {
                var variables = new SortedDictionary<string, string>(StringComparer.Ordinal) { ["WEBSITE_SKU"] = "PremiumV3", [EnvironmentSnapshot.SlotVariable] = "staging" };
                if (cache is not null) variables["WEBSITE_DYNAMIC_CACHE"] = cache;
                var environment = new EnvironmentSnapshot { MachineName = "w", OsDescription = "Linux", DotnetVersion = ".NET 10", ProcessorCount = 2, PlatformVariables = variables };
                db.Runs.Add(new Run { Kind = HttpKind.KindName, ParametersJson = "{}", Status = RunStatus.Completed, QueuedUtcMs = 1, EnvironmentJson = Json.Serialize(environment) });
            }
            await db.SaveChangesAsync();
        }

        var two = await client.GetFromJsonAsync<JsonElement>("/api/runs?env=WEBSITE_DYNAMIC_CACHE&envValue=2");
        Assert.Equal(2, two.GetArrayLength());
        Assert.Equal(3, (await client.GetFromJsonAsync<JsonElement>("/api/runs?env=WEBSITE_DYNAMIC_CACHE")).GetArrayLength()); // runs that recorded it
        Assert.Equal(4, (await client.GetFromJsonAsync<JsonElement>("/api/runs?env=BENCHDASHBOARD_SLOT&envValue=staging")).GetArrayLength());

        var page = WebUtility.HtmlDecode(await client.GetStringAsync("/?env=WEBSITE_DYNAMIC_CACHE"));
        Assert.Contains("envValue=0\">0 (1)</a>", page);
        Assert.Contains("envValue=2\">2 (2)</a>", page);
    }
}
