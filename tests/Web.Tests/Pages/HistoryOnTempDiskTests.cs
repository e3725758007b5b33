namespace BenchDashboard.Web.Tests.Pages;

/// <summary>On App Service with SQLite on the temp disk every page says the history will be lost; elsewhere none does.</summary>
public sealed class HistoryOnTempDiskTests
{
    const string Notice = "id=\"history-on-temp-disk\"";
    static readonly string[] Pages = ["/", "/benchmarks", "/runs/new", "/compare", "/glossary"];

    static async Task<List<string>> PagesAsync(DashboardFactory dashboard)
    {
        var client = dashboard.CreateClient();
        var pages = new List<string>();
        foreach (var page in Pages) pages.Add(await client.GetStringAsync(page));
        return pages;
    }

    [Theory]
    [InlineData("WEBSITE_INSTANCE_ID", "5f3e0c1a9b")]
    [InlineData("WEBSITE_SITE_NAME", "bench-app")]
    public async Task OnAppServiceWithSqliteEveryPageSaysTheHistoryWillBeLostAndLinksToTheWayOut(string variable, string value)
    {
        await using var dashboard = new DashboardFactory(new() { [variable] = value, ["Runner:Process"] = "None" });

        foreach (var html in await PagesAsync(dashboard))
        {
            Assert.Contains(Notice, html);
            Assert.Contains("will be lost", html);
            Assert.Contains("href=\"/glossary#history-storage\"", html);
        }
        Assert.Contains("id=\"history-storage\"", (await PagesAsync(dashboard))[^1]);
    }

    [Fact]
    public async Task WithoutAppServiceNoPageSaysIt()
    {
        await using var dashboard = new DashboardFactory(new() { ["Runner:Process"] = "None" });

        Assert.All(await PagesAsync(dashboard), html => Assert.DoesNotContain(Notice, html));
    }

    [Fact]
    public async Task OnAppServiceWithPostgreSqlNoPageSaysIt()
    {
        await using var dashboard = await DashboardFactory.OnAsync("postgresql", new() { ["WEBSITE_INSTANCE_ID"] = "5f3e0c1a9b", ["Runner:Process"] = "None" });

        Assert.All(await PagesAsync(dashboard), html => Assert.DoesNotContain(Notice, html));
    }

    [Fact]
    public async Task OnAppServiceWithTheFileOnADurableDiskNoPageSaysIt()
    {
        var durable = Path.Combine(OutsideTemp(), $"durable-{Guid.NewGuid():N}", "bench.db");
        try
        {
            await using var dashboard = new DashboardFactory(new() { ["WEBSITE_INSTANCE_ID"] = "5f3e0c1a9b", ["Database:Path"] = durable, ["Runner:Process"] = "None" });

            Assert.All(await PagesAsync(dashboard), html => Assert.DoesNotContain(Notice, html));
        }
        finally
        {
            Microsoft.Data.Sqlite.SqliteConnection.ClearAllPools();
            Directory.Delete(Path.GetDirectoryName(durable)!, recursive: true);
        }
    }

    /// <summary>
    /// A folder this test may write to that is not under the temp directory: the build folder is, when the checkout is
    /// (CI may clone anywhere), so the first of a few candidates that is not.
    /// </summary>
    static string OutsideTemp()
    {
        var temp = Path.GetFullPath(Path.GetTempPath());
        string[] candidates = [AppContext.BaseDirectory, Environment.GetFolderPath(Environment.SpecialFolder.UserProfile), "/var/tmp", Directory.GetCurrentDirectory()];
        foreach (var candidate in candidates.Where(c => c.Length > 0).Select(Path.GetFullPath))
        {
            if (candidate.StartsWith(temp, StringComparison.Ordinal)) continue;
            try
            {
                var probe = Path.Combine(candidate, $"probe-{Guid.NewGuid():N}");
                Directory.CreateDirectory(probe);
                Directory.Delete(probe);
                return candidate;
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
            }
        }
        throw new InvalidOperationException($"No writable folder outside {temp} to stand for a durable disk among: {string.Join(", ", candidates)}.");
    }
}
