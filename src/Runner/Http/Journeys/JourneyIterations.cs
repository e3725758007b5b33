using System.Diagnostics;
using System.Net.Http;
using System.Net.Security;
using System.Net.Sockets;
using System.Text;
using System.Text.Json;
using System.Text.RegularExpressions;
using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Kinds.Http.Journeys;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Security;
using BenchDashboard.Processing.Executing;
using BenchDashboard.Runner.Execution;

namespace BenchDashboard.Runner.Http.Journeys;

/// <summary>
/// A journey's operation: one iteration runs the steps in order on the worker's connection (SocketsHttpHandler, one
/// connection per origin). Each step is timed here, from its send to its body's last byte, and recorded as a sample
/// of its own series; what comes after (checks, extractions) and think time between steps are untimed. The
/// iteration's own sample (series "iteration") is the driver's, its clock stopped less the think time. A step that
/// fails (an error, a failed check, a missing value) ends its iteration: the steps after it would use what it lacked.
/// With a data file (<see cref="HttpDataFile"/>) each iteration takes a row before it starts, its columns variables of
/// every step: the next (one cursor for all workers), one at random, or each row once, after which the run takes no
/// more iterations (<see cref="IFiniteOperation"/>).
/// A token step takes the run's cached token (<see cref="EntraTokens"/>) into its variable: no sample of its own unless
/// getting it fails, and the time it takes is left out of the iteration's, as think time is.
/// </summary>
sealed partial class JourneyIterations : ILoadOperation, IFiniteOperation, IDisposable
{
    readonly Step[][] variants;
    readonly string[] iterationSeries;
    readonly JourneyWorker[] workers;
    readonly RunContext context;
    readonly TargetPolicy policy;
    readonly Func<int> nextIndex;
    readonly DataRows? data;
    readonly EntraTokens tokens = new();
    long counter;

    public JourneyIterations(IReadOnlyList<(string? Name, HttpParameters Parameters)> variants, int concurrency, RunContext context,
        TargetPolicy policy, Func<int> nextIndex, RemoteCertificateValidationCallback? serverCertificate)
    {
        this.variants = variants.Select(v => v.Parameters.Steps!.Select(s => new Step(s, Journey.SeriesOf(v.Name, s.Name), v.Parameters, tokens)).ToArray()).ToArray();
        iterationSeries = variants.Select(v => Journey.SeriesOf(v.Name, JourneyValidator.IterationSeries)).ToArray();
        this.context = context;
        this.policy = policy;
        this.nextIndex = nextIndex;
        data = variants[0].Parameters.Data is { } file ? new DataRows(file) : null; // a variant cannot change it
        var connectTimeout = variants[0].Parameters.Timeout;
        workers = Enumerable.Range(0, concurrency)
            .Select(w => new JourneyWorker(new SocketsHttpConnection(connectTimeout, policy, blocking: false, serverCertificate), new Random(HashCode.Combine(w, Environment.TickCount64))))
            .ToArray();
    }

    /// <summary>The row the worker's next iteration uses; false when each row was to be used once and none is left.</summary>
    public bool TryStart(int worker)
    {
        if (data is null) return true;
        return data.Take(workers[worker]);
    }

    /// <summary>What the run's notes say of the data file when its rows were used up; null when they were not.</summary>
    public string? UsedUpNote(int warmup) => data?.UsedUp is true
        ? $"The data file's {data.Table.Rows.Count:N0} rows were used up after {data.Table.Rows.Count:N0} iterations{(warmup > 0 ? " (warm-up included)" : "")}: each row is used once, so the run took no more."
        : null;

    /// <summary>How the data file is read, for the run's notes; null without one.</summary>
    public string? DataNote() => data is null ? null
        : $"Data file: {data.File.Format}, {data.Table.Rows.Count:N0} rows, {data.File.Mode switch { HttpDataFile.Once => "each row once", HttpDataFile.Random => "a row at random", _ => "rows in order, from the first again after the last" }} an iteration.";

