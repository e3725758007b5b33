using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Web.Api;

/// <summary>The <c>?latency=corrected|service</c> query parameter of the API and pages (absent: corrected).</summary>
public static class LatencyBasisQuery
{
    public const string Message = "latency is \"corrected\" (from the intended start; the default) or \"service\" (from the actual start).";

    public static bool TryParse(string? value, out LatencyBasis basis)
    {
        basis = LatencyBasis.Corrected;
        switch (value?.Trim().ToLowerInvariant())
        {
            case null or "" or "corrected": return true;
            case "service": basis = LatencyBasis.Service; return true;
            default: return false;
        }
    }

    public static string? Name(LatencyBasis basis) => basis == LatencyBasis.Service ? "service" : null;
}
