using System.Threading.RateLimiting;
using Microsoft.AspNetCore.RateLimiting;
using Microsoft.Extensions.Options;

namespace BenchDashboard.Web.Security;

/// <summary>
/// Slows down guessing of the administrator's secrets with ASP.NET Core's rate limiter: per client address,
/// at most <see cref="AuthOptions.GuessesPerMinute"/> sign-in attempts, and as many requests that present a
/// wrong API key; past that, 429 with Retry-After. A request with the right key, or none, is never limited.
/// (Behind a proxy that hides client addresses, all clients share one budget: a guesser can lock the
/// sign-in for a minute, never open it.)
/// </summary>
public static class GuessLimits
{
    public const string SignIn = "sign-in";

    public static IServiceCollection AddGuessLimits(this IServiceCollection services) => services.AddRateLimiter(limiter =>
    {
        limiter.RejectionStatusCode = StatusCodes.Status429TooManyRequests;
        limiter.OnRejected = async (context, ct) =>
        {
            context.HttpContext.Response.Headers.RetryAfter = "60";
            await Results.Problem(statusCode: StatusCodes.Status429TooManyRequests, title: "Too many attempts",
                detail: "Too many sign-in attempts or wrong API keys from this address; try again in a minute.").ExecuteAsync(context.HttpContext);
        };
        limiter.AddPolicy(SignIn, context => HttpMethods.IsPost(context.Request.Method)
            ? RateLimitPartition.GetFixedWindowLimiter("sign-in " + Client(context), _ => Window(context))
            : RateLimitPartition.GetNoLimiter(""));
        limiter.GlobalLimiter = PartitionedRateLimiter.Create<HttpContext, string>(context => PresentsWrongKey(context)
            ? RateLimitPartition.GetFixedWindowLimiter("key " + Client(context), _ => Window(context))
            : RateLimitPartition.GetNoLimiter(""));
    });

    static FixedWindowRateLimiterOptions Window(HttpContext context) => new()
    {
        PermitLimit = context.RequestServices.GetRequiredService<IOptions<AuthOptions>>().Value.GuessesPerMinute,
        Window = TimeSpan.FromMinutes(1),
        QueueLimit = 0,
    };

    static string Client(HttpContext context) => context.Connection.RemoteIpAddress?.ToString() ?? "unknown";

    /// <summary>An X-Api-Key or Bearer token that is not the key (on the agents' link: not the named agent's key).</summary>
    static bool PresentsWrongKey(HttpContext context)
    {
        var request = context.Request;
        if (request.Path.StartsWithSegments(Core.Agents.AgentProtocol.Path))
            return context.RequestServices.GetRequiredService<Agents.AgentKeys>().PresentsWrongKey(request);
        var bearer = AccessRules.BearerToken(request);
        var given = request.Headers["X-Api-Key"].ToString() is { Length: > 0 } header ? header : bearer;
        if (string.IsNullOrEmpty(given)) return false;
        return !AccessRules.SecretMatches(given, context.RequestServices.GetRequiredService<IOptions<AuthOptions>>().Value.ApiKey);
    }
}
