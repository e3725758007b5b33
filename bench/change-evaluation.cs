// The change rule against the rule before it on generated histories with a known truth (tests/TestSupport's
// ChangeHistoryCase): false calls per 100 runs and the delay, in runs after the true change, to the first correct
// call. Every history is seeded, so a row is the same on every machine.
//   usage: dotnet run bench/change-evaluation.cs -c Release -- [SEEDS=20] [STATIONARY_SEEDS=50] [CONFIDENCE=0.99]
#:project ../tests/TestSupport/BenchDashboard.TestSupport.csproj
#:property PublishAot=false
using System.Diagnostics;
using System.Globalization;
using BenchDashboard.Core.Statistics.Changes;
using BenchDashboard.TestSupport;

var seeds = args.Length > 0 ? int.Parse(args[0], CultureInfo.InvariantCulture) : 20;
var stationarySeeds = args.Length > 1 ? int.Parse(args[1], CultureInfo.InvariantCulture) : 50;
var settings = new ChangeSettings(ConfidenceLevel: args.Length > 2 ? double.Parse(args[2], CultureInfo.InvariantCulture) : ChangeSettings.DefaultConfidenceLevel);
ChangeHistoryCase[] cases =
[
    ChangeHistoryCase.Stationary(0.05), ChangeHistoryCase.Stationary(0.2), ChangeHistoryCase.Stationary(0.5),
    ChangeHistoryCase.Outliers(3, 0.2), ChangeHistoryCase.NoisierRuns(),
    ChangeHistoryCase.Step(1.05, 0.05), ChangeHistoryCase.Step(1.1, 0.05), ChangeHistoryCase.Step(1.2, 0.05), ChangeHistoryCase.Step(2, 0.05),
    ChangeHistoryCase.Step(1.05, 0.2), ChangeHistoryCase.Step(1.1, 0.2), ChangeHistoryCase.Step(1.2, 0.2), ChangeHistoryCase.Step(2, 0.2),
    ChangeHistoryCase.Step(1.2, 0.5), ChangeHistoryCase.Step(2, 0.5),
    ChangeHistoryCase.Drift(0.01, 0.05), ChangeHistoryCase.Drift(0.01, 0.2),
    ChangeHistoryCase.Variance(0.05), ChangeHistoryCase.Variance(0.2),
    ChangeHistoryCase.Tail(0.05), ChangeHistoryCase.Tail(0.2),
];

Console.WriteLine("| history | seeds × runs | new: false calls / 100 runs | new: found | new: delay (median, max) | old: false calls / 100 runs | old: found | old: delay (median, max) |");
Console.WriteLine("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
var clock = Stopwatch.StartNew();
foreach (var @case in cases)
{
    var n = @case.ChangeAt is null ? stationarySeeds : seeds;
    var outcomes = Enumerable.Range(1, n).AsParallel().AsOrdered().Select(seed =>
    {
        var (runs, latencies) = @case.Generate(seed);
        return (New: ChangeEvaluation.ChangeRuleOn(@case, runs, latencies, settings), Old: ChangeEvaluation.OldRuleOn(@case, runs));
    }).ToList();
    Console.WriteLine($"| {@case.Name} | {n} × {@case.Runs} | {Rate(outcomes.Select(o => o.New))} | {Found(@case, outcomes.Select(o => o.New))} | {Delay(outcomes.Select(o => o.New))} " +
        $"| {Rate(outcomes.Select(o => o.Old))} | {Found(@case, outcomes.Select(o => o.Old))} | {Delay(outcomes.Select(o => o.Old))} |");
}
Console.Error.WriteLine($"{clock.Elapsed.TotalSeconds:0} s");

static string Rate(IEnumerable<RuleOutcome> o) =>
    (100.0 * o.Sum(x => x.FalseCalls) / o.Sum(x => x.RunsAtRisk)).ToString("0.00", CultureInfo.InvariantCulture);

static string Found(ChangeHistoryCase c, IEnumerable<RuleOutcome> o) =>
    c.ChangeAt is null ? "–" : $"{o.Count(x => x.Delay is not null)} of {o.Count()}";

static string Delay(IEnumerable<RuleOutcome> o)
{
    var delays = o.Where(x => x.Delay is not null).Select(x => x.Delay!.Value).Order().ToList();
    return delays.Count == 0 ? "–" : $"{delays[(delays.Count - 1) / 2]}, {delays[^1]}";
}