    public async ValueTask<Outcome> OperateAsync(Operation operation, CancellationToken ct)
    {
        var worker = workers[operation.Worker];
        worker.Values.Clear();
        var steps = variants[operation.Variant];
        long untimed = 0; // think time and waits for a token
        var error = ErrorKind.None;
        for (var i = 0; i < steps.Length; i++)
        {
            if (steps[i].Token is { } source)
            {
                var asked = Stopwatch.GetTimestamp();
                var failed = await TakeTokenAsync(worker, steps[i], source, operation, ct);
                untimed += Stopwatch.GetTimestamp() - asked;
                if (failed is null) continue;
                context.Record(failed);
                error = failed.Error;
                break;
            }
            var sample = await SendAsync(worker, steps[i], operation, ct);
            context.Record(sample);
            if (sample.Error != ErrorKind.None)
            {
                error = sample.Error;
                break;
            }
            if (i < steps.Length - 1 && steps[i].Definition.ThinkTime is { } thinkTime)
            {
                var pause = Stopwatch.GetTimestamp();
                await Task.Delay(TimeSpan.FromMilliseconds(thinkTime.Draw(worker.Random)), ct);
                untimed += Stopwatch.GetTimestamp() - pause;
            }
        }
        operation.Clock.StopExcluding(untimed);
        // No bytes and no status of its own: its steps carry them, and a run's totals must not count them twice.
        return new Outcome { Series = iterationSeries[operation.Variant], Error = error };
    }

    /// <summary>A token step: the token into its variable, or the error sample of a failed fetch (null when it has one).</summary>
    async Task<Sample?> TakeTokenAsync(JourneyWorker worker, Step step, TokenSource source, Operation operation, CancellationToken ct)
    {
        try
        {
            worker.Values[step.Definition.Token!.Variable] = await source.GetAsync(ct);
            return null;
        }
        catch (Exception ex) when (!ct.IsCancellationRequested)
        {
            // Short: the notes keep 300 characters of a message, and the credential and scope are in the run's token note.
            var sample = new Sample { Index = nextIndex(), Connection = operation.Worker, IsWarmup = operation.IsWarmup, Series = step.Series };
            return NotSent(sample, operation, ErrorKind.Other, $"{step.Definition.Name}: no token from Microsoft Entra: {source.Reason(ex)}");
        }
    }

    /// <summary>What the run's notes say of its tokens (<see cref="EntraTokens.Note"/>); null without token steps.</summary>
    public string? TokenNote() => tokens.Note();

