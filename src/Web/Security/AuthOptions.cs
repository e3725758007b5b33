namespace BenchDashboard.Web.Security;

/// <summary>
/// Section "Auth". Whenever the dashboard listens on anything but loopback, starting, changing and cancelling
/// runs needs an administrator: an API key for the API (header <c>X-Api-Key</c> or <c>Authorization: Bearer</c>),
/// a password (or the key) to sign in to the pages, or App Service authentication (Easy Auth) in front.
/// </summary>
public sealed class AuthOptions
{
    public const string Section = "Auth";

    /// <summary>
    /// "auto", "always" or "never". Auto: not required only in Development while listening on loopback alone
    /// and for requests that did not come through a proxy; a reverse proxy or tunnel on the same machine
    /// (nginx, ngrok, ssh -R) makes a loopback-only app public, so outside Development it is required.
    /// </summary>
    public string Required { get; set; } = "auto";

    public string? ApiKey { get; set; }
    public string? AdminPassword { get; set; }

    /// <summary>Pages and GET API calls need no sign-in. False: they need it too.</summary>
    public bool PublicRead { get; set; } = true;

    /// <summary>
    /// Accept App Service's <c>X-MS-CLIENT-PRINCIPAL-NAME</c> as a signed-in administrator on the pages. Only
    /// safe when App Service authentication is on (the platform then sets and strips the header); null means
    /// "when WEBSITE_AUTH_ENABLED is True".
    /// </summary>
    public bool? TrustEasyAuth { get; set; }

    /// <summary>
    /// Easy Auth principals (X-MS-CLIENT-PRINCIPAL-NAME) who are administrators. Empty: none, since any account
    /// the identity provider accepts can sign in to App Service authentication.
    /// </summary>
    public List<string> Admins { get; set; } = [];

    /// <summary>Sign-in attempts, and requests with a wrong API key, allowed per client address and minute (<see cref="GuessLimits"/>).</summary>
    [System.ComponentModel.DataAnnotations.Range(1, 10_000)]
    public int GuessesPerMinute { get; set; } = 10;
}
