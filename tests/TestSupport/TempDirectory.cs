namespace BenchDashboard.TestSupport;

/// <summary>A fresh directory under the system temp folder, deleted on dispose (e.g. for a SQLite file).</summary>
public sealed class TempDirectory : IDisposable
{
    public string Path { get; } = System.IO.Path.Combine(System.IO.Path.GetTempPath(), "benchdashboard-tests", Guid.NewGuid().ToString("n"));

    public TempDirectory() => Directory.CreateDirectory(Path);

    public string File(string name) => System.IO.Path.Combine(Path, name);

    public void Dispose()
    {
        try { Directory.Delete(Path, recursive: true); } catch (IOException) { } catch (UnauthorizedAccessException) { }
    }
}
