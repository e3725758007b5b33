using System.Net;
using System.Text;
using System.Text.RegularExpressions;
using BenchDashboard.Core.Data;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;

namespace BenchDashboard.Web.Tests.Security;

/// <summary>
/// A bounded, seeded generator of malformed requests to the API and the forms (bodies that are not JSON or
/// not objects, wrong types, huge and negative numbers, NaN, unpaired surrogates, duplicate and case-variant
/// keys, unknown fields, deep nesting, truncation, bad UTF-8, bad query values, odd form fields, non-finite and
/// overflowing numbers as numbers and as text, control characters in every string field, hostile Host and
/// forwarded headers): no answer may be a 5xx, in Development or Production, and the numbers of runs and
/// benchmarks may change only by what was accepted. The same seed makes the same requests every time.
/// </summary>
public sealed class InputFuzzTests(Xunit.Abstractions.ITestOutputHelper output)
{
    const int Requests = 1_500;
    const string ApiKey = "fuzz-key";

    static readonly string[] BaseBodies =
    [
        """{"kind":"http","url":"http://127.0.0.1:1/","requests":5,"timeoutMs":1000}""",
        """{"kind":"cache","requests":5,"keyCount":5}""",
        """{"kind":"fileSystem","directories":["temp"],"fileCount":1,"largeFileMiB":0}""",
        """{"kind":"table","connection":"tables","requests":1}""",
        """{"kind":"http","url":"http://127.0.0.1:1/","model":"open","rate":5,"requests":5,"timeoutMs":1000}""",
        """{"kind":"cache","model":"open","rate":0,"stages":[{"durationSeconds":1,"rate":5}],"keyCount":5}""",
        """{"kind":"http","url":"http://127.0.0.1:1/","requests":5,"timeoutMs":1000,"variants":[{"name":"a","url":"http://127.0.0.1:1/a?t=1","headers":{"Cookie":"s=1"}},{"name":"b","method":"POST","body":"x"}]}""",
        """{"kind":"cache","requests":5,"keyCount":5,"variants":[{"name":"A"},{"name":"B","valueBytes":4096}]}""",
    ];

    /// <summary>Saved benchmarks as the benchmarks API and its import take them; "NAME" becomes a fresh name.</summary>
    static readonly string[] BenchmarkBodies =
    [
        """{"name":"NAME","kind":"http","parameters":{"url":"http://127.0.0.1:1/","requests":5,"timeoutMs":1000},"schedule":"*/5 * * * *","timeZone":"Europe/Berlin","thresholds":{"maxP95Ms":50,"trailingRuns":5}}""",
        """{"name":"NAME","kind":"cache","parameters":{"requests":5,"keyCount":5},"enabled":false,"agents":null}""",
        """{"name":"NAME","kind":"fileSystem","parameters":{"directories":["temp"],"fileCount":1,"largeFileMiB":0},"thresholds":{"latency":"service"}}""",
        """{"name":"NAME","kind":"http","parameters":{"url":"http://127.0.0.1:1/","requests":5,"variants":[{"name":"a","headers":{"Cookie":"s=1"}},{"name":"b","url":"http://127.0.0.1:1/b"}]},"thresholds":{"changeMarginPercent":2,"confirmRuns":4}}""",
    ];

    /// <summary>Numbers no field can hold: non-finite (as JSON cannot say them, and as text), past double and long, and text.</summary>
    static readonly string[] Numbers =
    [
        "NaN", "Infinity", "-Infinity", "\"NaN\"", "\"Infinity\"", "\"-Infinity\"", "\"nan\"", "1e400", "-1e400", "1e309", "9223372036854775808",
        "-9223372036854775809", "4294967296", "\"5\"", "\"0x10\"", "5.000000000000000000001", "-0", "0e0",
    ];

    /// <summary>Text with control characters (JSON-escaped): NUL, escape sequences, line breaks, DEL, a C1 control.</summary>
    static readonly string[] ControlTexts =
    [
        "\"\\u0000\"", "\"temp\\u0000\"", "\"/tmp/a\\u0000/etc\"", "\"x\\u001b[31my\"", "\"a\\r\\nb\"", "\"\\t\"", "\"\\u007f\"", "\"\\u0085\"",
        "\"http://127.0.0.1:1/\\u0000\"", "\"http://127.0.0.1:1/\\r\\nX: y\"",
    ];

    /// <summary>Host names a page elsewhere could send through DNS rebinding; Development on loopback answers none of them.</summary>
    static readonly string[] HostileHosts = ["rebind.example", "rebind.example:5080", "localhost.rebind.example", "127.0.0.2", "10.0.0.1", "[::2]", "xn--80ak6aa92e.com"];

