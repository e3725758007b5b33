using System.IO.Compression;
using System.Text;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Tests.Statistics;

/// <summary>
/// The digest of each of <see cref="DigestRuns"/> is what the build before digests were built from columns
/// (<c>SampleTable</c>) made of the same samples, byte for byte: Statistics/Digests/*.json.gz were written by
/// that build (main at df7c8ed, digest version 9, with this file and DigestRuns.cs added and DIGEST_GOLDEN_WRITE set to a directory).
/// A change meant to change what a digest holds raises <see cref="RunDigest.CurrentVersion"/> and writes them again.
/// </summary>
public class DigestGoldenTests
{
    /// <summary>A kind's figures and a run's configurations read the samples as a list; these read every field of every one.</summary>
    static object Reads(IReadOnlyList<SeriesStatistics> series, IReadOnlyList<Sample> seen) => new
    {
        series = series.Count,
        samples = seen.Count,
        hits = seen.Count(s => s.Hit == true),
        lastSeries = seen.LastOrDefault(s => s.Series is not null)?.Series,
        fields = seen.Sum(s => (double)s.Index + s.OffsetNs + s.LatencyNs + (s.LagNs ?? 0) + (s.HeadersNs ?? 0) + (s.ConnectNs ?? 0)
            + (s.StatusCode ?? 0) + s.Bytes + (int)s.Error + (s.IsWarmup ? 1 : 0) + s.Connection + (s.Shard ?? 0) + s.RunId),
    };

    public static IEnumerable<(string Name, string Json)> Digests()
    {
        foreach (var (name, samples) in DigestRuns.All())
            foreach (var basis in samples.Any(s => s.LagNs.HasValue) ? new[] { LatencyBasis.Corrected, LatencyBasis.Service } : [LatencyBasis.Corrected])
            {
                var (digest, sorted) = RunDigest.Build(basis.Apply(samples), basis, Reads, Reads);
                // The sorted latencies by their count, sum and order: all of them would be most of the files.
                var latencies = sorted.ToDictionary(s => s.Key, s => new { s.Value.Length, Sum = s.Value.Sum(), Ordered = s.Value.SequenceEqual(s.Value.Order()) });
                yield return ($"{name}-{basis}", Json.Serialize(new { digest, latencies }));
            }
    }

    [Fact]
    public void EachDigestIsTheOneTheSampleListsGaveBeforeColumns()
    {
        var write = Environment.GetEnvironmentVariable("DIGEST_GOLDEN_WRITE");
        var dir = Path.Combine(AppContext.BaseDirectory, "Statistics", "Digests");
        var compared = 0;
        foreach (var (name, json) in Digests())
        {
            if (!string.IsNullOrEmpty(write))
            {
                Directory.CreateDirectory(write);
                using var file = new GZipStream(File.Create(Path.Combine(write, name + ".json.gz")), CompressionLevel.SmallestSize);
                file.Write(Encoding.UTF8.GetBytes(json));
                continue;
            }
            using var reader = new StreamReader(new GZipStream(File.OpenRead(Path.Combine(dir, name + ".json.gz")), CompressionMode.Decompress));
            var expected = reader.ReadToEnd();
            if (expected != json)
            {
                var at = Enumerable.Range(0, Math.Min(expected.Length, json.Length)).FirstOrDefault(i => expected[i] != json[i], Math.Min(expected.Length, json.Length));
                string Around(string s) => s.Substring(Math.Max(0, at - 120), Math.Min(240, s.Length - Math.Max(0, at - 120)));
                Assert.Fail($"{name} differs at character {at}:\nexpected …{Around(expected)}…\nactual   …{Around(json)}…");
            }
            compared++;
        }
        Assert.True(string.IsNullOrEmpty(write) ? compared == 5 : compared == 0);
    }
}
