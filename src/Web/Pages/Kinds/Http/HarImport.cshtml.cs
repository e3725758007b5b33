using BenchDashboard.Web.Api;
using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.RazorPages;

namespace BenchDashboard.Web.Pages.Kinds.Http;

/// <summary>
/// <c>POST /api/journeys/har</c> for the forms: a page, so the signed-in administrator's cookie counts here (the API
/// takes only the key) and the form's anti-forgery token (sent as a header) keeps other sites' pages out.
/// </summary>
public sealed class HarImportModel : PageModel
{
    public IActionResult OnGet() => NotFound();

    public async Task<IActionResult> OnPostAsync(bool keepStatic, CancellationToken ct)
    {
        await (await JourneysApi.ConvertHarAsync(Request, keepStatic, ct)).ExecuteAsync(HttpContext);
        return new EmptyResult();
    }
}