    static readonly string[] Values =
    [
        "null", "true", "false", "0", "-1", "2147483648", "-2147483649", "1e308", "1e-400", "NaN", "Infinity", "\"\"", "\"x\"",
        "\"\\ud800\"", "\"\\udc00x\"", "\"a\\r\\nHost: evil\"", "\"\\u0000\"", "[]", "{}", "[null]", "[\"write\",\"write\"]", "{\"a\":{\"b\":1}}",
        "\"" + new string('x', 70_000) + "\"", "\"http://127.0.0.1:0/\"", "\"ftp://x/\"", "\"*/0 * * * *\"", "12.5", "\"12\"",
        "\"open\"", "\"closed\"", "[{\"durationSeconds\":1,\"rate\":5}]", "[{\"durationSeconds\":-1,\"rate\":1e9}]", "[{}]", "[{\"rate\":\"x\"}]",
        "[{\"name\":\"a\"},{\"name\":\"a\"}]", "[{\"name\":\"a\",\"url\":\"\\u0000\"},{}]", "[{\"headers\":{\"\":\"x\"}},{\"body\":1}]", "[{\"name\":\"a\\u001b[31m\"},{\"name\":\"b\"}]",
        "[" + string.Join(",", Enumerable.Range(0, 40).Select(i => $"{{\"name\":\"v{i}\"}}")) + "]",
    ];

    static readonly string[] Fields =
    [
        "kind", "url", "method", "headers", "body", "requests", "durationSeconds", "concurrency", "keepAlive", "timeoutMs", "warmupRequests",
        "backend", "connection", "phases", "keyCount", "valueBytes", "keyPrefix", "cleanup", "directories", "fileCount", "fileBytes",
        "filesPerDirectory", "largeFileMiB", "table", "entityBytes", "operations", "batchSize", "expect100Continue", "nagle", "Url", "REQUESTS", "nope",
        "model", "rate", "stages", "variants", "valueBytes", "changeMarginPercent", "confirmRuns",
        "name", "parameters", "schedule", "timeZone", "enabled", "thresholds", "agents", "maxP95Ms", "latency", "trailingRuns", "benchmarks", "id",
    ];

    static readonly string[] QueryValues =
    [
        "abc", "-1", "0", "1", "2147483648", "99999999999999999999", "", "%00", "%ED%A0%80", "%FF", "1,2", "1,2/write", "1/x", "true", "0x10",
        "csv", "%E2%80%A8", new string('9', 400), "1e3", "NaN", "1,1,1,1,1,1,1,1,1,1", "running", "WEBSITE_DYNAMIC_CACHE",
    ];

    static readonly string[] PathValues = QueryValues.Where(v => v != "%00").ToArray();

