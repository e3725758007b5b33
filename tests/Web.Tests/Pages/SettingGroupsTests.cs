using BenchDashboard.Core.Runs;
using BenchDashboard.Web.Pages.Compare;

namespace BenchDashboard.Web.Tests.Pages;

public class SettingGroupsTests
{
    static Run R(long id, string parameters) => new() { Id = id, Kind = "http", ParametersJson = parameters };

    [Fact]
    public void RunsOfTheSameSettingBecomeOneGroupInTheOrderFirstTicked()
    {
        var runs = new[] { R(12, "{\"url\":\"a\"}"), R(13, "{\"url\":\"b\"}"), R(14, "{\"url\":\"a\"}"), R(15, "{\"url\":\"b\"}"), R(16, "{\"url\":\"c\"}") }.ToDictionary(r => r.Id);
        Assert.Equal(["12+14", "13+15", "16"], SettingGroups.Of(["12", "13", "14", "15", "16"], runs));
    }

    [Fact]
    public void SeriesGroupApartAndGroupsOrUnknownRunsStayAsGiven()
    {
        var runs = new[] { R(12, "{}"), R(14, "{}") }.ToDictionary(r => r.Id);
        Assert.Equal(["12/A+14/A", "12/B+14/B", "20+21", "99"], SettingGroups.Of(["12/A", "12/B", "14/A", "14/B", "20+21", "99"], runs));
        Assert.Equal([12L, 14L, 20L, 21L], SettingGroups.RunIds(["12/A+14/A", "20+21", "x"]));
    }
}
