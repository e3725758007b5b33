namespace BenchDashboard.Web.Pages.Shared;

/// <summary>
/// The copy buttons under a table (_CopyTable): <paramref name="ApiUrl"/> answers the table with <c>format=markdown</c>
/// and <c>format=text</c>; <paramref name="What"/> names it in the buttons' note ("the comparison").
/// </summary>
public sealed record CopyTable(string Id, string What, string ApiUrl)
{
    public string As(string format) => ApiUrl + (ApiUrl.Contains('?') ? "&" : "?") + "format=" + format;
}
