using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Kinds.Tables;

/// <summary>
/// One variant's figures in entities, so single inserts and batches compare fairly (seed 003 measured a
/// batch of 10 against one insert). <see cref="EntitiesPerSecond"/> is entities written ÷ the variant's time
/// (<see cref="SeriesStatistics"/>: interleaved, the service time of its requests ÷ the workers that sent
/// them): what the variant achieves while it has the connections to itself. Its wall-clock rate would be
/// misleading, because interleaving gives each variant 1/N of the run.
/// Per-entity latencies are the request's divided by the entities it carries (a percentile divided by a
/// constant is the percentile of the divided values, so these are exact nearest-rank figures).
/// <see cref="MedianCall"/> is the verdict on the median against the same operation's variant with both
/// toggles on (the Table Storage baseline), by a block bootstrap over the interleaved turns; null for that variant
/// itself, for too few requests, and for figures stored before it existed.
/// </summary>
public sealed record TableVariantFigures(
    string Series, int EntitiesPerRequest, int Requests, int Succeeded, long EntitiesWritten, double? EntitiesPerSecond,
    double? MeanPerEntityNs, double? P50PerEntityNs, double? P95PerEntityNs, IReadOnlyDictionary<int, int> Statuses,
    Comparisons.VerdictCall? MedianCall = null)
{
    public static IReadOnlyList<TableVariantFigures> From(TableParameters p, IReadOnlyList<SeriesStatistics> series, IReadOnlyList<Sample> samples)
    {
        var measured = samples.Where(s => !s.IsWarmup && s.Series is not null).GroupBy(s => s.Series!).ToDictionary(g => g.Key, g => g.ToList());
        var figures = new List<TableVariantFigures>();
        var variants = p.Variants();
        foreach (var variant in variants)
        {
            var stats = series.FirstOrDefault(s => s.Name == variant.Series)?.Statistics;
            var own = measured.GetValueOrDefault(variant.Series) ?? [];
            var per = p.EntitiesPer(variant.Operation);
            var succeeded = own.Count(s => s.Error == ErrorKind.None);
            var written = (long)succeeded * per;
            var statuses = own.Where(s => s.StatusCode is not null).GroupBy(s => s.StatusCode!.Value).OrderBy(g => g.Key).ToDictionary(g => g.Key, g => g.Count());
            var latency = stats?.Latency;
            figures.Add(new TableVariantFigures(variant.Series, per, own.Count, succeeded, written,
                stats is { ElapsedNs: > 0 } ? written / (stats.ElapsedNs / 1e9) : null,
                latency?.MeanNs / per, latency?.P50Ns / (double)per, latency?.P95Ns / (double)per, statuses,
                CallAgainstBaseline(variants, variant, measured)));
        }
        return figures;
    }

    /// <summary>The variant's median against its operation's both-on variant; they took turns, so their turns are paired.</summary>
    static Comparisons.VerdictCall? CallAgainstBaseline(IReadOnlyList<TableVariant> variants, TableVariant variant, Dictionary<string, List<Sample>> measured)
    {
        var baseline = variants.FirstOrDefault(v => v.Operation == variant.Operation && v.Expect100Continue && v.Nagle);
        if (baseline is null || baseline == variant) return null;
        IReadOnlyList<long> Answered(TableVariant v) =>
            (measured.GetValueOrDefault(v.Series) ?? []).Where(s => !s.Error.IsTransportError()).OrderBy(s => s.Index).Select(s => s.LatencyNs).ToList();
        return BlockBootstrap.Change(Answered(baseline), Answered(variant), 500) is { } change
            ? Comparisons.Verdicts.Call(change, Comparisons.NoiseModel.Interleaved, Comparisons.Verdicts.DefaultMargin)
            : null;
    }
}
