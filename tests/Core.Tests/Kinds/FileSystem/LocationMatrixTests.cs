using BenchDashboard.Core.Comparisons;
using BenchDashboard.Core.Kinds.FileSystem;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Tests.Kinds.FileSystem;

public class LocationMatrixTests
{
    /// <summary>
    /// Locations that took turns, phase after phase: round k runs operation k at every location, in an order drawn per
    /// round. Each latency is the phase's base time, times the location's factor, times noise the machine shares with
    /// the round (a slow stretch hits every location in it) and noise of its own.
    /// </summary>
    static List<Sample> TookTurns(int seed, int rounds, (string Phase, double BaseNs)[] phases, params (string Location, double Factor)[] locations)
    {
        var random = new Random(seed);
        var samples = new List<Sample>();
        long offset = 0;
        foreach (var (phase, baseNs) in phases)
            for (var round = 0; round < rounds; round++)
            {
                var shared = Math.Exp(0.3 * Gaussian(random)) * (round / 50 % 2 == 0 ? 1 : 1.5);
                var leader = random.Next(locations.Length);
                for (var turn = 0; turn < locations.Length; turn++)
                {
                    var (location, factor) = locations[(leader + turn) % locations.Length];
                    var latency = (long)(baseNs * factor * shared * Math.Exp(0.2 * Gaussian(random)));
                    samples.Add(new Sample { Index = samples.Count, OffsetNs = offset, LatencyNs = latency, Series = FileSystemPhases.Series(location, phase) });
                    offset += latency;
                }
            }
        return samples;
    }

    static double Gaussian(Random random) => Math.Sqrt(-2 * Math.Log(1 - random.NextDouble())) * Math.Cos(2 * Math.PI * random.NextDouble());

    static LocationMatrix Matrix(List<Sample> samples) => LocationMatrix.From(LocationFigures.From(SeriesStatistics.From(samples), samples));

    [Fact]
    public void EachLocationIsComparedWithTheFirstInTheSamePhaseNeverWithAnotherPhase()
    {
        // Listing is a thousand times quicker than creating: against create, content's stat would read "1,000× faster".
        var samples = TookTurns(1, 200, [("create", 1_000_000), ("stat", 1_000)], ("temp", 1), ("content", 3));

        var m = Matrix(samples);

        Assert.Equal("temp", m.Baseline);
        Assert.Equal(["create", "stat"], m.Phases);
        Assert.Equal(["temp", "content"], m.Rows.Select(r => r.Location));
        foreach (var (phase, i) in m.Phases.Select((p, i) => (p, i)))
        {
            var temp = m.Rows[0].Cells[i]!.Figures;
            var content = m.Rows[1].Cells[i]!;
            Assert.Equal(phase, content.Figures.Phase);
            Assert.Equal(content.Figures.MedianNs!.Value / temp.MedianNs!.Value, content.Figures.Ratio!.Value, 9);
            Assert.InRange(content.Figures.Ratio!.Value, 2.5, 3.5);
            Assert.Equal(VerdictCall.Slower, content.Figures.MedianCall);
            Assert.True(content.StandsOut);
            Assert.EndsWith("× slower", content.RatioText);
            Assert.Equal("baseline", m.Rows[0].Cells[i]!.RatioText);
            Assert.False(m.Rows[0].Cells[i]!.StandsOut);
        }
    }

    [Fact]
    public void TwoLocationsOnOneDiskAreCalledNoDifferenceInALargeMajorityOfRuns()
    {
        // Two temporary folders on one disk: the same distribution, 40 runs of six phases each.
        var phases = FileSystemPhases.All.Select(p => (p, 50_000.0)).ToArray();
        var cells = Enumerable.Range(0, 40).SelectMany(seed => Matrix(TookTurns(seed, 300, phases, ("temp", 1), ("temp2", 1))).Rows[1].Cells).ToList();

        Assert.Equal(240, cells.Count);
        var called = cells.Count(c => c!.StandsOut);
        Assert.True(called <= cells.Count / 10, $"{called} of {cells.Count} phases of identical locations were called faster or slower");
        Assert.All(cells.Where(c => !c!.StandsOut), c => Assert.DoesNotContain("×", c!.RatioText)); // no ratio read as a finding
    }

    [Fact]
    public void LocationsThatRanOneAfterAnotherAreNotJudgedAndNotColoured()
    {
        // An older run: all of temp's operations, then all of content's.
        var samples = new List<Sample>();
        foreach (var (location, ns) in new[] { ("temp", 1_000_000L), ("content", 3_000_000L) })
            for (var i = 0; i < 100; i++)
                samples.Add(new Sample { Index = samples.Count, OffsetNs = samples.Sum(s => s.LatencyNs), LatencyNs = ns + i, Series = $"{location}/create" });

        var cell = Matrix(samples).Rows[1].Cells[0]!;

        Assert.Null(cell.Figures.MedianCall);
        Assert.False(cell.StandsOut);
        Assert.Equal("3.00× slower, not judged", cell.RatioText);
    }

    [Fact]
    public void APhaseThatDidNotRunAtALocationIsAnEmptyCell()
    {
        var samples = TookTurns(2, 60, [("create", 1_000)], ("temp", 1), ("content", 1));
        samples.AddRange(Enumerable.Range(0, 10).Select(i => new Sample { Index = samples.Count + i, OffsetNs = 1_000_000_000 + i, LatencyNs = 500, Series = "temp/read" }));

        var m = Matrix(samples);

        Assert.Equal(["create", "read"], m.Phases);
        Assert.Null(m.Rows[1].Cells[1]);
        Assert.Equal("baseline", m.Rows[0].Cells[1]!.RatioText);
    }
}
