using System.Text.Json;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Reports;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;
using Microsoft.Extensions.Options;

namespace BenchDashboard.Core.Kinds.FileSystem;

/// <summary>Many small files created, read, listed and deleted, and one large file, per directory (App Service file storage: local disk against the shared storage).</summary>
public sealed class FileSystemKind(IOptions<RunLimits> limits, FileSystemRoots roots) : BenchmarkKind<FileSystemParameters>, IKindFigures
{
    public const string KindName = "fileSystem";
    public override string Name => KindName;
    public override string Title => "Files";
    public override string SeriesNoun => "phase";

    public override Task<Dictionary<string, string[]>> ValidateAsync(FileSystemParameters p, CancellationToken ct) =>
        Task.FromResult(FileSystemParametersValidator.Validate(p, roots, limits.Value));

    public override string Describe(FileSystemParameters p) =>
        $"files in {string.Join(", ", p.Directories ?? [])}: {p.FileCount:N0} × {p.FileBytes:N0} B" + (p.LargeFileMiB > 0 ? $", {p.LargeFileMiB} MiB file" : "");

    /// <summary>"{location}/{phase}" for each allowed directory, in the order they run; from the parameters alone (no disk access).</summary>
    public override IReadOnlyList<string> PlannedSeries(FileSystemParameters p) =>
        (p.Directories ?? []).Select((directory, i) => roots.Locate(directory ?? "", i).Location?.Label).OfType<string>()
            .SelectMany(label => FileSystemPhases.All.Where(phase => p.LargeFileMiB > 0 || phase is not (FileSystemPhases.LargeWrite or FileSystemPhases.LargeRead))
                .Select(phase => FileSystemPhases.Series(label, phase)))
            .ToList();

    /// <summary>Creating, reading, listing and deleting are unlike operations: no blended summary, and only the answer compares, each phase across locations.</summary>
    public override SeriesBasis SeriesBasis(FileSystemParameters p) => new(Blended: false, Percentages: false);

    object? IKindFigures.Figures(object parameters, IReadOnlyList<SeriesStatistics> series, IReadOnlyList<Sample> samples) =>
        LocationFigures.From(series, samples);

    IReadOnlyList<AnswerTable> IKindFigures.Answer(JsonElement figures) =>
        LocationAnswer.Of(figures.Deserialize<List<LocationFigures>>(Json.Options) ?? []);

    /// <summary>The two locations every dashboard has: local temp and its content folder (on App Service, the shared storage).</summary>
    public override IReadOnlyList<DemoBenchmark> Demos(string dashboard) =>
        [new("Demo: file system on each location", new FileSystemParameters { Directories = [FileSystemOptions.TempRoot, "content"], FileCount = 500, LargeFileMiB = 8 })];
}
