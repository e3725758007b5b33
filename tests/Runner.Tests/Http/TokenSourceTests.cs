using Azure.Core;
using Azure.Identity;
using BenchDashboard.Core.Kinds.Http.Journeys;
using BenchDashboard.Runner.Http.Journeys;

namespace BenchDashboard.Runner.Tests.Http;

/// <summary>A run's cached token (<see cref="TokenSource"/>): one fetch at a time, renewed before it expires, failures quoted without tokens.</summary>
public sealed class TokenSourceTests
{
    static readonly DateTimeOffset Start = new(2026, 11, 28, 0, 0, 0, TimeSpan.Zero);

    sealed class ManualTime(DateTimeOffset now) : TimeProvider
    {
        public DateTimeOffset Now { get; set; } = now;
        public override DateTimeOffset GetUtcNow() => Now;
    }

    /// <summary>Answers each call with the next of <paramref name="answers"/> once <see cref="Release"/> lets it (at once when not held).</summary>
    sealed class ScriptedCredential(params Func<AccessToken>[] answers) : TokenCredential
    {
        int calls;
        TaskCompletionSource? held;
        public int Calls => Volatile.Read(ref calls);
        public void Hold() => held = new(TaskCreationOptions.RunContinuationsAsynchronously);
        public void Release() => held!.TrySetResult();

        public override async ValueTask<AccessToken> GetTokenAsync(TokenRequestContext context, CancellationToken ct)
        {
            var n = Interlocked.Increment(ref calls) - 1;
            if (held is { } gate) await gate.Task.WaitAsync(ct);
            return answers[Math.Min(n, answers.Length - 1)]();
        }

        public override AccessToken GetToken(TokenRequestContext context, CancellationToken ct) => GetTokenAsync(context, ct).AsTask().GetAwaiter().GetResult();
    }

    static TokenSource Source(TokenCredential credential, TimeProvider time) =>
        new(new HttpTokenStep { Scope = "api://a/.default" }, credential, time, CancellationToken.None);

    [Fact]
    public async Task ManyWorkersWithoutATokenWaitForOneFetch()
    {
        var time = new ManualTime(Start);
        var credential = new ScriptedCredential(() => new AccessToken("t1", Start.AddHours(1)));
        credential.Hold();
        var source = Source(credential, time);

        var waiting = Enumerable.Range(0, 32).Select(_ => source.GetAsync(default).AsTask()).ToList();
        await Task.Delay(50);
        Assert.All(waiting, w => Assert.False(w.IsCompleted));
        credential.Release();

        Assert.All(await Task.WhenAll(waiting), t => Assert.Equal("t1", t));
        Assert.Equal(1, credential.Calls);
        Assert.Equal((1, 0), (source.Fetched, source.Failed));
    }

    [Theory]
    [InlineData(3_600, null, 3_300)]     // an hour: 5 minutes before it expires
    [InlineData(4, null, 2)]             // 4 s: halfway
    [InlineData(86_400, 43_200, 43_200)] // a day with Azure.Identity's RefreshOn at its half: then
    public async Task ATokenIsKeptUntilItIsDueThenRenewed(int lifetimeS, int? refreshOnS, int renewAtS)
    {
        var time = new ManualTime(Start);
        var n = 0;
        var credential = new ScriptedCredential(() =>
        {
            n++;
            return new AccessToken($"t{n}", time.Now.AddSeconds(lifetimeS), refreshOn: refreshOnS is { } r ? time.Now.AddSeconds(r) : null);
        });
        var source = Source(credential, time);

        Assert.Equal("t1", await source.GetAsync(default));
        time.Now = Start.AddSeconds(renewAtS).AddMilliseconds(-1);
        Assert.Equal("t1", await source.GetAsync(default));
        Assert.Equal(1, credential.Calls);
        time.Now = Start.AddSeconds(renewAtS);
        Assert.Equal("t2", await source.GetAsync(default));
        Assert.Equal(2, credential.Calls);
    }

    [Fact]
    public async Task WhileOneWorkerRenewsTheOthersGoOnWithTheTokenStillGood()
    {
        var time = new ManualTime(Start);
        var credential = new ScriptedCredential(() => new AccessToken("t1", Start.AddMinutes(10)), () => new AccessToken("t2", Start.AddMinutes(20)));
        var source = Source(credential, time);
        Assert.Equal("t1", await source.GetAsync(default));

        time.Now = Start.AddMinutes(6); // due (5 minutes before), still good (until a minute before)
        credential.Hold();
        var renewing = source.GetAsync(default).AsTask();
        var other = source.GetAsync(default);
        Assert.True(other.IsCompletedSuccessfully);
        Assert.Equal("t1", await other);
        Assert.False(renewing.IsCompleted);

        time.Now = Start.AddMinutes(9.5); // no longer good: now the others wait too, for the same fetch
        var late = source.GetAsync(default).AsTask();
        Assert.False(late.IsCompleted);
        credential.Release();
        Assert.Equal(["t2", "t2"], await Task.WhenAll(renewing, late));
        Assert.Equal(2, credential.Calls);
    }

    [Fact]
    public async Task AFailedFetchIsQuotedByTypeAndFirstLineWithoutAnyToken()
    {
        var time = new ManualTime(Start);
        const string jwt = "eyJhbGciOiJSUzI1NiJ9.eyJhdWQiOiJhcGk6Ly9hIn0.c2lnbmF0dXJl";
        var credential = new ScriptedCredential(() => new AccessToken("secret-token-1", Start.AddSeconds(4)),
            () => throw new AuthenticationFailedException($"ManagedIdentityCredential authentication failed: the endpoint said {{\"access_token\":\"{jwt}\"}} about secret-token-1 {new string('x', 300)}\nSee the troubleshooting guide."));
        var source = Source(credential, time);
        Assert.Equal("secret-token-1", await source.GetAsync(default));
        time.Now = Start.AddSeconds(4);

        var failed = await Assert.ThrowsAsync<AuthenticationFailedException>(() => source.GetAsync(default).AsTask());
        var reason = source.Reason(failed);

        Assert.StartsWith("AuthenticationFailedException: ManagedIdentityCredential authentication failed: the endpoint said", reason);
        Assert.DoesNotContain(jwt[..20], reason);
        Assert.DoesNotContain("secret-token-1", reason);
        Assert.DoesNotContain("troubleshooting", reason);
        Assert.True(reason.Length < 280, reason);
        Assert.Equal((1, 1), (source.Fetched, source.Failed));
    }
}
