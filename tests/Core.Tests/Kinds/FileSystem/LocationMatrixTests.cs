using BenchDashboard.Core.Kinds.FileSystem;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Tests.Kinds.FileSystem;

public class LocationMatrixTests
{
    /// <summary>A series of two operations spanning <paramref name="seconds"/> of wall time.</summary>
    static SeriesStatistics Series(string name, double seconds)
    {
        var ns = (long)(seconds * 1e9);
        var samples = new List<Sample>
        {
            new() { Index = 0, OffsetNs = 0, LatencyNs = ns / 2, Series = name },
            new() { Index = 1, OffsetNs = ns / 2, LatencyNs = ns / 2, Series = name },
        };
        return new SeriesStatistics(name, RunStatistics.From(samples), 0, 0);
    }

    [Fact]
    public void SeedOnesLocationsReadAsRatiosToTheFastestInEachPhase()
    {
        // Seed 001: download / extract / delete in seconds on local disk, local temp and the share.
        var series = new[]
        {
            Series("local/large-write", 10), Series("local/create", 15), Series("local/delete", 4),
            Series("temp/large-write", 12), Series("temp/create", 7), Series("temp/delete", 5),
            Series("home/large-write", 11), Series("home/create", 44), Series("home/delete", 87),
        };

        var m = LocationMatrix.From(series);

        Assert.Equal(["large-write", "create", "delete"], m.Phases);
        Assert.Equal(["local", "temp", "home"], m.Rows.Select(r => r.Location));
        var home = m.Rows[2].Cells;
        Assert.Equal(1.1, home[0]!.TimesFastest!.Value, 6);
        Assert.Equal(44 / 7.0, home[1]!.TimesFastest!.Value, 6);
        Assert.Equal(87 / 4.0, home[2]!.TimesFastest!.Value, 6);
        Assert.True(m.Rows[1].Cells[1]!.IsFastest);
        Assert.False(home[2]!.IsFastest);
    }

    [Fact]
    public void APhaseThatDidNotRunAtALocationIsAnEmptyCell()
    {
        var m = LocationMatrix.From([Series("temp/create", 1), Series("temp/read", 2), Series("content/create", 3)]);

        Assert.Equal(["create", "read"], m.Phases);
        Assert.Null(m.Rows[1].Cells[1]);
        Assert.Equal(3, m.Rows[1].Cells[0]!.TimesFastest!.Value, 6);
    }
}
