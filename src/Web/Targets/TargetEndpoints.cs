using System.Diagnostics;
using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.Net.Http.Headers;

namespace BenchDashboard.Web.Targets;

/// <summary>
/// Built-in endpoints with known behaviour, so the demo and a first-time user have something to measure:
/// a fixed-size body, a fixed delay, a status code, and a cacheable resource like seed 002's fixed CGI.
/// </summary>
public static class TargetEndpoints
{
    // Small caps: these endpoints are public whenever the app is (they are what it measures itself with), and
    // a 100-byte request must not buy megabytes of egress or hold a connection for a minute.
    const int MaxSize = 1024 * 1024;
    const int MaxDelayMs = 10_000;
    static readonly byte[] Filler = CreateFiller();
    static long cacheableServed;

    public static IEndpointRouteBuilder MapTargets(this IEndpointRouteBuilder app)
    {
        var group = app.MapGroup("/target").ExcludeFromDescription();

        group.MapGet("/bytes", (HttpContext http, int size = 4096) => WriteBodyAsync(http, size));

        // A known latency: Task.Delay alone wakes on the runtime's timer, 1-3 ms late and in step with it (two
        // variants at 2 and 3 ms, taking turns, measured 4.6 and 3.8 ms). So the timer sleeps all but the last
        // 4 ms (its lateness), and PreciseDelay the rest, to within about 0.1 ms.
        group.MapGet("/delay", async (HttpContext http, int ms = 10, int size = 64) =>
        {
            ms = Math.Clamp(ms, 0, MaxDelayMs);
            var until = Stopwatch.GetTimestamp() + (long)(ms * (Stopwatch.Frequency / 1000.0));
            if (ms > 5) await Task.Delay(ms - 4, http.RequestAborted);
            await PreciseDelay.Until(until);
            await WriteBodyAsync(http, size);
        });

        // A final answer's status: 1xx (101 too) are interim responses, which would leave a client waiting for the real one.
        group.MapGet("/status", Results<EmptyHttpResult, ValidationProblem> (HttpContext http, int code = 500) =>
        {
            if (code is < 200 or > 599)
                return TypedResults.ValidationProblem(new Dictionary<string, string[]> { ["code"] = ["A final status code from 200 to 599 (1xx are interim responses)."] });
            http.Response.StatusCode = code;
            return TypedResults.Empty;
        });

        // Like seed 002's fixed CGI behind mod_cache: the first request since the process started is slow
        // (coldMs), later ones are warm; all carry the Expires/ETag/Last-Modified headers a cache needs, and
        // If-None-Match gets a 304.
        group.MapGet("/cacheable", async (HttpContext http, int coldMs = 400, int size = 4096) =>
        {
            const string etag = "\"demo-v1\"";
            var headers = http.Response.GetTypedHeaders();
            headers.ETag = new EntityTagHeaderValue(etag);
            headers.LastModified = DateTimeOffset.UnixEpoch.AddYears(56);
            headers.Expires = DateTimeOffset.UtcNow.AddHours(1);
            headers.CacheControl = new CacheControlHeaderValue { Public = true, MaxAge = TimeSpan.FromHours(1) };
            if (http.Request.Headers.IfNoneMatch == etag)
            {
                http.Response.StatusCode = StatusCodes.Status304NotModified;
                return;
            }
            if (Interlocked.Increment(ref cacheableServed) == 1)
                await Task.Delay(Math.Clamp(coldMs, 0, MaxDelayMs), http.RequestAborted);
            await WriteBodyAsync(http, size);
        });
        // Pages to measure the platform the app runs on: /target/static.html is a static file
        // (wwwroot), /target/dynamic is rendered per request, and /target/files reads `count` small files from
        // the site's own content on every request, as a scripting runtime loading its modules does (the
        // pattern seed 000 blamed on shared storage).
        group.MapGet("/dynamic", (HttpContext http, int items = 50) =>
        {
            items = Math.Clamp(items, 0, 10_000);
            var html = new System.Text.StringBuilder("<!doctype html><html><body><h1>Dynamic page</h1><ul>");
            for (var i = 0; i < items; i++) html.Append("<li>Item ").Append(i).Append(": ").Append(i * 7919 % 104729).Append("</li>");
            html.Append("</ul><p>Rendered ").Append(DateTimeOffset.UtcNow.ToString("O")).Append("</p></body></html>");
            http.Response.Headers.CacheControl = "no-store";
            return Results.Content(html.ToString(), "text/html; charset=utf-8");
        });

        group.MapGet("/files", async (HttpContext http, IWebHostEnvironment env, int count = 64) =>
        {
            var files = SmallFiles(env);
            count = Math.Clamp(count, 0, files.Length);
            long total = 0;
            for (var i = 0; i < count; i++) total += (await File.ReadAllBytesAsync(files[i], http.RequestAborted)).Length;
            http.Response.Headers.CacheControl = "no-store";
            return Results.Text($"read {count} files, {total} bytes, from {Path.GetDirectoryName(files.FirstOrDefault() ?? "")}\n");
        });
        return app;
    }

    static string[]? smallFiles;

    /// <summary>The shipped small files under wwwroot/target/files, listed once.</summary>
    static string[] SmallFiles(IWebHostEnvironment env) =>
        smallFiles ??= Directory.Exists(Path.Combine(env.WebRootPath, "target", "files"))
            ? Directory.GetFiles(Path.Combine(env.WebRootPath, "target", "files")).Order(StringComparer.Ordinal).ToArray()
            : [];

    static Task WriteBodyAsync(HttpContext http, int size)
    {
        size = Math.Clamp(size, 0, MaxSize);
        http.Response.ContentType = "application/octet-stream";
        http.Response.ContentLength = size;
        if (!http.Response.Headers.ContainsKey(HeaderNames.CacheControl)) http.Response.Headers.CacheControl = "no-store";
        return WriteRepeatedAsync(http.Response.Body, size, http.RequestAborted);
    }

    static async Task WriteRepeatedAsync(Stream body, int size, CancellationToken ct)
    {
        for (var written = 0; written < size; written += Filler.Length)
            await body.WriteAsync(Filler.AsMemory(0, Math.Min(Filler.Length, size - written)), ct);
    }

    static byte[] CreateFiller()
    {
        var bytes = new byte[64 * 1024];
        for (var i = 0; i < bytes.Length; i++) bytes[i] = (byte)('a' + i % 26);
        return bytes;
    }
}