    /// <summary>One step: resolved, judged by the policy when a variable reaches its URL, sent, timed, then checked and extracted from.</summary>
    async Task<Sample> SendAsync(JourneyWorker worker, Step step, Operation operation, CancellationToken ct)
    {
        var sample = new Sample { Index = nextIndex(), Connection = operation.Worker, IsWarmup = operation.IsWarmup, Series = step.Series };
        string Value(string name) => Lookup(worker, operation, name);

        var uri = step.StaticUri;
        if (uri is null)
        {
            var url = step.Url.Resolve(Value);
            if (!Uri.TryCreate(url, UriKind.Absolute, out uri) || uri.Scheme is not ("http" or "https"))
                return NotSent(sample, operation, ErrorKind.TargetRefused, $"{step.Definition.Name}: its URL, its variables filled in, is not an absolute http(s) URL; nothing was sent.");
            if (await policy.CheckAsync(uri, ct) is { } refused)
                return NotSent(sample, operation, ErrorKind.TargetRefused, $"{step.Definition.Name}: {uri.GetLeftPart(UriPartial.Authority)} refused by the target policy ({refused}); nothing was sent.");
        }
        using var request = new HttpRequestMessage(step.Method, uri);
        var body = step.Body?.Resolve(Value);
        foreach (var (name, template) in step.Headers)
        {
            var value = template.Resolve(Value);
            // An extracted value could carry a line break into a header: a second header, or a second request.
            if (value.AsSpan().IndexOfAny('\r', '\n', '\0') >= 0)
                return NotSent(sample, operation, ErrorKind.Other, $"{step.Definition.Name}: the header {name} would contain a line break; nothing was sent.");
            if (!request.Headers.TryAddWithoutValidation(name, value))
                (request.Content ??= new ByteArrayContent(body is null ? [] : Encoding.UTF8.GetBytes(body))).Headers.TryAddWithoutValidation(name, value);
        }
        if (body is not null) request.Content ??= new ByteArrayContent(Encoding.UTF8.GetBytes(body));
        if (!step.KeepAlive) request.Headers.ConnectionClose = true;

        using var limit = CancellationTokenSource.CreateLinkedTokenSource(ct);
        limit.CancelAfter(step.Timeout);
        worker.Body.SetLength(0);
        long start = Stopwatch.GetTimestamp(), end;
        long? headersAt = null;
        HttpResponseMessage? response = null;
        try
        {
            response = await worker.Connection.Invoker.SendAsync(request, limit.Token);
            headersAt = Stopwatch.GetTimestamp();
            sample.StatusCode = (int)response.StatusCode;
            await using var stream = await response.Content.ReadAsStreamAsync(limit.Token);
            int read;
            while ((read = await stream.ReadAsync(worker.Buffer, limit.Token)) > 0)
            {
                sample.Bytes += read;
                if (worker.Body.Length < Journey.MaxInspectedBody) worker.Body.Write(worker.Buffer, 0, (int)Math.Min(read, Journey.MaxInspectedBody - worker.Body.Length));
            }
            end = Stopwatch.GetTimestamp();
        }
        catch (Exception ex) when (!ct.IsCancellationRequested && ex is OperationCanceledException or HttpRequestException or IOException or SocketException)
        {
            end = Stopwatch.GetTimestamp();
            response?.Dispose();
            sample.Error = ex switch
            {
                OperationCanceledException => ErrorKind.Timeout,
                HttpRequestException { InnerException: TargetRefusedException } => ErrorKind.TargetRefused,
                _ => TransportErrorClassifier.Classify(ex),
            };
            context.Notes.AddError(sample.Error, $"{step.Definition.Name}: {ex.Message}");
            Timed(sample, operation, start, end, null, worker.Connection.TakeConnectTicks());
            return sample;
        }
        Timed(sample, operation, start, end, headersAt, worker.Connection.TakeConnectTicks());
        using (response)
        {
            // A step with a status check judges the status by it (a 401 may be what it expects); otherwise as one request's.
            sample.Error = step.ChecksStatus ? ErrorKind.None : SocketsHttpSender.ErrorFor(sample.StatusCode ?? 0);
            if (Inspect(worker, step, response, sample.StatusCode ?? 0) is { } failure)
            {
                sample.Error = ErrorKind.CheckFailed;
                context.Notes.AddError(ErrorKind.CheckFailed, $"check failed: {step.Definition.Name}: {failure}");
            }
        }
        return sample;
    }

    static void Timed(Sample sample, Operation operation, long start, long end, long? headersAt, long? connectTicks)
    {
        sample.OffsetNs = Ticks.ToNanoseconds(start - operation.RunStart);
        sample.LatencyNs = Ticks.ToNanoseconds(end - start);
        if (headersAt is { } at) sample.HeadersNs = Ticks.ToNanoseconds(at - start);
        if (connectTicks is { } connect) sample.ConnectNs = Ticks.ToNanoseconds(connect);
    }

    Sample NotSent(Sample sample, Operation operation, ErrorKind error, string note)
    {
        sample.OffsetNs = Ticks.ToNanoseconds(Stopwatch.GetTimestamp() - operation.RunStart);
        sample.Error = error;
        context.Notes.AddError(error, note);
        return sample;
    }

