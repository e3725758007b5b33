using BenchDashboard.Core.Benchmarks;

namespace BenchDashboard.Core.Kinds.FileSystem;

/// <summary>
/// Parameters of a file-system benchmark (extracting a language runtime, thousands of small files
/// in nested folders, was measured up to 20× slower on App Service's shared storage than on local disk). Names
/// match the JSON API (camelCase).
/// </summary>
public sealed record FileSystemParameters
{
    /// <summary>
    /// Where to measure, in order: a named root ("temp", "home", "content"; see <see cref="FileSystemOptions"/>)
    /// or a path under one of the allowed roots. Each gets its own tree, removed afterwards.
    /// </summary>
    public List<string> Directories { get; init; } = ["temp"];

    /// <summary>Small files in the tree (a language runtime's archive holds thousands).</summary>
    public int FileCount { get; init; } = 2000;
    public int FileBytes { get; init; } = 4096;

    /// <summary>Files per folder; folders nest two levels deep (d00/d00/f00000.dat).</summary>
    public int FilesPerDirectory { get; init; } = 50;

    /// <summary>One large file written then read sequentially in 1 MiB blocks, for contrast (0: skip).</summary>
    public int LargeFileMiB { get; init; } = 64;
}

/// <summary>The phases of each location, in order; each is a series named "{location}/{phase}".</summary>
public static class FileSystemPhases
{
    public const string Create = "create";
    public const string Read = "read";
    public const string Stat = "stat";
    public const string Delete = "delete";
    public const string LargeWrite = "large-write";
    public const string LargeRead = "large-read";

    public static readonly string[] All = [Create, Read, Stat, Delete, LargeWrite, LargeRead];

    public static string Series(string location, string phase) => $"{location}/{phase}";
}
