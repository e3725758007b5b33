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
/// </summary>
sealed class JourneyIterations : ILoadOperation, IDisposable
{
    readonly Step[][] variants;
    readonly string[] iterationSeries;
    readonly JourneyWorker[] workers;
    readonly RunContext context;
    readonly TargetPolicy policy;
    readonly Func<int> nextIndex;
    long counter;

    public JourneyIterations(IReadOnlyList<(string? Name, HttpParameters Parameters)> variants, int concurrency, RunContext context,
        TargetPolicy policy, Func<int> nextIndex, RemoteCertificateValidationCallback? serverCertificate)
    {
        this.variants = variants.Select(v => v.Parameters.Steps!.Select(s => new Step(s, Journey.SeriesOf(v.Name, s.Name), v.Parameters)).ToArray()).ToArray();
        iterationSeries = variants.Select(v => Journey.SeriesOf(v.Name, JourneyValidator.IterationSeries)).ToArray();
        this.context = context;
        this.policy = policy;
        this.nextIndex = nextIndex;
        var connectTimeout = variants[0].Parameters.Timeout;
        workers = Enumerable.Range(0, concurrency)
            .Select(w => new JourneyWorker(new SocketsHttpConnection(connectTimeout, policy, blocking: false, serverCertificate), new Random(HashCode.Combine(w, Environment.TickCount64))))
            .ToArray();
    }

    public async ValueTask<Outcome> OperateAsync(Operation operation, CancellationToken ct)
    {
        var worker = workers[operation.Worker];
        worker.Values.Clear();
        var steps = variants[operation.Variant];
        long think = 0;
        var error = ErrorKind.None;
        for (var i = 0; i < steps.Length; i++)
        {
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
                think += Stopwatch.GetTimestamp() - pause;
            }
        }
        operation.Clock.StopExcluding(think);
        // No bytes and no status of its own: its steps carry them, and a run's totals must not count them twice.
        return new Outcome { Series = iterationSeries[operation.Variant], Error = error };
    }

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

    /// <summary>The checks, then the extractions into the worker's values; the first failure in words, or null.</summary>
    static string? Inspect(JourneyWorker worker, Step step, HttpResponseMessage response, int status)
    {
        if (step.Definition.Checks is null && step.Definition.Extract is null) return null;
        var text = Encoding.UTF8.GetString(worker.Body.GetBuffer(), 0, (int)worker.Body.Length);
        JsonDocument? json = null;
        try
        {
            JsonElement? Json(JsonPath path)
            {
                if (json is null)
                    try { json = JsonDocument.Parse(worker.Body.GetBuffer().AsMemory(0, (int)worker.Body.Length)); }
                    catch (JsonException) { return null; }
                return path.Find(json.RootElement);
            }
            foreach (var check in step.Checks)
            {
                var failure = check.Definition switch
                {
                    { Status: { } expected } => status == expected ? null : $"status {status}, expected {expected}",
                    { Header: { } name } c => Header(response, name) is not { } value ? $"no {name} header"
                        : c.EqualTo is { } equal && value != equal ? $"{name} is not '{Shown(equal)}'" : null,
                    { Contains: { } part } => text.Contains(part, StringComparison.Ordinal) ? null : $"the body does not contain '{Shown(part)}'",
                    { Json: { } } c => Json(check.Path!) is not { } found
                        ? (c.Exists == false ? null : $"{check.Path!.Text} is missing")
                        : c.Exists == false ? $"{check.Path!.Text} exists"
                        : c.EqualTo is { } equal && JsonPath.ValueText(found) != equal ? $"{check.Path!.Text} is not '{Shown(equal)}'"
                        : check.Pattern is { } pattern && !Matches(pattern, JsonPath.ValueText(found)) ? $"{check.Path!.Text} does not match {pattern}"
                        : found.ValueKind == JsonValueKind.Array && found.GetArrayLength() == 0 && c.Exists == true ? $"{check.Path!.Text} is empty"
                        : null,
                    _ => null,
                };
                if (failure is not null) return failure;
            }
            foreach (var extract in step.Extracts)
            {
                var value = extract.Definition switch
                {
                    { Json: not null } => Json(extract.Path!) is { } found ? JsonPath.ValueText(found) : null,
                    { Header: { } name } => Header(response, name),
                    _ => Capture(extract.Pattern!, text),
                } ?? extract.Definition.Default;
                if (value is null) return $"{extract.Definition.Name}: nothing to extract ({extract.Definition.Json ?? extract.Definition.Header ?? extract.Definition.Regex})";
                if (value.Length > Journey.MaxValueLength) return $"{extract.Definition.Name}: the value is longer than {Journey.MaxValueLength:N0} characters";
                worker.Values[extract.Definition.Name] = value;
            }
            return null;
        }
        finally
        {
            json?.Dispose();
        }
    }

    static string? Header(HttpResponseMessage response, string name) =>
        response.Headers.NonValidated.TryGetValues(name, out var values) || response.Content.Headers.NonValidated.TryGetValues(name, out values)
            ? values.ToString() : null;

    static bool Matches(Regex pattern, string text)
    {
        try { return pattern.IsMatch(text); }
        catch (RegexMatchTimeoutException) { return false; }
    }

    static string? Capture(Regex pattern, string text)
    {
        try
        {
            var match = pattern.Match(text);
            return !match.Success ? null : match.Groups.Count > 1 ? match.Groups[1].Value : match.Value;
        }
        catch (RegexMatchTimeoutException) { return null; }
    }

    string Lookup(JourneyWorker worker, Operation operation, string name) =>
        worker.Values.TryGetValue(name, out var value) ? value : name switch
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
        foreach (var worker in workers) worker.Connection.Dispose();
    }

    sealed class JourneyWorker(SocketsHttpConnection connection, Random random)
    {
        public SocketsHttpConnection Connection { get; } = connection;
        public Random Random { get; } = random;
        public Dictionary<string, string> Values { get; } = new(StringComparer.Ordinal);
        public byte[] Buffer { get; } = new byte[16 * 1024];
        public MemoryStream Body { get; } = new();
    }

    /// <summary>A step parsed once for the run: its templates, JSON paths and regular expressions.</summary>
    sealed class Step
    {
        public Step(HttpStep step, string series, HttpParameters run)
        {
            Definition = step;
            Series = series;
            Method = new HttpMethod(step.Method);
            Url = Template.Parse(step.Url);
            StaticUri = Url.IsStatic ? new Uri(step.Url) : null;
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

    sealed record CompiledCheck(HttpCheck Definition, JsonPath? Path, Regex? Pattern);
    sealed record CompiledExtract(HttpExtract Definition, JsonPath? Path, Regex? Pattern);
}
