using System.Globalization;

namespace BenchDashboard.Core.Runs.Text;

/// <summary>
/// Bytes and transfer rates as the pages, the Markdown report and benchdash all print them: KiB (1,024 bytes)
/// with one decimal, so a figure reads the same wherever it is copied from.
/// </summary>
/// <remarks>Depends on the base library alone: benchdash compiles this file in, as it does <see cref="RunText"/>.</remarks>
public static class ByteSizes
{
    public static string KiB(double bytes) => (bytes / 1024).ToString("N1", CultureInfo.InvariantCulture) + " KiB";

    public static string KiBPerSecond(double bytesPerSecond) => KiB(bytesPerSecond) + "/s";
}
