using System.Diagnostics;
using System.Net;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;

namespace BenchDashboard.TargetServer;

// A target with known latency for the accuracy tests, in its own process so that it shares no thread pool,
// timers, GC or JIT with the client being measured. Prints "listening <url>" once it accepts connections
// and exits when its standard input closes, so it never outlives the test that started it (or on SIGTERM).
static class Program
{
    static async Task Main(string[] args)
    {
        var builder = WebApplication.CreateSlimBuilder(args);
        builder.Logging.ClearProviders();
        builder.WebHost.UseKestrel(o => o.Listen(IPAddress.Loopback, 0));
        var app = builder.Build();

        // /delay?ms=D: the response is sent D ms after the request reached the server, to within tens of µs (DelayAsync).
        // With record=true the time the handler really held the request (its start to its write, in ns) is kept
        // for /held: on a loaded machine the wake-up itself can be late, and that is the target's time, not the
        // client's error.
        var held = new System.Collections.Concurrent.ConcurrentQueue<long>();
        app.MapGet("/delay", async (HttpContext http, int ms, bool precise = true, int size = 64, bool record = false) =>
        {
            var start = Stopwatch.GetTimestamp();
            await DelayAsync(start, TimeSpan.FromMilliseconds(ms), precise);
            // Recorded before the response is written: once it is, the client may have it and send the next request
            // while this handler's continuation waits for a thread, and a hold taken after that would include the
            // wait (a full suite once saw 11.3 ms "held" for a request measured at 10.7 ms, and the order swapped).
            if (record) held.Enqueue((long)Stopwatch.GetElapsedTime(start).TotalNanoseconds);
            await WriteAsync(http, size);
        });
        // /deployed?key=K&ms=D: answers as /delay does, in D ms until /deploy?key=K&ms=E changes that to E ms: the
        // same address behaving differently from then on, as a service does after a deployment.
        var deployed = new System.Collections.Concurrent.ConcurrentDictionary<string, double>();
        app.MapGet("/deployed", async (HttpContext http, string key, double ms) =>
        {
            await DelayAsync(Stopwatch.GetTimestamp(), TimeSpan.FromMilliseconds(deployed.GetValueOrDefault(key, ms)), precise: true);
            await WriteAsync(http, 64);
        });
        app.MapGet("/deploy", (string key, double ms) => deployed[key] = ms);
        // /held: the recorded hold times in ns, one per line in the order the delays ended, and forgets them.
        app.MapGet("/held", () =>
        {
            var lines = new System.Text.StringBuilder();
            while (held.TryDequeue(out var ns)) lines.Append(ns).Append('\n');
            return lines.ToString();
        });
        // /stall?key=K&ms=D&at=A&for=F: answers in D ms, except that every response due in the window from A ms
        // to A + F ms after the first request with this key is held until the window ends: the whole service
        // stalls once, as a GC pause or a failover would. The key lets each test have its own clock.
        var firstRequest = new System.Collections.Concurrent.ConcurrentDictionary<string, long>();
        app.MapGet("/stall", async (HttpContext http, string key, int ms, int at, int @for) =>
        {
            var now = Stopwatch.GetTimestamp();
            var first = firstRequest.GetOrAdd(key, now);
            var answer = Stopwatch.GetElapsedTime(first, now) + TimeSpan.FromMilliseconds(ms);
            var windowEnd = TimeSpan.FromMilliseconds(at + @for);
            if (answer >= TimeSpan.FromMilliseconds(at) && answer < windowEnd) answer = windowEnd;
            var wait = answer - Stopwatch.GetElapsedTime(first);
            if (wait > TimeSpan.Zero) await Task.Delay(wait);
            await WriteAsync(http, 64);
        });
        app.MapGet("/ok", (HttpContext http, int size = 64) => WriteAsync(http, size));
        app.MapGet("/status", (HttpContext http, int code) =>
        {
            http.Response.StatusCode = code;
            return WriteAsync(http, 16);
        });
        app.MapGet("/cacheable", (HttpContext http) =>
        {
            http.Response.Headers.ETag = "\"v1\"";
            http.Response.Headers.CacheControl = "public, max-age=60";
            return WriteAsync(http, 16);
        });

        MapJourney(app);

        await app.StartAsync();
        Console.WriteLine($"listening {app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.First()}");
        // Also on SIGTERM (a script's cleanup), which stops the host but would leave this waiting for input.
        var stopping = Task.Delay(Timeout.Infinite, app.Lifetime.ApplicationStopping);
        await Task.WhenAny(Console.In.ReadToEndAsync(), stopping);
        await app.StopAsync();
    }

