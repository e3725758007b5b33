using System.Net;
using Microsoft.Data.Sqlite;

namespace BenchDashboard.Web.Tests.Health;

/// <summary>A results file damaged under a run's samples: a download that stops part-way breaks off, it never ends as if it were whole.</summary>
public class DamagedSamplesTests
{
    [Theory]
    [InlineData("/samples?format=csv")]
    [InlineData("/histogram.hlog")]
    public async Task ADownloadThatMeetsADamagedPageIsCutOffNotPassedOffAsWhole(string download)
    {
        await using var app = new DashboardFactory(new() { ["RunLimits:MaxRequests"] = "100000" });
        var client = app.CreateClient();
        var id = await DashboardFactory.CreateRunAsync(client, new { kind = "cache", phases = new[] { "write" }, requests = 60_000, keyCount = 10 });
        await DashboardFactory.WaitForEndAsync(client, id);
        var whole = await (await client.GetAsync($"/api/runs/{id}{download}")).Content.ReadAsByteArrayAsync();

        // Every page in the file (the WAL checkpointed), then a stretch of the samples' pages past the first ones overwritten.
        SqliteConnection.ClearAllPools();
        using (var connection = new SqliteConnection($"Data Source={app.DatabasePath};Pooling=False"))
        {
            connection.Open();
            using var checkpoint = connection.CreateCommand();
            checkpoint.CommandText = "PRAGMA wal_checkpoint(TRUNCATE);";
            checkpoint.ExecuteNonQuery();
        }
        using (var file = new FileStream(app.DatabasePath, FileMode.Open, FileAccess.ReadWrite))
        {
            var garbage = Enumerable.Repeat((byte)0xA5, 4096 * 8).ToArray();
            file.Position = file.Length / 2 / 4096 * 4096 + 100;
            file.Write(garbage);
        }
        SqliteConnection.ClearAllPools();

        Exception? broken = null;
        var received = 0;
        try
        {
            using var response = await client.GetAsync($"/api/runs/{id}{download}", HttpCompletionOption.ResponseHeadersRead);
            if (response.StatusCode != HttpStatusCode.OK) { broken = new HttpRequestException(response.StatusCode.ToString()); }
            else received = (await response.Content.ReadAsByteArrayAsync()).Length;
        }
        catch (Exception ex) when (ex is HttpRequestException or IOException)
        {
            broken = ex;
        }

        // Either refused before it began (a 503), or broken off: never a 200 that ends short.
        Assert.True(broken is not null, $"a whole-looking download of {received:N0} bytes, against {whole.Length:N0} before the damage");
    }
}
