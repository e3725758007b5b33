using System.Globalization;
using System.Text.Json;
using BenchDashboard.Core.Agents;
using BenchDashboard.Core.Comparisons;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Reports.Configurations;

/// <summary>
/// The answer of a run on each of several agents (App Service configurations, regions), as seed 000's table: a row per
/// configuration in the order asked, its settings beside it as its agent recorded them when it said ready (never as
/// they were asked for), its count and errors, and the mean, p50, p90 and p99 in ms, each as a percentage of the first
/// configuration's with the verdict. A table per phase for a kind with phases. A configuration that measured nothing
/// (its agent never joined, or was lost) is still a row, saying why. The run's page, report, Markdown and text all
/// lay out these tables.
/// </summary>
public static class ConfigurationAnswer
{
    static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    /// <summary>The run's answer per configuration from its digest; none for a run that is not on each agent.</summary>
    public static IReadOnlyList<AnswerTable> Of(Run run, RunDigest digest)
    {
        if (OnEach.Parse(run.OnEachJson) is not { } onEach) return [];
        var figures = digest.Configurations?.Deserialize<List<ConfigurationFigures>>(Json.Options) ?? [];
        return Of(onEach, AgentShardRow.Parse(run.AgentsJson), figures);
    }

    /// <param name="rows">The run's agent rows (<see cref="Run.AgentsJson"/>): one per named agent, with what it recorded and how it ended.</param>
    /// <param name="figures">The figures from the run's digest; empty when it measured nothing.</param>
    public static IReadOnlyList<AnswerTable> Of(OnEach onEach, IReadOnlyList<AgentShardRow> rows, IReadOnlyList<ConfigurationFigures> figures)
    {
        var settings = ConfigurationSettings.Differing(onEach.Agents.Select(a => RowOf(rows, onEach, a)?.Environment).ToList());
        var phases = figures.Select(f => f.Phase).Distinct().ToList();
        if (phases.Count == 0) phases.Add(null); // nothing measured at all: still a row per configuration saying why
        var baseline = onEach.Agents[0];
        return phases.Select(phase => new AnswerTable(
            (phase is null ? "Each configuration" : $"Each configuration, {phase}") + $" (ms), against {baseline}",
            ["Configuration", "Settings recorded", "Count", "Errors", "Mean", "p50", "p90", "p99", "Status"],
            onEach.Agents.Select((agent, i) => Row(agent, settings[i], RowOf(rows, onEach, agent),
                figures.FirstOrDefault(f => f.Agent == agent && f.Phase == phase))).ToList(),
            "Each figure against the first configuration's in the same " + (phase is null ? "run" : "phase") + ", with the verdict: each turn of a " +
            "configuration is judged as a separate run, so a difference is called only when it stands above the spread between turns (fewer than two rounds are not judged). " +
            "Settings are those the agents recorded that differ between them.")).ToList();
    }

    /// <summary>The agent's row: by name, else by its index in the list (its shard), for a row written before it was named.</summary>
    static AgentShardRow? RowOf(IReadOnlyList<AgentShardRow> rows, OnEach onEach, string agent)
    {
        var index = onEach.Agents.ToList().IndexOf(agent);
        return rows.FirstOrDefault(r => r.Agent == agent) ?? rows.FirstOrDefault(r => r.Shard == index && r.Agent is null);
    }

    static IReadOnlyList<string> Row(string agent, string settings, AgentShardRow? row, ConfigurationFigures? f)
    {
        var status = row is null ? "never started" : row.Status.ToString().ToLowerInvariant() + (row.Reason is { } why ? ": " + why : "");
        if (f is null) return [agent, settings, "–", "–", "–", "–", "–", "–", status + (row?.Status is ShardStatus.Done ? ", measured nothing" : "")];
        return [agent, settings, f.Count.ToString("N0", Invariant), f.Errors.ToString("N0", Invariant),
            Cell(f.Mean, f.IsBaseline, judged: false), Cell(f.P50, f.IsBaseline), Cell(f.P90, f.IsBaseline), Cell(f.P99, f.IsBaseline), status];
    }

    /// <summary>"78.610 (74.5 %, 1.34× faster)", "105.560 (baseline)"; "81.350 (75.3 %)" for the mean, which no verdict judges (only percentiles are).</summary>
    public static string Cell(ConfigurationFigure figure, bool isBaseline, bool judged = true)
    {
        if (figure.Ns is not { } ns) return "–";
        var ms = (ns / 1e6).ToString("F3", Invariant);
        if (isBaseline) return ms + " (baseline)";
        if (figure.PercentOfBaseline is not { } percent) return ms;
        var shown = percent.ToString("F1", Invariant) + " %";
        // A difference called is worded by the ratio the verdict judged (its turns' percentiles averaged, as the compare
        // page's groups are), so the words never point the other way from the call.
        return judged ? $"{ms} ({shown}, {Verdicts.RatioWords(figure.VerdictRatio ?? percent / 100, figure.Call)})" : $"{ms} ({shown})";
    }
}
