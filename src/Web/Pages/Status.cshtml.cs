using Microsoft.AspNetCore.Diagnostics;
using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.RazorPages;

namespace BenchDashboard.Web.Pages;

/// <summary>
/// The page a page route's empty error answer becomes (a run, benchmark or address that does not exist), in the
/// layout with a way on, and its status kept; the API's answers stay problem documents (<see cref="StatusPages"/>).
/// </summary>
[IgnoreAntiforgeryToken] // a refused form post is re-executed here too: a token check would refuse it again
public sealed class StatusModel : PageModel
{
    public int Code { get; private set; }

    /// <summary>The address that was asked for, as the visitor typed it.</summary>
    public string? Asked { get; private set; }

    public IActionResult OnGet(int code) => Show(code);

    public IActionResult OnPost(int code) => Show(code);

    IActionResult Show(int code)
    {
        Code = code is >= 400 and <= 599 ? code : StatusCodes.Status404NotFound;
        if (HttpContext.Features.Get<IStatusCodeReExecuteFeature>() is { } original)
            Asked = original.OriginalPathBase + original.OriginalPath + original.OriginalQueryString;
        Response.StatusCode = Code;
        return Page();
    }

    public string Title => Code switch
    {
        StatusCodes.Status404NotFound => "Not found",
        StatusCodes.Status400BadRequest => "Request not understood",
        StatusCodes.Status403Forbidden => "Not allowed",
        StatusCodes.Status405MethodNotAllowed => "Not allowed here",
        StatusCodes.Status429TooManyRequests => "Too many attempts",
        _ => "Something went wrong",
    };
}
