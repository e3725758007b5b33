using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Calibration;
using BenchDashboard.Core.Comparisons;
using BenchDashboard.Core.Data;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;
using Microsoft.EntityFrameworkCore;

namespace BenchDashboard.Core.Stores;

/// <summary>
/// Starts A/A checks of saved benchmarks and reports them. A check queues, round by round, one interleaved run
/// whose variants A and B are the benchmark's settings twice (for kinds with variants) and two separate runs of
/// those settings, so the designs share the machine's drift. Each experiment is judged exactly as the compare
/// page judges it (<see cref="ComparisonQueries"/>), so the rates it reports are the page's own.
/// </summary>
public sealed class AaChecks(BenchDbContext db, BenchmarkKinds kinds, RunQueue queue, ComparisonQueries comparisons, TimeProvider time)
{
    public const int DefaultRounds = 5;
    public const int MinRounds = 2;
    public const int MaxRounds = 10;

    public async Task<(AaCheck? Check, Dictionary<string, string[]> Errors)> StartAsync(int benchmarkId, int rounds, CancellationToken ct)
    {
        if (rounds < MinRounds || rounds > MaxRounds)
            return (null, new() { ["rounds"] = [$"Rounds must be between {MinRounds} and {MaxRounds} (each is an interleaved run and two separate runs)."] });
        if (await db.Benchmarks.AsNoTracking().FirstOrDefaultAsync(b => b.Id == benchmarkId, ct) is not { } benchmark)
            return (null, new() { ["benchmark"] = [$"There is no benchmark {benchmarkId}."] });
        var (json, errors) = await kinds.ValidateStoredAsync(benchmark.Kind, benchmark.ParametersJson, ct);
        if (errors.Count > 0) return (null, errors);

        var kind = kinds.Find(benchmark.Kind)!;
        var parameters = kind.Deserialize(json);
        // A benchmark that compares variants is checked on its first: an A/A check is of one setting.
        var plain = kind.SeparateVariants(parameters) is { Count: > 0 } variants ? variants[0].Parameters : parameters;
        var interleaved = kind.IdenticalVariants(plain);
        var order = Enumerable.Range(0, rounds).SelectMany(_ => interleaved is null ? [plain, plain] : new[] { interleaved, plain, plain }).ToList();
        var (runs, invalid) = await queue.EnqueueAllAsync(order, ct, benchmark.Agents); // checked as it runs: on its agents too
        if (runs.Count == 0) return (null, new(invalid));

        var check = new AaCheck
        {
            BenchmarkId = benchmark.Id,
            BenchmarkName = benchmark.Name,
            CreatedUtcMs = time.GetUtcNow().ToUnixTimeMilliseconds(),
            Rounds = rounds,
            InterleavedRunIdsJson = Json.Serialize(runs.Where((_, i) => interleaved is not null && i % 3 == 0).Select(r => r.Id).ToList()),
            SeparateRunIdsJson = Json.Serialize(runs.Where((_, i) => interleaved is null || i % 3 != 0).Select(r => r.Id).ToList()),
        };
        db.AaChecks.Add(check);
        await db.SaveChangesAsync(ct);
        return (check, []);
    }

    /// <summary>A benchmark's checks, newest first.</summary>
    public Task<List<AaCheck>> ListAsync(int benchmarkId, CancellationToken ct) =>
        db.AaChecks.AsNoTracking().Where(c => c.BenchmarkId == benchmarkId).OrderByDescending(c => c.Id).ToListAsync(ct);

    public async Task<AaCheckReport?> ReportAsync(int id, CancellationToken ct)
    {
        if (await db.AaChecks.AsNoTracking().FirstOrDefaultAsync(c => c.Id == id, ct) is not { } check) return null;
        var interleavedIds = Json.Deserialize<List<long>>(check.InterleavedRunIdsJson);
        var separateIds = Json.Deserialize<List<long>>(check.SeparateRunIdsJson);
        var all = interleavedIds.Concat(separateIds).ToList();
        var runs = await db.Runs.AsNoTracking().Where(r => all.Contains(r.Id)).ToDictionaryAsync(r => r.Id, ct);
        var statuses = runs.ToDictionary(r => r.Key, r => r.Value.Status);

        // An experiment per series of a plain run (a cache run's phases; the whole run for HTTP).
        var interleaved = new List<AaExperiment>();
        foreach (var runId in interleavedIds)
            foreach (var (a, b) in Pairs(runs.GetValueOrDefault(runId)))
                interleaved.Add(await JudgeAsync([$"{runId}/{a}", $"{runId}/{b}"], [runId], statuses, ct));
        var separate = new List<AaExperiment>();
        for (var i = 0; i + 1 < separateIds.Count; i += 2)
            foreach (var series in SeriesOf(runs.GetValueOrDefault(separateIds[i])))
                separate.Add(await JudgeAsync([$"{separateIds[i]}{series}", $"{separateIds[i + 1]}{series}"], [separateIds[i], separateIds[i + 1]], statuses, ct));
        // A run deleted since has ended as far as the check goes (its experiment is left out).
        return new AaCheckReport(check, all.Count, all.Count(r => !statuses.TryGetValue(r, out var status) || status.IsFinal()),
            interleavedIds.Count == 0 ? null : AaDesign.From(interleaved), AaDesign.From(separate));
    }

    /// <summary>The interleaved run's series in pairs, A's then B's (<see cref="IBenchmarkKind.IdenticalVariants"/>); "A", "B" for a deleted run.</summary>
    IReadOnlyList<(string A, string B)> Pairs(Run? run) =>
        Planned(run) is { Count: > 0 } planned && planned.Count % 2 == 0 ? planned.Chunk(2).Select(p => (p[0], p[1])).ToList() : [("A", "B")];

    /// <summary>"/write" for each series of a plain run, or "" for the whole run.</summary>
    IReadOnlyList<string> SeriesOf(Run? run) => ComparedItem.SeriesSuffixes(Planned(run));

    IReadOnlyList<string> Planned(Run? run) =>
        run is not null && kinds.Find(run.Kind) is { } kind ? kind.PlannedSeries(kind.Deserialize(run.ParametersJson)) : [];

    /// <summary>The median verdict of the second key against the first, once every run of the experiment has ended.</summary>
    async Task<AaExperiment> JudgeAsync(IReadOnlyList<string> keys, IReadOnlyList<long> runIds, IReadOnlyDictionary<long, RunStatus> statuses, CancellationToken ct)
    {
        var states = runIds.Select(r => statuses.TryGetValue(r, out var s) ? s : (RunStatus?)null).ToList();
        if (states.Any(s => s is null)) return new(keys, AaOutcome.NotCompleted, null); // a run was deleted: it can never be judged
        if (states.Any(s => s is RunStatus.Queued or RunStatus.Running)) return new(keys, AaOutcome.Pending, null);
        if (states.Any(s => s != RunStatus.Completed)) return new(keys, AaOutcome.NotCompleted, null);
        var (comparison, _) = await comparisons.CompareAsync(keys, keys[0], Bootstrap.DefaultSeed, ct);
        var median = comparison?.Verdicts.FirstOrDefault(v => v.ItemKey == keys[1] && v.Metric == "median");
        return new(keys, median is null ? AaOutcome.NotCompleted : AaOutcome.Judged, median);
    }
}