    [Theory]
    [InlineData("Development")]
    [InlineData("Production")]
    public async Task MalformedRequestsGetNoServerErrorAndChangeOnlyWhatWasAccepted(string environment)
    {
        await using var app = new DashboardFactory(new()
        {
            ["environment"] = environment, ["Runner:Embedded"] = "false", ["Auth:ApiKey"] = ApiKey, ["Auth:Required"] = "always",
        });
        var client = app.CreateClient(new WebApplicationFactoryClientOptions { AllowAutoRedirect = false });
        client.DefaultRequestHeaders.Add("X-Api-Key", ApiKey);
        var random = new Random(20261121);
        var (runsBefore, benchmarksBefore) = await CountsAsync(app);
        int acceptedRuns = 0, acceptedBenchmarks = 0;
        var failures = new List<string>();
        var statuses = new SortedDictionary<int, int>();
        var tokens = new Dictionary<string, string>();

        for (var i = 0; i < Requests; i++)
        {
            var (request, describe) = await NextAsync(random, client, tokens);
            var hostile = random.Next(8) == 0 ? Pick(random, HostileHosts) : null;
            if (hostile is not null)
            {
                request.Headers.Host = hostile;
                describe += $" (Host: {hostile})";
            }
            if (random.Next(8) == 0)
            {
                // A client speaking for a proxy: no such header counts unless it comes from one in Proxies:*.
                request.Headers.TryAddWithoutValidation("X-Forwarded-Proto", Pick(random, ["https", "http", "wss", "", "https, https"]));
                request.Headers.TryAddWithoutValidation("X-Forwarded-For", Pick(random, ["127.0.0.1", "::1", "203.0.113.9", "not-an-ip", "1.2.3.4, 127.0.0.1"]));
                request.Headers.TryAddWithoutValidation("X-Forwarded-Host", Pick(random, ["localhost", "rebind.example"]));
                request.Headers.TryAddWithoutValidation("Forwarded", "for=127.0.0.1;proto=https;host=localhost");
                describe += " (forwarded headers)";
            }
            using var response = await client.SendAsync(request);
            var status = (int)response.StatusCode;
            statuses[status] = statuses.GetValueOrDefault(status) + 1;
            if (status >= 500) failures.Add($"{status} {describe}: {Shorten(await response.Content.ReadAsStringAsync())}");
            // Host filtering answers a bare 400 before the app: in Development on loopback every other name gets one.
            var refusedHost = hostile is not null && environment == "Development";
            if (refusedHost && status != 400) failures.Add($"{status} for a hostile Host in Development: {describe}");
            if (status == 400 && !refusedHost && request.RequestUri!.OriginalString.StartsWith("/api/", StringComparison.Ordinal) && !NamesAField(await response.Content.ReadAsStringAsync()))
                failures.Add($"400 naming no field for {describe}: {Shorten(await response.Content.ReadAsStringAsync())}");
            if (request.Method == HttpMethod.Post)
            {
                var location = response.Headers.Location?.ToString() ?? "";
                var uri = request.RequestUri!; // made absolute by the client
                var startsRun = uri.AbsolutePath == "/runs/new" || uri.Query.Contains("handler=Run&");
                var savesBenchmark = uri.AbsolutePath == "/api/benchmarks";
                if ((status == 201 && !savesBenchmark) || (startsRun && status == 302 && Regex.IsMatch(location, "^/runs/\\d+$"))) acceptedRuns++;
                if (status == 302 && location == "/benchmarks" && request.RequestUri!.AbsolutePath == "/benchmarks/edit") acceptedBenchmarks++;
                if (status == 201 && savesBenchmark) acceptedBenchmarks++;
                if (status == 200 && uri.AbsolutePath == "/api/benchmarks/import")
                {
                    using var imported = System.Text.Json.JsonDocument.Parse(await response.Content.ReadAsStringAsync());
                    if (!imported.RootElement.GetProperty("dryRun").GetBoolean()) acceptedBenchmarks += imported.RootElement.GetProperty("created").GetArrayLength();
                }
            }
            if (request.Method == HttpMethod.Delete && status == 204) acceptedBenchmarks--;
        }

        output.WriteLine($"{environment}: {Requests} requests, statuses {string.Join(", ", statuses.Select(s => $"{s.Key} × {s.Value}"))}; {acceptedRuns} runs and {acceptedBenchmarks} benchmarks accepted");
        Assert.True(failures.Count == 0, $"{failures.Count} server errors or unexplained refusals, e.g.:\n{string.Join("\n", failures.Take(10))}\n"
            + string.Join("\n", app.Logs.Entries.Where(e => e.Level >= Microsoft.Extensions.Logging.LogLevel.Error).Select(e => Shorten(e.Message)).Distinct().Take(5)));
        var (runsAfter, benchmarksAfter) = await CountsAsync(app);
        Assert.Equal(acceptedRuns, runsAfter - runsBefore);
        Assert.Equal(acceptedBenchmarks, benchmarksAfter - benchmarksBefore);
        Assert.True(acceptedRuns > 0, "the fuzzer never made a valid request: it is not testing the accounting");
    }

    /// <summary>A ProblemDetails whose <c>errors</c> name at least one field, each with a message.</summary>
    static bool NamesAField(string body)
    {
        try
        {
            using var problem = System.Text.Json.JsonDocument.Parse(body);
            return problem.RootElement.TryGetProperty("errors", out var errors) && errors.ValueKind == System.Text.Json.JsonValueKind.Object
                && errors.EnumerateObject().Any(e => e.Name.Length > 0 && e.Value.ValueKind == System.Text.Json.JsonValueKind.Array && e.Value.GetArrayLength() > 0);
        }
        catch (System.Text.Json.JsonException)
        {
            return false;
        }
    }

    static async Task<(int Runs, int Benchmarks)> CountsAsync(DashboardFactory app)
    {
        await using var scope = app.Services.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
        return (await db.Runs.CountAsync(), await db.Benchmarks.CountAsync());
    }

