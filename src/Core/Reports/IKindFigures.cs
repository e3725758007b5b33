using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Reports;

/// <summary>
/// A kind with figures only it has (Table: per variant, in entities), for the API's <c>figures</c>. Computed once
/// from the run's samples, when its digest is built.
/// </summary>
public interface IKindFigures
{
    object? Figures(object parameters, IReadOnlyList<SeriesStatistics> series, IReadOnlyList<Sample> samples);
}
