using BenchDashboard.Core.Kinds.FileSystem;

namespace BenchDashboard.Web.Pages.Kinds.FileSystem;

/// <summary>The file-system benchmark's fields as the new-run form and the editor bind them.</summary>
[KindPages(FileSystemKind.KindName, Prefix = "Files", Fields = "/Pages/Kinds/FileSystem/_FileSystemFields.cshtml", Answer = "/Pages/Kinds/FileSystem/_Answer.cshtml")]
public sealed class FileSystemForm : KindForm<FileSystemParameters>
{
    /// <summary>One directory per line: a named root (temp, content, home) or an absolute path under an allowed root.</summary>
    public string Directories { get; set; } = "temp\ncontent";
    public int FileCount { get; set; } = 2000;
    public int FileBytes { get; set; } = 4096;
    public int FilesPerDirectory { get; set; } = 50;
    public int LargeFileMiB { get; set; } = 64;

    public override FileSystemParameters ToParameters(Dictionary<string, string[]> errors) => new()
    {
        Directories = Directories.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).ToList(),
        FileCount = FileCount,
        FileBytes = FileBytes,
        FilesPerDirectory = FilesPerDirectory,
        LargeFileMiB = LargeFileMiB,
    };

    public override void Load(FileSystemParameters p)
    {
        Directories = string.Join("\n", p.Directories);
        FileCount = p.FileCount;
        FileBytes = p.FileBytes;
        FilesPerDirectory = p.FilesPerDirectory;
        LargeFileMiB = p.LargeFileMiB;
    }
}
