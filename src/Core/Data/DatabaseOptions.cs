namespace BenchDashboard.Core.Data;

/// <summary>Where results are stored. Section "Database".</summary>
public sealed class DatabaseOptions
{
    public const string Section = "Database";

    /// <summary>
    /// SQLite file path; relative paths are resolved against the host's content root. Keep it on local disk:
    /// SQLite's locks are unreliable on network file systems.
    /// </summary>
    public string Path { get; set; } = "data/benchdashboard.db";
}