    static async Task<(HttpRequestMessage Request, string Describe)> NextAsync(Random random, HttpClient client, Dictionary<string, string> tokens)
    {
        switch (random.Next(12))
        {
            case >= 10:
                return BenchmarkRequest(random);
            case < 4:
                var body = MutatedBody(random);
                var content = new ByteArrayContent(body);
                content.Headers.TryAddWithoutValidation("Content-Type", random.Next(20) == 0 ? "text/plain" : "application/json");
                return (new HttpRequestMessage(HttpMethod.Post, "/api/runs") { Content = content }, $"POST /api/runs {Shorten(Encoding.UTF8.GetString(body))}");
            case < 6:
                var path = Pick(random, [
                    "/api/runs?benchmarkId={0}&status={1}", "/api/runs?env={0}&envValue={1}", "/api/runs/{0}?includeStats={1}", "/api/runs/{0}/analysis?window={1}&series={0}",
                    "/api/runs/{0}/samples?format={1}", "/api/compare?items={0}&baseline={1}&seed={0}&format={1}", "/api/benchmarks/{0}/trend?take={1}",
                    "/runs/{0}?window={1}&baseline={0}&series={1}", "/compare?items={0}&baseline={1}&seed={0}",
                    "/runs/{0}/report?window={1}&series={1}", "/compare/report?items={0}&baseline={1}&margin={1}", "/?benchmarkId={0}&status={1}&env={0}&envValue={1}",
                    "/benchmarks/{0}/trend", "/benchmarks/edit/{0}", "/runs/new?kind={0}&Http.Requests={1}", "/login?returnUrl={0}", "/api/runs/{0}/cancel",
                    "/api/benchmarks/{0}", "/api/benchmarks/export", "/api/benchmarks/{0}/runs"]);
                // {0} may stand in a path segment: a NUL there is refused by the HTTP parser before the app sees it.
                var url = string.Format(path, Pick(random, PathValues), Pick(random, QueryValues));
                var post = url.EndsWith("/cancel") || url.EndsWith("/runs");
                return (new HttpRequestMessage(post ? HttpMethod.Post : HttpMethod.Get, url), $"{(post ? "POST" : "GET")} {url}");
            default:
                return await FormAsync(random, client, tokens);
        }
    }

    /// <summary>
    /// A saved benchmark created, replaced, deleted or imported (perhaps as a dry run, perhaps twice in one
    /// document), its body mutated as the runs' are; ids are small, so some exist.
    /// </summary>
    static (HttpRequestMessage, string) BenchmarkRequest(Random random)
    {
        var one = () => Pick(random, BenchmarkBodies).Replace("NAME", "fuzz " + random.Next(1_000_000));
        var id = random.Next(4) == 0 ? Pick(random, PathValues) : random.Next(1, 6).ToString();
        var (method, path, text) = random.Next(5) switch
        {
            0 => (HttpMethod.Put, $"/api/benchmarks/{id}", one()),
            1 => (HttpMethod.Delete, $"/api/benchmarks/{id}", ""),
            2 => (HttpMethod.Post, "/api/benchmarks/import" + Pick(random, ["", "?dryRun=true", "?dryRun=false", "?dryRun=maybe"]),
                $"{{\"benchmarks\":[{string.Join(",", Enumerable.Range(0, random.Next(4)).Select(_ => one()))}]}}"),
            _ => (HttpMethod.Post, "/api/benchmarks", one()),
        };
        var request = new HttpRequestMessage(method, path);
        if (method != HttpMethod.Delete)
        {
            var body = Mutate(random, text);
            request.Content = new ByteArrayContent(body);
            request.Content.Headers.TryAddWithoutValidation("Content-Type", "application/json");
            text = Encoding.UTF8.GetString(body);
        }
        if (random.Next(4) == 0) request.Headers.TryAddWithoutValidation("If-Match", Pick(random, ["*", "\"0000\"", "W/\"x\"", "nonsense", "\"\""]));
        return (request, $"{method} {path} {Shorten(text)}");
    }

    /// <summary>One of the base bodies with one to three mutations.</summary>
    static byte[] MutatedBody(Random random) => Mutate(random, Pick(random, BaseBodies));

