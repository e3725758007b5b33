using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Comparisons;

namespace BenchDashboard.Core.Kinds.Tables;

/// <summary>
/// One combination of the toggles: its median per entity, that as a ratio to the operation's baseline (both
/// on), and whether it stands out: only when the verdict calls the difference (faster or slower), never on
/// the ratio alone. <see cref="Reason"/> says in one sentence why it stands out.
/// </summary>
public sealed record TableCell(
    string Series, bool Expect100Continue, bool Nagle, bool IsBaseline, double? MedianPerEntityNs, double? Ratio,
    VerdictCall? Call, string? Reason)
{
    public bool StandsOut => Call is VerdictCall.Faster or VerdictCall.Slower;

    /// <summary>"baseline", "22.2× slower", "1.10× faster": the one way every page writes the ratio.</summary>
    public string RatioText => IsBaseline ? "baseline" : Ratio is not { } r ? "–" : r >= 1 ? $"{Statistics.Ratios.Times(r)} slower" : $"{Statistics.Ratios.Times(1 / r)} faster";
}

/// <summary>An operation's 2 × 2: Expect on/off (rows) × Nagle on/off (columns); a cell is null when that combination did not run.</summary>
public sealed record TableOperationMatrix(string Operation, int EntitiesPerRequest, TableCell?[,] Cells)
{
    public static readonly bool[] Settings = [true, false];

    public TableCell? At(bool expect, bool nagle) => Cells[expect ? 0 : 1, nagle ? 0 : 1];

    public IEnumerable<TableCell> All => Cells.Cast<TableCell?>().OfType<TableCell>();
}

/// <summary>
/// The Table Storage answer: per operation (single insert, batch), Expect100Continue × Nagle as a matrix of medians
/// per entity, each as a ratio to the both-on baseline, with the reason for every cell whose verdict calls a
/// difference (the ~40 ms delayed ACK with Nagle on and Expect off, most of all).
/// </summary>
public static class TableMatrix
{
    public static IReadOnlyList<TableOperationMatrix> From(IReadOnlyList<TableVariantFigures> figures)
    {
        var parsed = figures.Select(f => (Figures: f, Key: Parse(f.Series))).Where(x => x.Key is not null).ToList();
        return parsed.GroupBy(x => x.Key!.Value.Operation).Select(group =>
        {
            var baseline = group.FirstOrDefault(x => x.Key!.Value.Expect && x.Key!.Value.Nagle).Figures;
            var cells = new TableCell?[2, 2];
            foreach (var (f, key) in group)
            {
                var (_, expect, nagle) = key!.Value;
                var isBaseline = ReferenceEquals(f, baseline);
                double? ratio = f.P50PerEntityNs is { } m && baseline?.P50PerEntityNs is > 0 ? m / baseline.P50PerEntityNs : null;
                var call = isBaseline ? null : f.MedianCall;
                cells[expect ? 0 : 1, nagle ? 0 : 1] = new TableCell(f.Series, expect, nagle, isBaseline, f.P50PerEntityNs, ratio, call,
                    call is VerdictCall.Faster or VerdictCall.Slower ? Reason(group.Key, expect, nagle, call.Value, SavedMs(baseline, f)) : null);
            }
            return new TableOperationMatrix(group.Key, group.First().Figures.EntitiesPerRequest, cells);
        }).ToList();
    }

    /// <summary>A difference per request in this range is the size of a delayed ACK (Linux 40 ms, Windows up to 200 ms).</summary>
    const double DelayedAckFromMs = 25, DelayedAckToMs = 250;

    /// <summary>
    /// Why a combination that the verdict calls different is so, in one sentence a reader can act on. The
    /// delayed ACK is named only when the measured difference per request is its size: with Nagle on, the
    /// body's last small segment waits for the server's ACK of the first, which the server holds back.
    /// </summary>
    /// <param name="savedMs">Baseline's median per request less this cell's (negative: this cell is slower).</param>
    public static string Reason(string operation, bool expect, bool nagle, VerdictCall call, double? savedMs)
    {
        var body = operation == "batch" ? "the batch's body" : "the entity's body";
        var ackSized = savedMs is { } d && Math.Abs(d) is >= DelayedAckFromMs and <= DelayedAckToMs;
        var per = savedMs is { } ms ? $"{Math.Abs(ms):0.#} ms {(ms >= 0 ? "less" : "more")} per request" : "A difference";
        if (call == VerdictCall.Slower && nagle && !expect && ackSized)
            return $"{per}: with Nagle on and Expect off, the last small segment of {body} waits for the server to ACK the first, and the server delays that ACK (about 40 ms on Linux). Turn Nagle off.";
        if (call == VerdictCall.Faster && !nagle && ackSized)
            return $"{per}, the size of a delayed ACK: with Nagle on, the last small segment of {body} waits for the server's ACK of the first, which the server holds back (about 40 ms on Linux); Nagle off sends it at once.";
        if (call == VerdictCall.Faster && !expect && nagle)
            return $"{per}: Expect off sends {body} at once instead of waiting a round trip for 100 Continue.";
        if (call == VerdictCall.Faster && !expect)
            return $"{per}: with both off, {body} goes at once: no wait for 100 Continue, no segment held back for an ACK.";
        if (call == VerdictCall.Faster)
            return $"{per}: Nagle off sends {body}'s small segments at once instead of holding one back until an ACK arrives.";
        return $"{per}; the variants took turns, so the machine's drift cannot explain it.";
    }

    static double? SavedMs(TableVariantFigures? baseline, TableVariantFigures f) =>
        baseline?.P50PerEntityNs is { } b && f.P50PerEntityNs is { } m ? (b - m) * f.EntitiesPerRequest / 1e6 : null;

    /// <summary>"batch/expect-off/nagle-on" → (batch, false, true).</summary>
    static (string Operation, bool Expect, bool Nagle)? Parse(string series)
    {
        var parts = series.Split('/');
        if (parts.Length != 3 || !parts[1].StartsWith("expect-") || !parts[2].StartsWith("nagle-")) return null;
        return (parts[0], parts[1] == "expect-on", parts[2] == "nagle-on");
    }
}
