using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Data;
using BenchDashboard.Core.Reports;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;
using BenchDashboard.Core.Stores;
using BenchDashboard.Core.Tests.Data;
using BenchDashboard.Core.Tests.Statistics;
using BenchDashboard.TestSupport;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;

namespace BenchDashboard.Core.Tests.Stores;

/// <summary>
/// A run's digest is built from its stored samples streamed into columns (<see cref="SampleTable"/>), never as a
/// list of them: it must be the digest the list of the same samples gives, for every basis, with the same sorted
/// latencies stored beside it.
/// </summary>
public class RunDigestsStreamingTests
{
    public static TheoryProviders Providers => TestDatabase.Providers;

    [Theory]
    [MemberData(nameof(Providers))]
    public async Task ADigestBuiltFromTheStoredBlocksIsTheOneTheSampleListGives(string provider)
    {
        await using var database = await TestDatabase.CreateAsync(provider);
        await using var services = DatabaseServices.For(database);
        using var scope = services.CreateScope();
        var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
        await db.Database.MigrateAsync();
        var kinds = scope.ServiceProvider.GetRequiredService<BenchmarkKinds>();
        var digests = scope.ServiceProvider.GetRequiredService<RunDigests>();

        foreach (var (name, samples) in DigestRuns.All())
        {
            var run = new Run
            {
                Kind = "http", ParametersJson = """{"url":"http://127.0.0.1:9/","requests":10}""", QueuedUtcMs = 0, Status = RunStatus.Completed,
            };
            db.Runs.Add(run);
            await db.SaveChangesAsync();
            foreach (var s in samples) s.RunId = run.Id;
            // The plain run is half converted: every third sample still a row, so the build merges rows into blocks.
            var asRows = name == "plain" ? samples.Where(s => s.Index % 3 == 0).ToList() : [];
            db.SampleBlocks.AddRange(SampleBlock.Pack(run.Id, samples.Except(asRows)));
            db.Samples.AddRange(asRows.Select(s => s.Copy()));
            await db.SaveChangesAsync();
            db.ChangeTracker.Clear();

            var built = await digests.BuildAsync(run, store: true, CancellationToken.None);

            var bases = samples.Any(s => s.LagNs.HasValue) ? new[] { LatencyBasis.Corrected, LatencyBasis.Service } : [LatencyBasis.Corrected];
            Assert.Equal(bases, built.Keys.Order());
            foreach (var basis in bases)
            {
                var (expected, sorted) = RunDigest.Build(basis.Apply(samples), basis,
                    (series, seen) => kinds.Ask(run, (kind, p) => kind is IKindFigures own ? own.Figures(p, series, seen) : null));
                Assert.Equal(Json.Serialize(expected), Json.Serialize(built[basis]));
                Assert.Equal(Json.Serialize(expected), Json.Serialize(await digests.GetAsync(run, basis, CancellationToken.None)));
                foreach (var (series, latencies) in sorted)
                    Assert.Equal(latencies, await digests.SortedLatenciesAsync(run, basis, series, CancellationToken.None));
            }
            Assert.True(built[LatencyBasis.Corrected].Statistics.Count > 0);
        }
    }
}
