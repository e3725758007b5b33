using Microsoft.AspNetCore.Html;
using Microsoft.AspNetCore.Mvc.Rendering;
using Microsoft.AspNetCore.Mvc.ViewFeatures;

namespace BenchDashboard.Web.Pages.Kinds;

public static class KindFieldsHtml
{
    /// <summary>A kind's fields partial under its prefix, so inputs and their error messages are named "Http.Url".</summary>
    public static Task<IHtmlContent> KindFieldsAsync(this IHtmlHelper html, KindPage page, IKindForm form) =>
        html.PartialAsync(page.Pages.Fields, form, new ViewDataDictionary(html.ViewData) { TemplateInfo = { HtmlFieldPrefix = page.Pages.Prefix } });
}
