using System.Globalization;
using BenchDashboard.Core;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Runs;

namespace BenchDashboard.Web.Pages;

/// <summary>Formatting shared by the pages. Durations keep three decimals of a millisecond (microseconds).</summary>
public static class Display
{
    public static string Ms(long ns) => (ns / 1e6).ToString("N3", CultureInfo.InvariantCulture);
    public static string Ms(double ns) => (ns / 1e6).ToString("N3", CultureInfo.InvariantCulture);
    public static string Seconds(long ns) => (ns / 1e9).ToString("N3", CultureInfo.InvariantCulture) + " s";
    public static string Rate(double perSecond) => perSecond.ToString("N1", CultureInfo.InvariantCulture);
    public static string KiB(double bytes) => (bytes / 1024).ToString("N1", CultureInfo.InvariantCulture) + " KiB";

    public static string Utc(long? unixMs) =>
        unixMs is { } ms ? DateTimeOffset.FromUnixTimeMilliseconds(ms).UtcDateTime.ToString("yyyy-MM-dd HH:mm:ss", CultureInfo.InvariantCulture) : "";

    public static string Duration(Run run) =>
        run.StartedUtcMs is { } start ? (((run.EndedUtcMs ?? DateTimeOffset.UtcNow.ToUnixTimeMilliseconds()) - start) / 1000.0).ToString("N1", CultureInfo.InvariantCulture) + " s" : "";

    public static string Target(Run run)
    {
        if (run.Kind != BenchmarkKind.Http) return run.Kind.ToString();
        var p = Json.Deserialize<HttpParameters>(run.ParametersJson);
        return $"{p.Method} {p.Url}";
    }

    public static string Percent(int part, int whole) =>
        whole == 0 ? "" : (100.0 * part / whole).ToString("N1", CultureInfo.InvariantCulture) + " %";
}