    static byte[] Mutate(Random random, string text)
    {
        for (var n = random.Next(1, 4); n > 0; n--)
        {
            var field = Pick(random, Fields);
            text = random.Next(12) switch
            {
                9 => Regex.Replace(text, $"\"{Regex.Escape(field)}\":(\"[^\"]*\"|[^,}}]+)", $"\"{field}\":{Pick(random, Numbers)}"),
                10 => Regex.Replace(text, "\"rate\":[^,}]+", $"\"rate\":{Pick(random, Numbers)}"),
                // Control characters in every string value of the body at once (keys and the kind's name included).
                11 => Regex.Replace(text, "([:\\[])\"([^\"]*)\"", m => m.Groups[1].Value + Pick(random, ControlTexts).Insert(1, m.Groups[2].Value)),
                0 => text.Insert(Math.Min(1, text.Length), $"\"{field}\":{Pick(random, Values)},"), // a field, perhaps twice or in another case
                1 => Regex.Replace(text, $"\"{Regex.Escape(field)}\":(\"[^\"]*\"|[^,}}]+)", $"\"{field}\":{Pick(random, Values)}"),
                2 => text[..random.Next(text.Length)], // truncated
                3 => "[" + text + "]",
                4 => text.Insert(Math.Min(1, text.Length), "\"deep\":" + new string('[', 80) + new string(']', 80) + ","),
                5 => Pick(random, ["", "null", "[]", "\"text\"", "{", "}", "nan", "{\"kind\":\"http\"", "\u0000"]),
                6 => text.Replace("\"kind\":\"", $"\"kind\":\"{Pick(random, ["HTTP", "Cache", "x", "", "fileSystem ", "table\\u0000"])}"),
                7 => text.Insert(Math.Min(1, text.Length), $"\"{field}\":{Pick(random, Values)},\"{field.ToUpperInvariant()}\":1,"),
                _ => text,
            };
        }
        var bytes = Encoding.UTF8.GetBytes(text);
        if (bytes.Length > 0 && random.Next(15) == 0) bytes[random.Next(bytes.Length)] = 0xFF; // not UTF-8
        return bytes;
    }

    /// <summary>A form post (new run, editor, run now, toggle, cancel) with the page's anti-forgery token and odd fields.</summary>
    static async Task<(HttpRequestMessage, string)> FormAsync(Random random, HttpClient client, Dictionary<string, string> tokens)
    {
        var kind = Pick(random, ["http", "cache", "fileSystem", "table", "nope"]);
        var prefix = kind switch { "cache" => "Cache", "fileSystem" => "Files", "table" => "Table", _ => "Http" };
        var (path, page) = random.Next(5) switch
        {
            0 => ($"/runs/new?kind={kind}", $"/runs/new?kind={kind}"),
            1 => ("/benchmarks/edit", $"/benchmarks/edit?kind={kind}"),
            2 => ($"/benchmarks?handler=Run&id={Pick(random, QueryValues)}", "/benchmarks"),
            3 => ($"/benchmarks?handler=Toggle&id={Pick(random, QueryValues)}", "/benchmarks"),
            _ => ($"/runs/{Pick(random, PathValues)}?handler=Cancel", "/runs/new"),
        };
        if (!tokens.TryGetValue(page, out var token)) tokens[page] = token = Pages.FormPost.Token(await client.GetStringAsync(page));
        var fields = new List<KeyValuePair<string, string>> { new("__RequestVerificationToken", token), new("kind", kind) };
        foreach (var (name, value) in ValidFields(prefix)) fields.Add(new(name, random.Next(6) == 0 ? Pick(random, QueryValues) : value));
        for (var n = random.Next(3); n > 0; n--)
            fields.Add(new(Pick(random, [$"{prefix}.{Pick(random, Fields)}", "Name", "CronSchedule", "Limits.MaxP95Ms", "Limits.TrailingRuns", "Enabled", "x.y.z"]),
                Pick(random, [.. QueryValues, "*/0 * * * *", " ", "\u0000", "a\r\nb", "temp\u0000", "/tmp/a\u0000/etc", "\u001b[31m", "NaN", "Infinity", "-Infinity", "1e400"])));
        fields.Add(new("Name", Pick(random, ["", " ", "fuzz " + random.Next(1_000_000), new string('n', 300)])));
        return (new HttpRequestMessage(HttpMethod.Post, path) { Content = new FormUrlEncodedContent(fields) }, $"POST {path} ({fields.Count} fields)");
    }

    static IEnumerable<(string, string)> ValidFields(string prefix) => prefix switch
    {
        "Cache" => [("Cache.Backend", "memory"), ("Cache.Mode", "requests"), ("Cache.Requests", "5"), ("Cache.Phases", "write"), ("Cache.KeyPrefix", "fuzz")],
        "Files" => [("Files.Directories", "temp"), ("Files.FileCount", "1"), ("Files.LargeFileMiB", "0")],
        "Table" => [("Table.Connection", "tables"), ("Table.Operations", "single"), ("Table.Expect100Continue", "on"), ("Table.Nagle", "on"), ("Table.Mode", "requests"), ("Table.Requests", "1")],
        _ => [("Http.Url", "http://127.0.0.1:1/"), ("Http.Method", "GET"), ("Http.Mode", "requests"), ("Http.Requests", "5"), ("Http.TimeoutMs", "1000")],
    };

    static T Pick<T>(Random random, IReadOnlyList<T> items) => items[random.Next(items.Count)];

    static string Shorten(string text) => text.Length <= 200 ? text : text[..200] + "…";
}
