using Microsoft.AspNetCore.Mvc.ApplicationModels;
using Microsoft.AspNetCore.Mvc.ActionConstraints;
using Microsoft.AspNetCore.Routing;

namespace BenchDashboard.Web.Pages.Reports;

/// <summary>
/// A report is its page rendered again, not a second renderer: the run page and the compare page each get a second
/// address (<c>/runs/{id}/report</c>, <c>/compare/report</c>) marked with <see cref="ReportEndpoint"/>, which picks
/// the layout that inlines every asset (<see cref="Report"/>). GET only: the page's actions are not reports.
/// </summary>
public static class ReportRoutes
{
    public const string Run = "/runs/{id:long}/report";
    public const string Compare = "/compare/report";

    public static PageConventionCollection AddReports(this PageConventionCollection conventions)
    {
        conventions.AddPageRouteModelConvention("/Runs/Details", model => AddReportRoute(model, Run));
        conventions.AddPageRouteModelConvention("/Compare/Index", model => AddReportRoute(model, Compare));
        return conventions;
    }

    static void AddReportRoute(PageRouteModel model, string template)
    {
        // Links to the page (asp-page, redirects) keep leading to the page itself, never to its report.
        var selector = new SelectorModel { AttributeRouteModel = new AttributeRouteModel { Template = template, SuppressLinkGeneration = true } };
        string[] methods = ["GET", "HEAD"];
        selector.EndpointMetadata.Add(ReportEndpoint.Instance);
        selector.EndpointMetadata.Add(new HttpMethodMetadata(methods));
        selector.ActionConstraints.Add(new HttpMethodActionConstraint(methods));
        model.Selectors.Add(selector);
    }
}

/// <summary>Marks the report addresses of a page (<see cref="ReportRoutes"/>).</summary>
public sealed class ReportEndpoint
{
    public static readonly ReportEndpoint Instance = new();
    ReportEndpoint() { }
}
