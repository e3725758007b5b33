using System.Net;
using BenchDashboard.Web.Tests.Pages;

namespace BenchDashboard.Web.Tests.Security;

/// <summary>Guessing the password or the API key is slowed to Auth:GuessesPerMinute per client address (ASP.NET Core's rate limiter).</summary>
public class GuessLimitTests
{
    const string Key = "the-real-key";

    static DashboardFactory Exposed() => new(new()
    {
        ["Auth:Required"] = "always", ["Auth:ApiKey"] = Key, ["Auth:AdminPassword"] = "the real password", ["Auth:GuessesPerMinute"] = "5",
    });

    [Fact]
    public async Task AfterTheAllowedSignInAttemptsTheNextIsRefusedWith429()
    {
        await using var app = Exposed();
        var client = app.CreateClient();
        var token = FormPost.Token(await client.GetStringAsync("/login"));
        var statuses = new List<HttpStatusCode>();
        for (var i = 0; i < 8; i++)
            statuses.Add((await client.PostAsync("/login", new FormUrlEncodedContent([new("Password", $"guess {i}"), new("__RequestVerificationToken", token)]))).StatusCode);

        Assert.Equal(Enumerable.Repeat(HttpStatusCode.OK, 5), statuses.Take(5)); // the page again, "not the password"
        Assert.All(statuses.Skip(5), s => Assert.Equal(HttpStatusCode.TooManyRequests, s));
        Assert.Equal(HttpStatusCode.OK, (await client.GetAsync("/login")).StatusCode); // reading the page is not an attempt
    }

    [Fact]
    public async Task WrongApiKeysAreLimitedAndTheRightKeyIsNot()
    {
        await using var app = Exposed();
        var client = app.CreateClient();
        async Task<HttpStatusCode> CancelWithAsync(string key)
        {
            var request = new HttpRequestMessage(HttpMethod.Post, "/api/runs/1/cancel");
            request.Headers.Add("X-Api-Key", key);
            return (await client.SendAsync(request)).StatusCode;
        }

        var guesses = new List<HttpStatusCode>();
        for (var i = 0; i < 8; i++) guesses.Add(await CancelWithAsync($"guess-{i}"));

        Assert.Equal(Enumerable.Repeat(HttpStatusCode.Unauthorized, 5), guesses.Take(5));
        Assert.All(guesses.Skip(5), s => Assert.Equal(HttpStatusCode.TooManyRequests, s));
        Assert.Equal(HttpStatusCode.NotFound, await CancelWithAsync(Key)); // no run 1, but the key was accepted
    }
}