    // A user's journey for the journey (steps) tests: sign in → token → list → detail. Each answers in ms=D ms
    // (default 0). /journey/signin takes {"user","password"} (password "secret"): 200 {"token","next"} and an
    // X-Session header, else 401; /journey/orders and /journey/orders/{id} want "Authorization: Bearer <token>"
    // (401 without); /journey/served says how many journey requests reached the server (a refused one must not).
    static void MapJourney(WebApplication app)
    {
        long served = 0;
        var users = new System.Collections.Concurrent.ConcurrentDictionary<string, string>();
        async Task<bool> ServeAsync(HttpContext http, int ms)
        {
            Interlocked.Increment(ref served);
            if (ms > 0) await DelayAsync(Stopwatch.GetTimestamp(), TimeSpan.FromMilliseconds(ms), precise: true);
            return true;
        }
        string? UserOf(HttpContext http) =>
            http.Request.Headers.Authorization.ToString() is var auth && auth.StartsWith("Bearer ", StringComparison.Ordinal)
                && users.TryGetValue(auth["Bearer ".Length..], out var user) ? user : null;
        app.MapPost("/journey/signin", async (HttpContext http, SignIn body, int ms = 0, string? next = null) =>
        {
            await ServeAsync(http, ms);
            if (body.Password != "secret") return Results.Unauthorized();
            var token = Guid.NewGuid().ToString("N");
            users[token] = body.User ?? "";
            http.Response.Headers["X-Session"] = "s-" + new string((body.User ?? "").Where(c => !char.IsControl(c)).ToArray());
            return Results.Json(new { token, next = next ?? "/journey/orders" });
        });
        app.MapGet("/journey/orders", async (HttpContext http, int ms = 0) =>
        {
            await ServeAsync(http, ms);
            return UserOf(http) is { } user
                ? Results.Json(new { user, items = new[] { new { id = 17, total = 12.5 }, new { id = 23, total = 40.0 } } })
                : Results.Unauthorized();
        });
        app.MapGet("/journey/orders/{id:int}", async (HttpContext http, int id, int ms = 0) =>
        {
            await ServeAsync(http, ms);
            return UserOf(http) is null ? Results.Unauthorized()
                : id is 17 or 23 ? Results.Json(new { id, status = "shipped" }) : Results.NotFound();
        });
        app.MapGet("/journey/served", () => Interlocked.Read(ref served).ToString(System.Globalization.CultureInfo.InvariantCulture));
    }

    sealed record SignIn(string? User, string? Password);

    // Task.Delay alone overshoots by a timer tick or more, and spinning for milliseconds would take one of the
    // machine's two cores from the client being measured; so: Task.Delay to 3 ms before, 1 ms kernel sleeps
    // (precise on Linux) to 1.2 ms before, then spin the last fraction of a millisecond.
    static async Task DelayAsync(long start, TimeSpan target, bool precise)
    {
        if (!precise)
        {
            await Task.Delay(target);
            return;
        }
        if (target > TimeSpan.FromMilliseconds(4)) await Task.Delay(target - TimeSpan.FromMilliseconds(3));
        while (target - Stopwatch.GetElapsedTime(start) > TimeSpan.FromMilliseconds(1.2)) Thread.Sleep(1);
        while (Stopwatch.GetElapsedTime(start) < target) Thread.SpinWait(20);
    }

    // Kestrel disables Nagle and sends a small response with a known length in one write: no delayed-ACK stall.
    static Task WriteAsync(HttpContext http, int size)
    {
        http.Response.ContentLength = size;
        return http.Response.Body.WriteAsync(new byte[size]).AsTask();
    }
}
