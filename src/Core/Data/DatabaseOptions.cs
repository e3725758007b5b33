namespace BenchDashboard.Core.Data;

/// <summary>Where results are stored. Section "Database".</summary>
public sealed class DatabaseOptions
{
    public const string Section = "Database";

    /// <summary>
    /// <c>sqlite</c> (the default: the file at <see cref="Path"/>) or <c>postgresql</c> (the server named by
    /// <c>ConnectionStrings:results</c>, shared by every dashboard and runner pointed at it).
    /// </summary>
    [System.ComponentModel.DataAnnotations.RegularExpression("(?i)^(sqlite|postgresql)$", ErrorMessage = "Database:Provider must be sqlite or postgresql.")]
    public string Provider { get; set; } = DatabaseProviders.Sqlite;

    public bool IsPostgreSql => string.Equals(Provider, DatabaseProviders.PostgreSql, StringComparison.OrdinalIgnoreCase);

    /// <summary>
    /// ConnectionStrings:results, copied here when the options are built. It may hold a password: it is never
    /// shown on a page or in /healthz, and never logged.
    /// </summary>
    public string? ConnectionString { get; set; }

    /// <summary>
    /// SQLite file path; relative paths are resolved against the host's content root. Unset: see
    /// <see cref="ResolvePath"/>. Keep it on local disk: SQLite's locks are unreliable on network file systems.
    /// </summary>
    public string? Path { get; set; }

    /// <summary>
    /// A folder of data-protection keys (ASP.NET Core's file-system key ring) copied into the database at each
    /// dashboard start: the ring of versions that kept it on disk (the dashboard's <c>SharedKeys</c>). Unset: ASP.NET
    /// Core's default folder (~/.aspnet/DataProtection-Keys; %HOME%/ASP.NET/DataProtection-Keys on App Service).
    /// </summary>
    public string? LegacyKeyRingPath { get; set; }

    /// <summary>How long a statement waits for another connection's lock before it fails with SQLITE_BUSY (SQLite only).</summary>
    [System.ComponentModel.DataAnnotations.Range(1, 600)]
    public int BusyTimeoutSeconds { get; set; } = 30;

    /// <summary>
    /// A ceiling on the database file (SQLite's max_page_count, set on every connection); null for none. Past it,
    /// writes fail as "database full": runs stop with that reason instead of filling a small disk (an App
    /// Service instance's local disk is a few GiB). SQLite only: a PostgreSQL server's size is its administrator's.
    /// </summary>
    [System.ComponentModel.DataAnnotations.Range(1, 1_000_000)]
    public int? MaxSizeMiB { get; set; }

    /// <summary>
    /// Whether the dashboard converts sample rows of a database from before blocks into blocks in the background
    /// (<see cref="SampleRowsUpgrade"/>). Off, runs stored as rows stay rows and are read as they are.
    /// </summary>
    public bool ConvertSampleRows { get; set; } = true;

    /// <summary>Space kept free beside the database so that a run that fills the disk can still record its end (<see cref="StorageReserve"/>); 0 for none. SQLite only.</summary>
    [System.ComponentModel.DataAnnotations.Range(0, 1024)]
    public int ReserveMiB { get; set; } = 4;

    /// <summary>
    /// The file to use. An explicit <see cref="Path"/> wins. Otherwise, on App Service (WEBSITE_INSTANCE_ID is
    /// set) the temp directory on the instance's local disk: the content root there is the /home share
    /// (CIFS on Linux), where SQLite's locks fail and WAL cannot work, and it may be read-only (run from
    /// package). That disk is lost on restart and not shared between instances: point Database:Path at
    /// something durable, or use a server database, when results must outlive the instance. Elsewhere,
    /// data/benchdashboard.db under the content root.
    /// </summary>
    public string ResolvePath(string contentRoot, Func<string, string?> environment)
    {
        if (!string.IsNullOrWhiteSpace(Path))
            return System.IO.Path.IsPathRooted(Path) ? Path : System.IO.Path.Combine(contentRoot, Path);
        if (!string.IsNullOrEmpty(environment("WEBSITE_INSTANCE_ID")))
            return System.IO.Path.Combine(System.IO.Path.GetTempPath(), "benchdashboard", "benchdashboard.db");
        return System.IO.Path.Combine(contentRoot, "data", "benchdashboard.db");
    }

    /// <summary>The file's absolute path for this host; its folder is created if missing.</summary>
    public string FullPath(Microsoft.Extensions.Hosting.IHostEnvironment environment)
    {
        var path = System.IO.Path.GetFullPath(ResolvePath(environment.ContentRootPath, Environment.GetEnvironmentVariable));
        Directory.CreateDirectory(System.IO.Path.GetDirectoryName(path)!);
        return path;
    }
}
