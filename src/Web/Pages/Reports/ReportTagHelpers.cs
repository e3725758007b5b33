using Microsoft.AspNetCore.Mvc.Rendering;
using Microsoft.AspNetCore.Mvc.ViewFeatures;
using Microsoft.AspNetCore.Razor.TagHelpers;

namespace BenchDashboard.Web.Pages.Reports;

/// <summary>
/// In a report, the site's own scripts, style sheets and icon come inline instead of from the server, so the saved
/// file needs nothing else: &lt;script src&gt; carries its text, &lt;link rel=stylesheet&gt; becomes &lt;style&gt;,
/// &lt;link rel=icon&gt; a data: address. Elsewhere it changes nothing. Runs after the framework's helpers
/// (asp-append-version), whose output it replaces.
/// </summary>
[HtmlTargetElement("script", Attributes = "src")]
[HtmlTargetElement("link", Attributes = "href")]
public sealed class ReportInlineTagHelper(ReportAssets assets) : TagHelper
{
    public override int Order => int.MaxValue;

    [HtmlAttributeNotBound, ViewContext]
    public ViewContext ViewContext { get; set; } = null!;

    public override void Process(TagHelperContext context, TagHelperOutput output)
    {
        if (!Report.IsReport(ViewContext.HttpContext)) return;
        var attribute = output.TagName == "script" ? "src" : "href";
        var address = context.AllAttributes[attribute]?.Value?.ToString();
        if (ReportAssets.LocalPath(address) is not { } path) throw new InvalidOperationException($"A report cannot inline {address}: only the site's own files.");
        var rel = context.AllAttributes["rel"]?.Value?.ToString();
        if (output.TagName == "script")
        {
            output.Attributes.RemoveAll("src");
            output.Content.SetHtmlContent(assets.Script(path));
        }
        else if (rel == "stylesheet")
        {
            output.TagName = "style";
            output.TagMode = TagMode.StartTagAndEndTag;
            output.Attributes.Clear();
            output.Content.SetHtmlContent(assets.Style(path));
        }
        else
        {
            output.Attributes.SetAttribute("href", assets.DataUrl(path));
        }
    }
}

/// <summary>A report has no forms: its actions (run again, delete, judge again) need the dashboard, not a file.</summary>
[HtmlTargetElement("form")]
public sealed class ReportFormsTagHelper : TagHelper
{
    public override int Order => int.MaxValue;

    [HtmlAttributeNotBound, ViewContext]
    public ViewContext ViewContext { get; set; } = null!;

    public override void Process(TagHelperContext context, TagHelperOutput output)
    {
        if (Report.IsReport(ViewContext.HttpContext)) output.SuppressOutput();
    }
}
