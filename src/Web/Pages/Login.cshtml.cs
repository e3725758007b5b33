using System.Security.Claims;
using BenchDashboard.Web.Security;
using Microsoft.AspNetCore.Authentication;
using Microsoft.AspNetCore.Authentication.Cookies;
using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.RazorPages;
using Microsoft.Extensions.Options;

namespace BenchDashboard.Web.Pages;

/// <summary>Administrator sign-in with Auth:AdminPassword (or the API key); a cookie keeps it for the session.</summary>
[Microsoft.AspNetCore.RateLimiting.EnableRateLimiting(GuessLimits.SignIn)]
public sealed class LoginModel(IOptions<AuthOptions> options, ILogger<LoginModel> logger) : PageModel
{
    [BindProperty] public string Password { get; set; } = "";
    [BindProperty(SupportsGet = true)] public string? ReturnUrl { get; set; }
    public string? Error { get; private set; }

    public void OnGet()
    {
    }

    public async Task<IActionResult> OnPostAsync()
    {
        var o = options.Value;
        if (!AccessRules.SecretMatches(Password, o.AdminPassword) && !AccessRules.SecretMatches(Password, o.ApiKey))
        {
            logger.LogWarning("A failed administrator sign-in from {Address}", HttpContext.Connection.RemoteIpAddress);
            Error = string.IsNullOrEmpty(o.AdminPassword) && string.IsNullOrEmpty(o.ApiKey)
                ? "No administrator password is configured (Auth:AdminPassword)."
                : "That is not the administrator password.";
            return Page();
        }
        var identity = new ClaimsIdentity([new Claim(ClaimTypes.Name, "admin")], CookieAuthenticationDefaults.AuthenticationScheme);
        await HttpContext.SignInAsync(CookieAuthenticationDefaults.AuthenticationScheme, new ClaimsPrincipal(identity));
        return LocalRedirect(Url.IsLocalUrl(ReturnUrl) ? ReturnUrl! : "/");
    }

    public async Task<IActionResult> OnPostLogoutAsync()
    {
        await HttpContext.SignOutAsync(CookieAuthenticationDefaults.AuthenticationScheme);
        return LocalRedirect("/");
    }
}
