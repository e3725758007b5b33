using System.Text.RegularExpressions;

namespace BenchDashboard.Web.Tests.Pages;

/// <summary>Posts a Razor Pages form the way a browser does: with the anti-forgery token from the GET.</summary>
static partial class FormPost
{
    public static async Task<HttpResponseMessage> SubmitAsync(HttpClient client, string path, Dictionary<string, string> fields)
    {
        var page = await client.GetStringAsync(path);
        var token = TokenPattern().Match(page);
        Assert.True(token.Success, $"No anti-forgery token on {path}");
        var form = new Dictionary<string, string>(fields) { ["__RequestVerificationToken"] = token.Groups[1].Value };
        return await client.PostAsync(path, new FormUrlEncodedContent(form));
    }

    /// <summary>The anti-forgery token in a page's HTML (empty when there is none).</summary>
    public static string Token(string html) => TokenPattern().Match(html).Groups[1].Value;

    [GeneratedRegex("name=\"__RequestVerificationToken\" type=\"hidden\" value=\"([^\"]+)\"")]
    private static partial Regex TokenPattern();
}
