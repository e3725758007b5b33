using BenchDashboard.Core.Data;

namespace BenchDashboard.Core.Tests.Data;

public class DatabaseOptionsTests
{
    static string? NoVariables(string _) => null;
    static string? OnAppService(string name) => name == "WEBSITE_INSTANCE_ID" ? "abc123" : null;

    [Fact]
    public void LocallyTheFileIsUnderTheContentRoot() =>
        Assert.Equal(Path.Combine("/app", "data", "benchdashboard.db"), new DatabaseOptions().ResolvePath("/app", NoVariables));

    [Fact]
    public void OnAppServiceItIsOnLocalDiskNotTheHomeShare()
    {
        var path = new DatabaseOptions().ResolvePath("/home/site/wwwroot", OnAppService);
        Assert.StartsWith(Path.GetTempPath(), path);
        Assert.DoesNotContain("/home/site", path);
    }

    [Fact]
    public void AnExplicitPathWins()
    {
        Assert.Equal("/mnt/data/results.db", new DatabaseOptions { Path = "/mnt/data/results.db" }.ResolvePath("/app", OnAppService));
        Assert.Equal(Path.Combine("/app", "db/x.db"), new DatabaseOptions { Path = "db/x.db" }.ResolvePath("/app", NoVariables));
    }
}
