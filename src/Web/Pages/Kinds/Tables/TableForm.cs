using BenchDashboard.Core.Benchmarks.Tables;

namespace BenchDashboard.Web.Pages.Kinds.Tables;

/// <summary>The Table Storage benchmark's fields as the new-run form and the editor bind them.</summary>
[KindPages(TableKind.KindName, Prefix = "Table", Fields = "/Pages/Kinds/Tables/_TableFields.cshtml", Run = "/Pages/Kinds/Tables/_TableRun.cshtml", Answer = "/Pages/Kinds/Tables/_Answer.cshtml")]
public sealed class TableForm : LoadModelForm<TableParameters>
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

    /// <summary>"requests" (a count per variant) or "duration" (seconds for the whole run).</summary>
    public string Mode { get; set; } = "requests";
    public int? Requests { get; set; } = 200;
    public int? DurationSeconds { get; set; } = 60;
    public int Concurrency { get; set; } = 1;
    public int WarmupRequests { get; set; }
    public int TimeoutMs { get; set; } = 30_000;
    public bool Cleanup { get; set; } = true;

    public override TableParameters ToParameters(Dictionary<string, string[]> errors)
    {
        var duration = Mode == "duration";
        var (model, rate, stages) = LoadFields(errors);
        return new TableParameters
        {
            Connection = Connection?.Trim(),
            Table = Table?.Trim() ?? "",
            EntityBytes = EntityBytes,
            Operations = Enum.GetValues<TableOperation>().Where(o => Operations.Contains(Name(o))).ToList(),
            BatchSize = BatchSize,
            Expect100Continue = Settings(Expect100Continue),
            Nagle = Settings(Nagle),
            Requests = duration || LastsAsStages ? null : Requests ?? 0,
            DurationSeconds = !duration || LastsAsStages ? null : DurationSeconds ?? 0,
            Model = model,
            Rate = rate,
            Stages = stages,
            Concurrency = Concurrency,
            WarmupRequests = WarmupRequests,
            TimeoutMs = TimeoutMs,
            Cleanup = Cleanup,
        };
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
        Mode = p.DurationSeconds is null ? "requests" : "duration";
        Requests = p.Requests ?? 200;
        DurationSeconds = p.DurationSeconds ?? 60;
        LoadFrom(p);
        Concurrency = p.Concurrency;
        WarmupRequests = p.WarmupRequests;
        TimeoutMs = p.TimeoutMs;
        Cleanup = p.Cleanup;
    }

    public static string Name(TableOperation operation) => operation == TableOperation.Batch ? "batch" : "single";
    static string OnOff(bool value) => value ? "on" : "off";

    /// <summary>Ticked settings in the form's order (on before off).</summary>
    static List<bool> Settings(List<string> ticked) => new[] { true, false }.Where(v => ticked.Contains(OnOff(v))).ToList();
}
