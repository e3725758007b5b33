using System.Text.RegularExpressions;
using Azure.Core;
using Azure.Identity;
using BenchDashboard.Core.Kinds.Http.Journeys;

namespace BenchDashboard.Runner.Http.Journeys;

/// <summary>
/// A run's tokens from Microsoft Entra for its token steps (<see cref="HttpTokenStep"/>): one credential and one cached
/// token per credential, client id and scope, shared by all the run's workers. The identity endpoint is the platform's
/// (App Service's IDENTITY_ENDPOINT, read by Azure.Identity), not a benchmark target: the target policy does not judge
/// it and no sample times it. Tokens live only here and in a worker's variables; nothing of them is written anywhere.
/// </summary>
sealed class EntraTokens : IDisposable
{
    readonly Dictionary<(HttpTokenCredential, string?, string), TokenSource> sources = [];
    readonly CancellationTokenSource disposed = new();

    /// <summary>The source a step's token comes from: the same for every step that asks for the same token.</summary>
    public TokenSource For(HttpTokenStep step)
    {
        var key = (step.Credential, step.ClientId, step.Scope);
        if (!sources.TryGetValue(key, out var source))
            sources[key] = source = new TokenSource(step, CredentialFor(step), TimeProvider.System, disposed.Token);
        return source;
    }

    public static TokenCredential CredentialFor(HttpTokenStep step) => step.Credential switch
    {
        HttpTokenCredential.Default => new DefaultAzureCredential(new DefaultAzureCredentialOptions { ManagedIdentityClientId = step.ClientId }),
        _ => new ManagedIdentityCredential(step.ClientId is { } id ? ManagedIdentityId.FromUserAssignedClientId(id) : ManagedIdentityId.SystemAssigned),
    };

    /// <summary>What the run's notes say of its tokens: how many were fetched and failed, per source; null without token steps.</summary>
    public string? Note() => sources.Count == 0 ? null :
        "Tokens from Microsoft Entra (" + string.Join("; ", sources.Values.Select(s => $"{s.Describe}: {s.Fetched:N0} fetched, " + (s.Failed == 0 ? "none failed" : $"{s.Failed:N0} failed")))
        + "). A token is shared by the run's workers and renewed at Azure.Identity's RefreshOn or 5 minutes before it expires (half its lifetime when that is shorter), "
        + "one fetch at a time; the time spent getting one is in no step's or iteration's latency. The identity endpoint is the platform's, not a benchmark target.";

    // Cancelled, not disposed: a fetch still under way links its own timeout to it.
    public void Dispose() => disposed.Cancel();
}

/// <summary>
/// One cached token, renewed before it expires. A worker that finds it due for renewal fetches it (one fetch at a time:
/// the others wait for that one, or, while the old token is still good, go on with it), so concurrent workers never
/// stampede the identity endpoint.
/// </summary>
sealed class TokenSource(HttpTokenStep step, TokenCredential credential, TimeProvider time, CancellationToken disposed)
{
    /// <summary>How long one fetch may take (Azure.Identity retries inside it) before it counts as failed.</summary>
    public static readonly TimeSpan FetchTimeout = TimeSpan.FromSeconds(60);

    static readonly TimeSpan RenewMargin = TimeSpan.FromMinutes(5);
    static readonly TimeSpan ExpiryMargin = TimeSpan.FromMinutes(1);

    readonly TokenRequestContext request = new([step.Scope]);
    readonly object gate = new();
    readonly HashSet<string> seen = [];
    Held? held;
    Task<Held>? fetching;
    int fetched, failed;

    /// <summary>A token and when to renew it; past <see cref="UsableUntil"/> (a little before it expires) no step sends it.</summary>
    sealed record Held(string Token, DateTimeOffset RenewAt, DateTimeOffset UsableUntil);

    public string Describe => step.Describe();
    public int Fetched => Volatile.Read(ref fetched);
    public int Failed => Volatile.Read(ref failed);

    /// <summary>The token, fetched first when there is none or it is due for renewal; throws what the credential threw.</summary>
    public async ValueTask<string> GetAsync(CancellationToken ct)
    {
        var now = time.GetUtcNow();
        var current = Volatile.Read(ref held);
        if (current is not null && now < current.RenewAt) return current.Token;
        Task<Held> fetch;
        bool mine;
        lock (gate)
        {
            current = held;
            if (current is not null && now < current.RenewAt) return current.Token;
            mine = fetching is null;
            // On the pool, not inline: a fetch that ends at once must not clear 'fetching' before it is set.
            fetch = fetching ??= Task.Run(FetchAsync, CancellationToken.None);
        }
        // Another worker is renewing it: this one goes on with the one it has while that is still good.
        if (!mine && current is not null && now < current.UsableUntil) return current.Token;
        return (await fetch.WaitAsync(ct)).Token;
    }

    async Task<Held> FetchAsync()
    {
        try
        {
            using var limit = CancellationTokenSource.CreateLinkedTokenSource(disposed);
            limit.CancelAfter(FetchTimeout);
            AccessToken token;
            try
            {
                token = await credential.GetTokenAsync(request, limit.Token);
            }
            catch (OperationCanceledException) when (!disposed.IsCancellationRequested)
            {
                throw new TimeoutException($"no answer within {FetchTimeout.TotalSeconds:N0} s");
            }
            // Its lifetime from when it came: a slow fetch leaves less of it.
            var now = time.GetUtcNow();
            var lifetime = token.ExpiresOn - now;
            var renewAt = token.ExpiresOn - Min(RenewMargin, lifetime / 2);
            // A token the credential's own cache handed back already due is asked for again halfway to its expiry, not at once.
            if (token.RefreshOn is { } refreshOn && refreshOn < renewAt && refreshOn > now) renewAt = refreshOn;
            var fresh = new Held(token.Token, renewAt, token.ExpiresOn - Min(ExpiryMargin, lifetime / 10));
            lock (gate)
            {
                if (seen.Add(token.Token)) fetched++;
                held = fresh;
            }
            return fresh;
        }
        catch
        {
            Interlocked.Increment(ref failed);
            throw;
        }
        finally
        {
            lock (gate) fetching = null;
        }
    }

    /// <summary>
    /// A failed fetch in words a note may keep: the exception's type and the first line of its message, short, with
    /// anything like a token cut out (Azure.Identity's messages can quote the endpoint's answer).
    /// </summary>
    public string Reason(Exception ex)
    {
        var line = (ex.Message ?? "").Split('\n', 2)[0].Trim();
        // A correlation id differs every time: cut there, so the notes count one reason once with how often it came.
        if (line.IndexOf("Correlation ID", StringComparison.OrdinalIgnoreCase) is > 0 and var id) line = line[..id].TrimEnd();
        line = Jwt.Replace(line, "…");
        lock (gate)
            foreach (var token in seen) line = line.Replace(token, "…", StringComparison.Ordinal);
        line = new string(line.Select(c => char.IsControl(c) ? ' ' : c).ToArray());
        if (line.Length > 240) line = line[..240] + "…";
        return $"{ex.GetType().Name}: {line}";
    }

    static TimeSpan Min(TimeSpan a, TimeSpan b) => a < b ? a : b;

    // Not [GeneratedRegex]: its generated namespace is the dashboard's too, and the layering test would read that as a dependency.
    static readonly Regex Jwt = new(@"eyJ[A-Za-z0-9_\-]{8,}(\.[A-Za-z0-9_\-]*){0,2}");
}
