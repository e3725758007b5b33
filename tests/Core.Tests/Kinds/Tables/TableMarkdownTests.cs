using System.Globalization;
using System.Text.Json;
using BenchDashboard.Core.Kinds.Tables;
using BenchDashboard.Core.Reports.Markdown;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;
using BenchDashboard.TestSupport;

namespace BenchDashboard.Core.Tests.Kinds.Tables;

/// <summary>A Table run's Markdown: the matrix per entity first, nothing that blends single inserts with batches, no wall of per-second windows.</summary>
public class TableMarkdownTests
{
    static readonly TableParameters Parameters = new() { Connection = "tables", Expect100Continue = [true], Nagle = [true, false], BatchSize = 10 };

    /// <summary>60 rounds over 60 s, one request of each variant a round: a single insert takes 2 ms, a batch of 10 takes 8 ms (0.8 ms an entity).</summary>
    static (Run Run, RunDigest Digest) Finished()
    {
        var samples = new List<Sample>();
        var variants = Parameters.Variants();
        for (var round = 0; round < 60; round++)
            foreach (var v in variants)
                samples.Add(new Sample
                {
                    Index = samples.Count, OffsetNs = round * 1_000_000_000L + samples.Count % 4 * 10_000_000L, StatusCode = 204,
                    LatencyNs = (v.Operation == TableOperation.Batch ? 8_000_000L : 2_000_000L) + round * 1_000, Series = v.Series,
                });
        var run = new Run { Id = 7, Kind = TableKind.KindName, Status = RunStatus.Completed, ParametersJson = BenchDashboard.Core.Json.Serialize(Parameters) };
        return (run, RunDigest.Build(samples, LatencyBasis.Corrected, (series, seen) => TableVariantFigures.From(Parameters, series, seen)).Digest);
    }

    static IReadOnlyList<BenchDashboard.Core.Reports.AnswerTable> Answer(RunDigest digest) =>
        TableAnswer.Of(digest.Figures!.Value.Deserialize<List<TableVariantFigures>>(BenchDashboard.Core.Json.Options)!);

    [Fact]
    public void ItLeadsWithEachVariantPerEntityAndBlendsNothing()
    {
        var (run, digest) = Finished();

        var markdown = RunMarkdown.Of(run, digest, "{}", answer: Answer(digest), blended: false);

        Assert.StartsWith("#### Per variant, per entity", markdown[markdown.IndexOf("####", StringComparison.Ordinal)..]);
        var matrix = MarkdownTables.Find(markdown, "Variant");
        Assert.Equal(["single/expect-on/nagle-on", "single/expect-on/nagle-off", "batch/expect-on/nagle-on", "batch/expect-on/nagle-off"], matrix.Skip(1).Select(r => r[0]));
        var batch = matrix.Single(r => r[0] == "batch/expect-on/nagle-on");
        Assert.Equal("10", batch[1]);
        var p50 = digest.Series.Single(s => s.Name == "batch/expect-on/nagle-on").Statistics.Latency!.P50Ns;
        Assert.Equal((p50 / 10 / 1e6).ToString("F3", CultureInfo.InvariantCulture), batch[2]);
        Assert.Equal("baseline", batch[6]);
        // Nothing of the run in all describes a variant: no median, rate or ladder of them together, no variant as a percentage of another.
        var summary = MarkdownTables.Find(markdown, "Field").Skip(1).Select(r => r[0]).ToList();
        Assert.DoesNotContain("Median", summary);
        Assert.DoesNotContain("Requests per second", summary);
        Assert.DoesNotContain("Percentage of the requests served", markdown);
        Assert.DoesNotContain("% of first", markdown);
        Assert.DoesNotContain("window, series", markdown);
        Assert.Contains("?format=markdown&window=SECONDS", markdown);
    }

    [Fact]
    public void ItsWindowsComeWhenAskedFor()
    {
        var (run, digest) = Finished();

        var markdown = RunMarkdown.Of(run, digest, "{}", windowSeconds: 10, answer: Answer(digest), blended: false);

        Assert.Equal(4, MarkdownTables.Of(markdown).Count(t => t[0][0] == "Window"));
        Assert.Contains("Per 10-second window, series batch/expect-on/nagle-off (ms)", markdown);
    }
}
