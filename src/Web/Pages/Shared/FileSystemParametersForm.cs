using BenchDashboard.Core.Benchmarks;

namespace BenchDashboard.Web.Pages.Shared;

/// <summary>The file-system parameter fields as a form binds them; converts to and from <see cref="FileSystemParameters"/>.</summary>
public sealed class FileSystemParametersForm
{
    /// <summary>One directory per line: a named root (temp, content, home) or an absolute path under an allowed root.</summary>
    public string Directories { get; set; } = "temp\ncontent";
    public int FileCount { get; set; } = 2000;
    public int FileBytes { get; set; } = 4096;
    public int FilesPerDirectory { get; set; } = 50;
    public int LargeFileMiB { get; set; } = 64;

    public FileSystemParameters ToParameters() => new()
    {
        Directories = Directories.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).ToList(),
        FileCount = FileCount,
        FileBytes = FileBytes,
        FilesPerDirectory = FilesPerDirectory,
        LargeFileMiB = LargeFileMiB,
    };

    public static FileSystemParametersForm From(FileSystemParameters p) => new()
    {
        Directories = string.Join("\n", p.Directories),
        FileCount = p.FileCount,
        FileBytes = p.FileBytes,
        FilesPerDirectory = p.FilesPerDirectory,
        LargeFileMiB = p.LargeFileMiB,
    };
}
