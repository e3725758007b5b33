using BenchDashboard.Core.Comparisons;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Kinds.FileSystem;

/// <summary>
/// One location's figures in one phase, against the first location in the same phase (never another phase: creating
/// a file and listing one are different operations). <see cref="Ratio"/> is this median ÷ the first location's;
/// <see cref="MedianCall"/> is the verdict on that median, by a block bootstrap over the rounds in which the locations
/// took turns, so a ratio is only ever called a difference when it stands above the locations' own noise. Null for
/// the first location itself, for too few operations (a large file of a few blocks), and for a run whose locations
/// ran one after another (made before they took turns): nothing then keeps a slower moment of the machine from
/// landing on one location only.
/// </summary>
public sealed record LocationFigures(
    string Location, string Phase, int Operations, int Errors, double? MedianNs, double SecondsSpent, bool IsBaseline, double? Ratio,
    VerdictCall? MedianCall)
{
    /// <param name="series">A file-system run's series, named "location/phase", in the order they began.</param>
    public static IReadOnlyList<LocationFigures> From(IReadOnlyList<SeriesStatistics> series, IReadOnlyList<Sample> samples)
    {
        var answered = samples.Where(s => !s.IsWarmup && s.Series is not null && s.Error == ErrorKind.None)
            .GroupBy(s => s.Series!).ToDictionary(g => g.Key, g => g.OrderBy(s => s.Index).Select(s => s.LatencyNs).ToList());
        var named = series.Select(s => (Split: Split(s.Name), Series: s)).Where(x => x.Split is not null).ToList();
        var first = named.FirstOrDefault().Split?.Location;
        return named.Select(x =>
        {
            var (location, phase) = x.Split!.Value;
            var s = x.Series;
            var baseline = location == first ? null : named.FirstOrDefault(y => y.Split == (first, phase)).Series;
            var median = s.Statistics.Latency?.P50Ns;
            var baseMedian = baseline?.Statistics.Latency?.P50Ns;
            double? ratio = median is { } m && baseMedian is > 0 ? m / (double)baseMedian.Value : null;
            VerdictCall? call = null;
            if (baseline is not null && s.TookTurnsWith?.Contains(baseline.Name) == true
                && BlockBootstrap.Change(answered.GetValueOrDefault(baseline.Name) ?? [], answered.GetValueOrDefault(s.Name) ?? [], 500) is { } change)
                call = Verdicts.Call(change, NoiseModel.Interleaved, Verdicts.DefaultMargin);
            return new LocationFigures(location, phase, s.Statistics.Count, s.Statistics.Errors, median, s.Statistics.ElapsedNs / 1e9,
                location == first, ratio, call);
        }).ToList();
    }

    /// <summary>"content/create" → (content, create); a location's label may hold no slash, the phase never does.</summary>
    static (string Location, string Phase)? Split(string name)
    {
        var slash = name.LastIndexOf('/');
        return slash <= 0 ? null : (name[..slash], name[(slash + 1)..]);
    }
}
