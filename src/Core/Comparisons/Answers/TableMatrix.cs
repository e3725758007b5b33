using BenchDashboard.Core.Benchmarks.Tables;

namespace BenchDashboard.Core.Comparisons.Answers;

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
    public string RatioText => IsBaseline ? "baseline" : Ratio is not { } r ? "–" : r >= 1 ? $"{Verdicts.Times(r)} slower" : $"{Verdicts.Times(1 / r)} faster";
}

/// <summary>An operation's 2 × 2: Expect on/off (rows) × Nagle on/off (columns); a cell is null when that combination did not run.</summary>
public sealed record TableOperationMatrix(string Operation, int EntitiesPerRequest, TableCell?[,] Cells)
{
    public static readonly bool[] Settings = [true, false];

    public TableCell? At(bool expect, bool nagle) => Cells[expect ? 0 : 1, nagle ? 0 : 1];

    public IEnumerable<TableCell> All => Cells.Cast<TableCell?>().OfType<TableCell>();
}

/// <summary>
/// Seed 003's answer: per operation (single insert, batch), Expect100Continue × Nagle as a matrix of medians
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
                    call is VerdictCall.Faster or VerdictCall.Slower ? Reason(group.Key, expect, nagle, call.Value, ratio) : null);
            }
            return new TableOperationMatrix(group.Key, group.First().Figures.EntitiesPerRequest, cells);
        }).ToList();
    }

    /// <summary>Why a combination that the verdict calls different is so, in one sentence a reader can act on.</summary>
    public static string Reason(string operation, bool expect, bool nagle, VerdictCall call, double? ratio)
    {
        var body = operation == "batch" ? "the batch's body" : "the entity's body";
        if (call == VerdictCall.Slower && nagle && !expect)
            return $"Nagle on with Expect off: the last small segment of {body} waits for the server to ACK the first, and the server delays that ACK by about 40 ms (delayed ACK). Turn Nagle off.";
        if (call == VerdictCall.Faster && !expect && !nagle)
            return "Both off: the body goes at once, with no wait for 100 Continue and no segment held back for an ACK.";
        if (call == VerdictCall.Faster && !expect)
            return $"Expect off saves the round trip spent waiting for 100 Continue before {body} is sent.";
        if (call == VerdictCall.Faster && !nagle)
            return $"Nagle off sends {body}'s small segments at once instead of holding one back until an ACK arrives.";
        var change = ratio is { } r ? (r >= 1 ? $"{Verdicts.Times(r)} slower" : $"{Verdicts.Times(1 / r)} faster") : "different";
        return $"{change} than both on, and the variants took turns, so the machine's drift cannot explain it.";
    }

    /// <summary>"batch/expect-off/nagle-on" → (batch, false, true).</summary>
    static (string Operation, bool Expect, bool Nagle)? Parse(string series)
    {
        var parts = series.Split('/');
        if (parts.Length != 3 || !parts[1].StartsWith("expect-") || !parts[2].StartsWith("nagle-")) return null;
        return (parts[0], parts[1] == "expect-on", parts[2] == "nagle-on");
    }
}
