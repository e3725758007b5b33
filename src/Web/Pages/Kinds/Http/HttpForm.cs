using BenchDashboard.Core.Benchmarks.Http;

namespace BenchDashboard.Web.Pages.Kinds.Http;

/// <summary>The HTTP benchmark's fields as the new-run form and the editor bind them.</summary>
[KindPages(HttpKind.KindName, Prefix = "Http", Fields = "/Pages/Kinds/Http/_HttpFields.cshtml", Run = "/Pages/Kinds/Http/_HttpRun.cshtml")]
public sealed class HttpForm : LoadModelForm<HttpParameters>
{
    public string Url { get; set; } = "";
    public string Method { get; set; } = "GET";

    /// <summary>One "Name: value" per line.</summary>
    public string? Headers { get; set; }
    public string? Body { get; set; }

    /// <summary>"requests" (a count) or "duration" (seconds).</summary>
    public string Mode { get; set; } = "requests";
    public int? Requests { get; set; } = 100;
    public int? DurationSeconds { get; set; } = 10;
    public int Concurrency { get; set; } = 1;
    public bool KeepAlive { get; set; } = true;
    public int TimeoutMs { get; set; } = 10_000;
    public int WarmupRequests { get; set; }

    public override HttpParameters ToParameters(Dictionary<string, string[]> errors)
    {
        var headers = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase);
        foreach (var line in (Headers ?? "").Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
        {
            var colon = line.IndexOf(':');
            if (colon <= 0) errors["headers"] = [$"'{line}' is not a header: write one 'Name: value' per line."];
            else headers[line[..colon].Trim()] = line[(colon + 1)..].Trim();
        }
        var duration = Mode == "duration";
        var (model, rate, stages) = LoadFields(errors);
        return new HttpParameters
        {
            Url = Url.Trim(),
            Method = Method.Trim().ToUpperInvariant(),
            Headers = headers,
            Body = string.IsNullOrEmpty(Body) ? null : Body,
            Requests = duration || LastsAsStages ? null : Requests ?? 0,
            DurationSeconds = !duration || LastsAsStages ? null : DurationSeconds ?? 0,
            Model = model,
            Rate = rate,
            Stages = stages,
            Concurrency = Concurrency,
            KeepAlive = KeepAlive,
            TimeoutMs = TimeoutMs,
            WarmupRequests = WarmupRequests,
        };
    }

    public override void Load(HttpParameters p)
    {
        Url = p.Url;
        Method = p.Method;
        Headers = string.Join("\n", p.Headers.Select(h => $"{h.Key}: {h.Value}"));
        Body = p.Body;
        Mode = p.DurationSeconds is null ? "requests" : "duration";
        Requests = p.Requests ?? 100;
        DurationSeconds = p.DurationSeconds ?? 10;
        LoadFrom(p);
        Concurrency = p.Concurrency;
        KeepAlive = p.KeepAlive;
        TimeoutMs = p.TimeoutMs;
        WarmupRequests = p.WarmupRequests;
    }
}
