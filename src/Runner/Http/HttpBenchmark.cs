using System.Net.Security;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Kinds.Http.Journeys;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Security;
using BenchDashboard.Processing;
using BenchDashboard.Processing.Executing;
using BenchDashboard.Runner.Execution;
using BenchDashboard.Runner.Http.Journeys;
using BenchDashboard.Runner.Http.Lean;
using Microsoft.Extensions.Options;

namespace BenchDashboard.Runner.Http;

/// <summary>
/// HTTP latency benchmark: one request is one operation of the <see cref="LoadDriver"/>, sent on the worker's own
/// connection (one per worker, as wrk's and ab's "concurrency"). With variants each sample's series is its
/// variant's name, and a worker's variants share its connection wherever they can (<see cref="HttpParameters.ConnectionKey"/>):
/// a connection's own speed must not pass for a variant's.
/// </summary>
/// <param name="serverCertificate">Overrides the check of https:// targets' certificates (tests trust their own); null: the system's trust store.</param>
public sealed class HttpBenchmark(TargetPolicy policy, IOptions<RunnerOptions>? options = null, RemoteCertificateValidationCallback? serverCertificate = null)
    : BenchmarkExecutor<HttpParameters>
{
    readonly RunnerOptions settings = options?.Value ?? new RunnerOptions();

    /// <summary>The run's URL and each variant's, against this process's target policy ({{self}} ones on its own site, <see cref="OwnSite"/>).</summary>
    public override async Task<string?> RefusalAsync(HttpParameters parameters, CancellationToken ct) => (await PlaceAsync(parameters, ct)).Refusal;

    /// <summary>
    /// The run with its {{self}} URLs on this process's own site, the policy its connections go by (the own site opened),
    /// or why it may not run here. Every other URL is judged by this process's policy as it is: the own site opens
    /// one address, and only to the URLs that name it.
    /// </summary>
    async Task<(HttpParameters Parameters, TargetPolicy Policy, OwnSite? Site, string? Refusal)> PlaceAsync(HttpParameters parameters, CancellationToken ct)
    {
        if (parameters.IsJourney)
        {
            // The static origins; each URL a variable is in is judged again before its step is sent.
            foreach (var url in parameters.Resolved().SelectMany(v => v.Parameters.Steps ?? []).Concat(parameters.Steps!).Select(s => s.Url).Distinct())
                if (Template.StaticOrigin(url) is { } origin && await policy.CheckAsync(origin, ct) is { } refused) return (parameters, policy, null, $"{url}: {refused}");
            return (parameters, policy, null, null);
        }
        var (site, noSite) = SelfUrl.Uses(parameters) ? OwnSite.Of(settings) : (null, null);
        if (noSite is not null) return (parameters, policy, null, noSite);
        var opened = site?.Opening(policy) ?? policy;
        foreach (var url in parameters.Resolved().Select(v => v.Parameters.Url).Prepend(parameters.Url).Distinct())
        {
            var (target, judge) = SelfUrl.IsSelf(url) ? (SelfUrl.Resolve(url, site!.Address), opened) : (url, policy);
            if (!Uri.TryCreate(target, UriKind.Absolute, out var uri)) return (parameters, policy, null, $"'{url}' is not an absolute URL.");
            if (await judge.CheckAsync(uri, ct) is { } refused) return (parameters, policy, null, $"{url}: {refused}");
        }
        return site is null ? (parameters, policy, null, null) : (site.Resolve(parameters), opened, site, null);
    }

    /// <summary>Requests to a loopback server of its own (<see cref="LoopbackWarmup"/>).</summary>
    public override async Task<int?> WarmUpAsync(int operations, CancellationToken ct) => await LoopbackWarmup.RunAsync(operations, ct);

    public override async Task ExecuteAsync(RunContext context, HttpParameters parameters, CancellationToken ct)
    {
        var targets = policy;
        if (SelfUrl.Uses(parameters))
        {
            // Before any load: a run whose target is "this agent's own site" cannot be measured where there is none.
            (parameters, targets, var site, var refusal) = await PlaceAsync(parameters, ct);
            if (refusal is not null) throw new InvalidOperationException($"This run cannot be measured here: {refusal}");
            context.Notes.Add($"{SelfUrl.Token} is this agent's own site, {site!.Address.GetLeftPart(UriPartial.Authority)}.");
        }
        IReadOnlyList<(string? Name, HttpParameters Parameters)> variants = parameters.Variants is { Count: > 0 }
            ? parameters.Resolved().Select(v => ((string?)v.Name, v.Parameters)).ToList()
            : [(null, parameters)];
        if (parameters.IsJourney)
        {
            await ExecuteJourneyAsync(context, parameters, variants, ct);
            return;
        }
        var lean = settings.HttpEngine == HttpEngine.Auto && variants.All(v => LeanRequest.Speaks(v.Parameters));
        var blocking = parameters.Model == LoadModel.Closed && parameters.Concurrency <= settings.HttpBlockingUpTo;
        // Several connections on the socket engine's one thread read what arrived together before sending again.
        var turns = lean && !blocking && parameters.Model == LoadModel.Closed && parameters.Concurrency > 1 && settings.HttpReadsBeforeSends;
        var sends = blocking ? "blocking" : turns ? "asynchronous, answers read before sends" : "asynchronous";
        context.Notes.Add(EngineNote(lean, sends));
        // Also as fields of the run's environment: the compare page lists them per run and says when they differ.
        context.RecordClient("httpEngine", lean ? "lean HTTP/1.1" : "SocketsHttpHandler");
        context.RecordClient("httpSends", sends);
        using var requests = new Requests(variants, parameters.Concurrency, targets, serverCertificate, lean, blocking, turns);
        try
        {
            // The block is how variants take turns: a plain run ignores it, as each connection claims one request at a time.
            await new LoadDriver(context).RunAsync(parameters, requests, ct, variants.Count, variants.Count > 1 ? parameters.InterleaveBlock : 1);
        }
        finally
        {
            context.CachingEvidence = requests.Evidence();
        }
    }

    /// <summary>
    /// A journey: an operation is an iteration of the steps (<see cref="JourneyIterations"/>); the open model's rate
    /// is iterations per second. Asynchronous sends on SocketsHttpHandler: steps read their answers to check them.
    /// </summary>
    async Task ExecuteJourneyAsync(RunContext context, HttpParameters parameters, IReadOnlyList<(string? Name, HttpParameters Parameters)> variants, CancellationToken ct)
    {
        context.Notes.Add($"Engine: SocketsHttpHandler; sends: asynchronous. A journey of {parameters.Steps!.Count} steps: each step's samples are its series, each iteration's (its steps, not its think time) the series '{JourneyValidator.IterationSeries}'.");
        context.RecordClient("httpEngine", "SocketsHttpHandler");
        context.RecordClient("httpSends", "asynchronous");
        var driver = new LoadDriver(context);
        using var iterations = new JourneyIterations(variants, parameters.Concurrency, context, policy, driver.NextIndex, serverCertificate);
        await driver.RunAsync(parameters, iterations, ct, variants.Count, variants.Count > 1 ? parameters.InterleaveBlock : 1);
    }

    static string EngineNote(bool lean, string sends) =>
        (lean ? "Engine: lean HTTP/1.1 (request bytes built once, answers parsed as they arrive)" : "Engine: SocketsHttpHandler")
        + $"; sends: {sends}" + (sends == "blocking" ? " (a thread per connection)." : ".");

    /// <summary>The run's requests, [worker][variant], on each worker's connections, and the operation that sends one.</summary>
    sealed class Requests : ILoadOperation, IDisposable
    {
        readonly IHttpSender[][] senders;
        readonly List<IDisposable> connections = [];
        readonly BatchTurn? turn;

        public Requests(IReadOnlyList<(string? Name, HttpParameters Parameters)> variants, int workers, TargetPolicy policy,
            RemoteCertificateValidationCallback? serverCertificate, bool lean, bool blocking, bool turns)
        {
            turn = turns ? new BatchTurn() : null;
            senders = Enumerable.Range(0, workers).Select(_ =>
            {
                var shared = new Dictionary<string, IDisposable>();
                return variants.Select(v =>
                {
                    var key = v.Parameters.ConnectionKey();
                    if (!shared.TryGetValue(key, out var connection))
                        connections.Add(shared[key] = connection = lean
                            ? new LeanHttpConnection(policy, blocking, serverCertificate)
                            : new SocketsHttpConnection(v.Parameters.Timeout, policy, blocking, serverCertificate));
                    return connection is LeanHttpConnection leanConnection
                        ? (IHttpSender)new LeanSender(v.Parameters, leanConnection, v.Name, turn)
                        : new SocketsHttpSender(v.Parameters, policy, v.Name, (SocketsHttpConnection)connection);
                }).ToArray();
            }).ToArray();
        }

        public TimeSpan? TimeoutOf(int variant) => senders[0][variant].Timeout;

        // No state machine of its own: the sender's send is the operation.
        public ValueTask<Outcome> OperateAsync(Operation operation, CancellationToken ct) =>
            senders[operation.Worker][operation.Variant].SendAsync(operation, ct);

        public Outcome? Failed(Operation operation, Exception exception, bool timedOut) =>
            senders[operation.Worker][operation.Variant].Failed(operation, exception, timedOut);

        public CachingEvidence Evidence()
        {
            var evidence = new CachingEvidence();
            foreach (var sender in senders.SelectMany(s => s)) evidence.MergeFrom(sender.Evidence);
            return evidence;
        }

        public void Dispose()
        {
            foreach (var sender in senders.SelectMany(s => s)) sender.Dispose();
            foreach (var connection in connections) connection.Dispose();
            turn?.Dispose();
        }
    }
}