    string Lookup(JourneyWorker worker, Operation operation, string name) =>
        worker.Values.TryGetValue(name, out var value) ? value
        : data is not null && worker.Row is { } row && data.Columns.TryGetValue(name, out var column) ? row[column]
        : name switch
        {
            "counter" => Interlocked.Increment(ref counter).ToString(System.Globalization.CultureInfo.InvariantCulture),
            "random" => worker.Random.Next().ToString(System.Globalization.CultureInfo.InvariantCulture),
            "randomString" => string.Create(16, worker.Random, (chars, random) =>
            {
                for (var i = 0; i < chars.Length; i++) chars[i] = "abcdefghijklmnopqrstuvwxyz0123456789"[random.Next(36)];
            }),
            "guid" => Guid.NewGuid().ToString(),
            "time" => DateTimeOffset.UtcNow.ToUnixTimeMilliseconds().ToString(System.Globalization.CultureInfo.InvariantCulture),
            "connection" => operation.Worker.ToString(System.Globalization.CultureInfo.InvariantCulture),
            "iteration" => operation.Number.ToString(System.Globalization.CultureInfo.InvariantCulture),
            _ => "", // validation refuses a reference to nothing; a value a failed step never set cannot be reached
        };

    /// <summary>A benchmark's own text as a note may quote it: short, one line. Values from answers are never quoted (they may be tokens).</summary>
    static string Shown(string text) => new string(text.Take(40).Select(c => char.IsControl(c) ? '?' : c).ToArray()) + (text.Length > 40 ? "…" : "");

    public void Dispose()
    {
        tokens.Dispose();
        foreach (var worker in workers) worker.Connection.Dispose();
    }

    sealed class JourneyWorker(SocketsHttpConnection connection, Random random)
    {
        public SocketsHttpConnection Connection { get; } = connection;
        public Random Random { get; } = random;
        public Dictionary<string, string> Values { get; } = new(StringComparer.Ordinal);

        /// <summary>The data file's row of the iteration it runs.</summary>
        public string[]? Row { get; set; }
        public byte[] Buffer { get; } = new byte[16 * 1024];
        public MemoryStream Body { get; } = new();
    }

    /// <summary>A step parsed once for the run: its templates, JSON paths and regular expressions.</summary>
    sealed class Step
    {
        public Step(HttpStep step, string series, HttpParameters run, EntraTokens tokens)
        {
            Definition = step;
            Series = series;
            Token = step.Token is { } token ? tokens.For(token) : null;
            Method = new HttpMethod(step.Method);
            Url = Template.Parse(step.Url);
            StaticUri = Url.IsStatic && Token is null ? new Uri(step.Url) : null; // a token step has no URL
            Body = step.Body is null ? null : Template.Parse(step.Body);
            Headers = (step.Headers ?? []).Select(h => (h.Key, Template.Parse(h.Value))).ToArray();
            Checks = (step.Checks ?? []).Select(c => new CompiledCheck(c,
                c.Json is null ? null : JsonPath.TryParse(c.Json, out _),
                c.Matches is null ? null : new Regex(c.Matches, RegexOptions.None, JourneyValidator.RegexBudget))).ToArray();
            ChecksStatus = Checks.Any(c => c.Definition.Status is not null);
            Extracts = (step.Extract ?? []).Select(e => new CompiledExtract(e,
                e.Json is null ? null : JsonPath.TryParse(e.Json, out _),
                e.Regex is null ? null : new Regex(e.Regex, RegexOptions.None, JourneyValidator.RegexBudget))).ToArray();
            Timeout = run.Timeout;
            KeepAlive = run.KeepAlive;
        }

        public HttpStep Definition { get; }
        public string Series { get; }
        public TokenSource? Token { get; }
        public HttpMethod Method { get; }
        public Template Url { get; }
        public Uri? StaticUri { get; }
        public Template? Body { get; }
        public (string Name, Template Value)[] Headers { get; }
        public CompiledCheck[] Checks { get; }
        public bool ChecksStatus { get; }
        public CompiledExtract[] Extracts { get; }
        public TimeSpan Timeout { get; }
        public bool KeepAlive { get; }
    }
}
