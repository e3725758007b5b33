using System.Net;
using System.Text.RegularExpressions;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Web.Pages.Kinds;
using Microsoft.Extensions.DependencyInjection;

namespace BenchDashboard.Web.Tests.Pages;

/// <summary>The shared pages render every registered kind through its descriptor and form, with no switch on the kind.</summary>
public class KindPagesTests
{
    [Fact]
    public async Task EveryRegisteredKindHasATabAndItsFormOnTheNewRunPageAndTheEditor()
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient();
        var kinds = app.Services.GetRequiredService<BenchmarkKinds>();
        var forms = app.Services.GetRequiredService<KindForms>();

        Assert.Equal(kinds.All.Select(k => k.Name), forms.All.Select(f => f.Kind.Name));
        var newRun = await client.GetStringAsync("/runs/new");
        foreach (var page in forms.All)
        {
            Assert.Contains($"href=\"/runs/new?kind={page.Kind.Name}\"", newRun);
            foreach (var path in new[] { $"/runs/new?kind={page.Kind.Name}", $"/benchmarks/edit?kind={page.Kind.Name}" })
            {
                var html = await client.GetStringAsync(path);
                Assert.Contains($"name=\"kind\" value=\"{page.Kind.Name}\"", html);
                // Every field of the form is named under the kind's prefix, so errors find their field (the shared limits and repeat have their own).
                var names = Regex.Matches(html, "name=\"([A-Za-z]+)\\.[A-Za-z0-9]+\"").Select(m => m.Groups[1].Value).Distinct().Except(["Limits", "Repeat"]).ToList();
                Assert.Equal([page.Pages.Prefix], names);
            }
        }
    }

    [Fact]
    public async Task TheUrlExampleNamesTheAddressTheDashboardWasReachedOn()
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient();
        client.BaseAddress = new Uri("http://127.0.0.1:5311/");

        var html = await client.GetStringAsync("/runs/new?kind=http");

        Assert.Contains("placeholder=\"http://127.0.0.1:5311/target/delay?ms=10\"", html);
    }

    [Fact]
    public async Task AnUnknownKindInTheAddressFallsBackToTheFirstTab()
    {
        await using var app = new DashboardFactory();
        var response = await app.CreateClient().GetAsync("/runs/new?kind=ftp");

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Contains("name=\"kind\" value=\"http\"", await response.Content.ReadAsStringAsync());
    }
}
