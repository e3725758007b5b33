using System.Diagnostics;

namespace BenchDashboard.TestSupport;

/// <summary>
/// A real Kestrel server on 127.0.0.1 with endpoints of known latency (tests/TargetServer), run as a child
/// process: a target inside the test process would share its thread pool, timers and JIT with the client
/// being measured and add milliseconds of noise that a real target never causes.
/// Endpoints: /delay?ms=D[&amp;precise=false][&amp;record=true], /held (the recorded hold times, see <see cref="TakeHeldAsync"/>), /stall?key=K&amp;ms=D&amp;at=A&amp;for=F (one stall of the whole service),
/// /deployed?key=K&amp;ms=D (D ms until /deploy?key=K&amp;ms=E makes it E ms: one address after a deployment), /ok?size=N,
/// /status?code=C, /cacheable.
/// </summary>
public sealed class KestrelTarget : IAsyncDisposable
{
    readonly Process process;
    public Uri BaseUri { get; }

    KestrelTarget(Process process, Uri baseUri)
    {
        this.process = process;
        BaseUri = baseUri;
    }

    public Uri Url(string pathAndQuery) => new(BaseUri, pathAndQuery);

    /// <summary>
    /// How long the target's handler held each /delay?record=true request since the last call, in ns, in the
    /// order the handlers finished (the order of the requests when they are sent one at a time).
    /// </summary>
    public async Task<long[]> TakeHeldAsync()
    {
        using var client = new HttpClient();
        var text = await client.GetStringAsync(Url("/held"));
        return text.Split('\n', StringSplitOptions.RemoveEmptyEntries).Select(long.Parse).ToArray();
    }

    public static async Task<KestrelTarget> StartAsync()
    {
        var dll = Path.Combine(AppContext.BaseDirectory, "BenchDashboard.TargetServer.dll");
        var start = new ProcessStartInfo("dotnet", [dll])
        {
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            UseShellExecute = false,
        };
        var process = Process.Start(start) ?? throw new InvalidOperationException("Could not start the target server.");
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(30));
        while (await process.StandardOutput.ReadLineAsync(timeout.Token) is { } line)
            if (line.StartsWith("listening ", StringComparison.Ordinal))
                return new KestrelTarget(process, new Uri(line["listening ".Length..]));
        throw new InvalidOperationException($"The target server exited with {process.ExitCode} before listening.");
    }

    public async ValueTask DisposeAsync()
    {
        process.StandardInput.Close(); // the server exits when its input closes
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(10));
        try
        {
            await process.WaitForExitAsync(timeout.Token);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
        }
        process.Dispose();
    }
}
