using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Web.Pages.Kinds;

namespace BenchDashboard.Web.Pages.Shared;

/// <summary>
/// The Dynamic Cache comparison as a form preset: one endpoint under three settings (the dashboard's own /target/delay at 2, 10
/// and 20 ms: apart by more than a loaded machine's noise), each as runs of its own, 3 runs each, compared by the best of 3. The new-run form's fields filled
/// from the address, so the user sees and may change every one before queuing. Warm-up requests keep a fresh
/// process's first (JIT-compiling) requests out of the figures: a cold first run would widen every verdict.
/// </summary>
public static class SeedExample
{
    /// <summary>The link, for the HTTP form only (the preset is an HTTP job); null for other kinds.</summary>
    public static string? Link(KindPage current, HttpRequest request)
    {
        if (current.Kind.Name != HttpKind.KindName) return null;
        var target = $"{request.Scheme}://{request.Host}/target/delay";
        var fields = new (string Name, string Value)[]
        {
            ("kind", HttpKind.KindName),
            ("Http.Url", target + "?ms=2"), ("Http.FirstVariantName", "delay-2ms"), ("Http.Requests", "100"), ("Http.WarmupRequests", "20"),
            ("Http.Variants[0].Name", "delay-10ms"), ("Http.Variants[0].Url", target + "?ms=10"),
            ("Http.Variants[1].Name", "delay-20ms"), ("Http.Variants[1].Url", target + "?ms=20"),
            ("Repeat.Times", "3"), ("Repeat.SeparateRuns", "true"), ("Repeat.Pick", "best"),
        };
        return "/runs/new?" + string.Join("&", fields.Select(f => $"{Uri.EscapeDataString(f.Name)}={Uri.EscapeDataString(f.Value)}"));
    }
}
