using System.Net;
using System.Text.RegularExpressions;
using BenchDashboard.TestSupport;

namespace BenchDashboard.Web.Tests.Pages;

/// <summary>A run's transfer rate reads the same on its page, in its Markdown and in its text (what benchdash prints): one unit, KiB/s.</summary>
public sealed class TransferUnitsTests
{
    [Fact]
    public async Task ThePageTheMarkdownAndTheTextPrintTheSameKiBPerSecond()
    {
        await using var target = await KestrelTarget.StartAsync();
        await using var app = new DashboardFactory();
        var client = app.CreateClient();
        var id = await DashboardFactory.CreateRunAsync(client, new { kind = "http", url = target.Url("/ok?size=4096").ToString(), requests = 40 });
        await DashboardFactory.WaitForEndAsync(client, id);

        var page = WebUtility.HtmlDecode(await client.GetStringAsync($"/runs/{id}"));
        var markdown = await client.GetStringAsync($"/api/runs/{id}?format=markdown");
        var text = await client.GetStringAsync($"/api/runs/{id}?format=text");

        var onPage = Regex.Match(page, @"<th>Transferred</th><td class=""num"">[\d,.]+ KiB, ([\d,.]+ KiB/s)</td>").Groups[1].Value;
        Assert.Matches(@"^[\d,]+\.\d KiB/s$", onPage);
        Assert.Equal(onPage, Regex.Match(markdown, @"Transfer rate \| ([^|]+?) \|").Groups[1].Value);
        Assert.Equal(onPage, Regex.Match(text, @"Transfer rate per second:\s+(.+)").Groups[1].Value.TrimEnd());
        Assert.DoesNotContain("MByte", text);
        Assert.DoesNotContain("Kbytes", markdown);
    }
}
