using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Kinds.Http.Journeys;

namespace BenchDashboard.Web.Pages.Kinds.Http;

/// <summary>The HTTP benchmark's fields as the new-run form and the editor bind them.</summary>
[KindPages(HttpKind.KindName, Prefix = "Http", Fields = "/Pages/Kinds/Http/_HttpFields.cshtml", Run = "/Pages/Kinds/Http/_HttpRun.cshtml", Answer = "/Pages/Kinds/Http/_Answer.cshtml")]
public sealed class HttpForm() : VariantsForm<HttpParameters, HttpVariantForm>(requests: 100, durationSeconds: 10, timeoutMs: 10_000)
{
    public string? Url { get; set; } = "";
    public string Method { get; set; } = "GET";

    /// <summary>One "Name: value" per line.</summary>
    public string? Headers { get; set; }
    public string? Body { get; set; }

    /// <summary>A stored journey's steps as JSON, kept through an edit (the form has no steps editor yet); null for one request.</summary>
    public string? StepsJson { get; set; }

    public bool KeepAlive { get; set; } = true;
    public int WarmupRequests { get; set; }

    public override LoadFormCounting Counting { get; } = new("requests", "per variant", "",
        "connections, each sending one request after another; its variants take turns on it", [("variants", "rows:Http.Variants")]);

    public override IReadOnlyList<(string Noun, int Count)> CountFactors() => [("variants", VariantCount)];

    public override HttpParameters ToParameters(Dictionary<string, string[]> errors)
    {
        var headers = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase);
        foreach (var line in (Headers ?? "").Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
        {
            var colon = line.IndexOf(':');
            if (colon <= 0) errors["headers"] = [$"'{line}' is not a header: write one 'Name: value' per line."];
            else headers[line[..colon].Trim()] = line[(colon + 1)..].Trim();
        }
        List<HttpStep>? steps = null;
        if (!string.IsNullOrWhiteSpace(StepsJson))
            try { steps = Core.Json.Deserialize<List<HttpStep>>(StepsJson); }
            catch (System.Text.Json.JsonException) { errors["steps"] = ["The steps are not valid JSON; edit them through the API."]; }
        return WithLoad(new HttpParameters
        {
            Steps = steps,
            Url = (Url ?? "").Trim(),
            Method = Method.Trim().ToUpperInvariant(),
            Headers = headers,
            Body = string.IsNullOrEmpty(Body) ? null : Body,
            KeepAlive = KeepAlive,
            WarmupRequests = WarmupRequests,
            Variants = VariantsOf(new HttpVariant { Name = FirstVariantName }, (row, field) => row.ToVariant(errors, field)),
            InterleaveBlock = InterleaveBlock,
        }, errors);
    }

    /// <summary>
    /// The Dynamic Cache comparison as a preset: one endpoint under three settings (the dashboard's own /target/delay
    /// at 2, 10 and 20 ms: apart by more than a loaded machine's noise), each as runs of its own, 3 runs each,
    /// compared by all three. Warm-up requests keep a fresh process's first (JIT-compiling) requests out of the
    /// figures: a cold first run would widen every verdict.
    /// </summary>
    public override string? RepeatExample(string dashboard)
    {
        var target = $"{dashboard}/target/delay";
        var fields = new (string Name, string Value)[]
        {
            ("kind", HttpKind.KindName),
            ("Http.Url", target + "?ms=2"), ("Http.FirstVariantName", "delay-2ms"), ("Http.Requests", "100"), ("Http.WarmupRequests", "20"),
            ("Http.Variants[0].Name", "delay-10ms"), ("Http.Variants[0].Url", target + "?ms=10"),
            ("Http.Variants[1].Name", "delay-20ms"), ("Http.Variants[1].Url", target + "?ms=20"),
            ("Repeat.Times", "3"), ("Repeat.SeparateRuns", "true"),
        };
        return "/runs/new?" + string.Join("&", fields.Select(f => $"{Uri.EscapeDataString(f.Name)}={Uri.EscapeDataString(f.Value)}"));
    }

    public override void Load(HttpParameters p)
    {
        StepsJson = p.Steps is null ? null : System.Text.Json.JsonSerializer.Serialize(p.Steps, new System.Text.Json.JsonSerializerOptions(Core.Json.Options) { WriteIndented = true });
        Url = p.Url;
        Method = p.Method;
        Headers = string.Join("\n", p.Headers.Select(h => $"{h.Key}: {h.Value}"));
        Body = p.Body;
        LoadFrom(p);
        KeepAlive = p.KeepAlive;
        WarmupRequests = p.WarmupRequests;
        InterleaveBlock = p.InterleaveBlock;
        if (p.Variants is { Count: > 0 } variants)
        {
            // The first variant's own fields are folded into the fields above; the others keep what they change.
            Load(variants[0].Over(p) with { Variants = null, InterleaveBlock = p.InterleaveBlock });
            LoadVariants(variants, v => v.Name, HttpVariantForm.From);
        }
    }
}

/// <summary>One more variant as the form binds it: blank fields are the first variant's.</summary>
public sealed class HttpVariantForm : IVariantRow
{
    public string? Name { get; set; }
    public string? Url { get; set; }
    public string? Method { get; set; }

    /// <summary>One "Name: value" per line; replaces the first variant's headers when given.</summary>
    public string? Headers { get; set; }
    public string? Body { get; set; }

    public bool IsEmpty => string.IsNullOrWhiteSpace(Name) && string.IsNullOrWhiteSpace(Url) && string.IsNullOrWhiteSpace(Method)
        && string.IsNullOrWhiteSpace(Headers) && string.IsNullOrEmpty(Body);

    public HttpVariant ToVariant(Dictionary<string, string[]> errors, string field)
    {
        Dictionary<string, string>? headers = null;
        if (!string.IsNullOrWhiteSpace(Headers))
        {
            headers = new(StringComparer.OrdinalIgnoreCase);
            foreach (var line in Headers.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
            {
                var colon = line.IndexOf(':');
                if (colon <= 0) errors[$"{field}.headers"] = [$"'{line}' is not a header: write one 'Name: value' per line."];
                else headers[line[..colon].Trim()] = line[(colon + 1)..].Trim();
            }
        }
        return new HttpVariant
        {
            Name = string.IsNullOrWhiteSpace(Name) ? null : Name.Trim(),
            Url = string.IsNullOrWhiteSpace(Url) ? null : Url.Trim(),
            Method = string.IsNullOrWhiteSpace(Method) ? null : Method.Trim().ToUpperInvariant(),
            Headers = headers,
            Body = string.IsNullOrEmpty(Body) ? null : Body,
        };
    }

    public static HttpVariantForm From(HttpVariant v, int position) => new()
    {
        Name = VariantRules.NameAt(v.Name, position),
        Url = v.Url,
        Method = v.Method,
        Headers = v.Headers is null ? null : string.Join("\n", v.Headers.Select(h => $"{h.Key}: {h.Value}")),
        Body = v.Body,
    };
}
