using BenchDashboard.Core.Kinds.Tables;

namespace BenchDashboard.Web.Pages.Kinds.Tables;

/// <summary>The Table Storage benchmark's fields as the new-run form and the editor bind them.</summary>
[KindPages(TableKind.KindName, Prefix = "Table", Fields = "/Pages/Kinds/Tables/_TableFields.cshtml", Run = "/Pages/Kinds/Tables/_TableRun.cshtml", Answer = "/Pages/Kinds/Tables/_Answer.cshtml")]
public sealed class TableForm() : LoadModelForm<TableParameters>(requests: 200, durationSeconds: 60, timeoutMs: 30_000)
{
    public string? Connection { get; set; } = "tables";
    public string Table { get; set; } = "benchdashboard";
    public int EntityBytes { get; set; } = 1024;

    /// <summary>"single", "batch".</summary>
    public List<string> Operations { get; set; } = ["single", "batch"];
    public int BatchSize { get; set; } = 10;

    /// <summary>"on", "off": the settings of each toggle to run.</summary>
    public List<string> Expect100Continue { get; set; } = ["on", "off"];
    public List<string> Nagle { get; set; } = ["on", "off"];

    public int WarmupRequests { get; set; }
    public bool Cleanup { get; set; } = true;

    /// <summary>A count is per variant: every ticked operation × Expect setting × Nagle setting.</summary>
    public override LoadFormCounting Counting { get; } = new("requests", "per variant", "the whole run's; the variants share it equally",
        "workers; each has its own connection per variant", [("variants", "product:Table.Operations,Table.Expect100Continue,Table.Nagle")]);

    public override IReadOnlyList<(string Noun, int Count)> CountFactors() =>
        [("variants", Operations.Count(o => o is "single" or "batch") * Expect100Continue.Count(s => s is "on" or "off") * Nagle.Count(s => s is "on" or "off"))];

    public override TableParameters ToParameters(Dictionary<string, string[]> errors)
    {
        return WithLoad(new TableParameters
        {
            Connection = Connection?.Trim(),
            Table = Table?.Trim() ?? "",
            EntityBytes = EntityBytes,
            Operations = Enum.GetValues<TableOperation>().Where(o => Operations.Contains(Name(o))).ToList(),
            BatchSize = BatchSize,
            Expect100Continue = Settings(Expect100Continue),
            Nagle = Settings(Nagle),
            WarmupRequests = WarmupRequests,
            Cleanup = Cleanup,
        }, errors);
    }

    public override void Load(TableParameters p)
    {
        Connection = p.Connection;
        Table = p.Table;
        EntityBytes = p.EntityBytes;
        Operations = p.Operations.Select(Name).ToList();
        BatchSize = p.BatchSize;
        Expect100Continue = p.Expect100Continue.Select(OnOff).ToList();
        Nagle = p.Nagle.Select(OnOff).ToList();
        LoadFrom(p);
        WarmupRequests = p.WarmupRequests;
        Cleanup = p.Cleanup;
    }

    public static string Name(TableOperation operation) => operation == TableOperation.Batch ? "batch" : "single";
    static string OnOff(bool value) => value ? "on" : "off";

    /// <summary>Ticked settings in the form's order (on before off).</summary>
    static List<bool> Settings(List<string> ticked) => new[] { true, false }.Where(v => ticked.Contains(OnOff(v))).ToList();
}
