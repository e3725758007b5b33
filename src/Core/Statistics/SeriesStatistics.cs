using BenchDashboard.Core.Runs;

namespace BenchDashboard.Core.Statistics;

/// <summary>
/// The statistics of one series of a run (a cache phase), in the order the series began. Hits and misses
/// count measured reads that got an answer; a miss is an answer, so it is never among the errors.
/// </summary>
public sealed record SeriesStatistics(string Name, RunStatistics Statistics, int Hits, int Misses)
{
    public static IReadOnlyList<SeriesStatistics> From(IReadOnlyList<Sample> samples) =>
        samples.Where(s => s.Series is not null)
            .GroupBy(s => s.Series!)
            .OrderBy(g => g.Min(s => s.Index))
            .Select(g =>
            {
                var series = g.OrderBy(s => s.Index).ToList();
                var measured = series.Where(s => !s.IsWarmup).ToList();
                return new SeriesStatistics(g.Key, RunStatistics.From(series),
                    Hits: measured.Count(s => s.Hit == true), Misses: measured.Count(s => s.Hit == false));
            })
            .ToList();
}
