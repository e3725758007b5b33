using System.ComponentModel.DataAnnotations;

namespace BenchDashboard.Processing;

/// <summary>Section "Runner".</summary>
public sealed class RunnerOptions
{
    public const string Section = "Runner";

    /// <summary>
    /// <c>runner</c> (the default): takes queued runs from the database. <c>agent</c>: a load generator on
    /// another machine that dials out to the dashboard at <see cref="Coordinator"/> and never touches a
    /// database (the runner's <c>AgentLink</c>).
    /// </summary>
    public RunnerMode Mode { get; set; } = RunnerMode.Runner;

    /// <summary>Agent mode: the dashboard's address (https:// outside Development; http:// only for loopback tests and Development).</summary>
    public string? Coordinator { get; set; }

    /// <summary>Agent mode: this agent's key, as the dashboard's <c>Agents:Keys:&lt;AgentName&gt;</c> holds it.</summary>
    public string? AgentKey { get; set; }

    /// <summary>Agent mode: this agent's name (letters, digits, '-', '_', '.'; default: the machine's name).</summary>
    public string? AgentName { get; set; }

    /// <summary>
    /// Agent mode: this agent's own public base address, which the dashboard lists so a run "from outside" can measure it
    /// (one interleaved variant per configuration); default <c>https://$WEBSITE_HOSTNAME</c> on App Service, else none.
    /// </summary>
    public string? PublicUrl { get; set; }

    /// <summary>
    /// Agent mode: this process's own site, which a run's <c>{{self}}</c> URLs stand for (<c>SelfUrl</c> in Core).
    /// A configuration process (the web host with <see cref="Mode"/> agent) defaults it to <c>http://127.0.0.1:PORT</c>
    /// or its first ASPNETCORE_URLS address on 127.0.0.1; an agent without a site of its own has none, and refuses such runs.
    /// </summary>
    public string? SelfUrl { get; set; }

    /// <summary>
    /// Web only: where the dashboard's runner lives. <c>child</c> (the default): a process of its own that the
    /// dashboard starts, restarts and stops (<c>ChildRunner</c>); <c>inProcess</c>: inside the
    /// dashboard (tests); <c>none</c>: no runner here (run src/Runner yourself, or several on one database).
    /// </summary>
    public RunnerProcess Process { get; set; } = RunnerProcess.Child;

    /// <summary>
    /// The nice value of a run's storing and heartbeat threads (Linux; below normal on Windows for any value above 0): the
    /// target and the measuring threads get a CPU before them. 0 keeps them at the measuring threads' priority.
    /// </summary>
    [Range(0, 19)] public int BackgroundNice { get; set; } = 10;

    /// <summary>With a child runner, the nice value the dashboard lowers itself to (0: leave it): its pages yield the CPU to measurements.</summary>
    [Range(0, 19)] public int DashboardNice { get; set; } = 10;

    /// <summary>
    /// Runs measured at the same time, by all runners on the database unless <see cref="ParallelLimit"/> says
    /// otherwise. One by default so runs do not disturb each other.
    /// </summary>
    [Range(1, 16)] public int MaxParallelRuns { get; set; } = 1;

    /// <summary>Whom <see cref="MaxParallelRuns"/> counts: every runner on the database (the default), or this runner only.</summary>
    public ParallelLimit ParallelLimit { get; set; } = ParallelLimit.Database;

    /// <summary>How often to look for queued runs and due schedules.</summary>
    [Range(10, 60_000)] public int PollIntervalMs { get; set; } = 1000;

    /// <summary>How often a running run's heartbeat, progress and cancel flag are synchronised with the database.</summary>
    [Range(50, 10_000)] public int HeartbeatIntervalMs { get; set; } = 1000;

    /// <summary>A running run whose heartbeat is older than this is taken to be orphaned by a crash.</summary>
    [Range(2, 3600)] public int StaleAfterSeconds { get; set; } = 30;

    /// <summary>Samples written per database transaction.</summary>
    [Range(1, 100_000)] public int SampleBatchSize { get; set; } = 5000;

    /// <summary>
    /// After storing a batch that was not full, wait this long before the next, so a steady trickle of samples
    /// is stored in a few larger transactions instead of one per sample (bench/README.md: cache, c=1).
    /// </summary>
    [Range(0, 5_000)] public int SampleFlushIntervalMs { get; set; } = 100;

    /// <summary>
    /// Samples held in memory waiting to be stored (144 bytes each with the open model's lag, measured: the default is about 138 MiB). When storing
    /// cannot keep up and the buffer is full, the run's load stops and the run fails, saying how many were lost.
    /// </summary>
    [Range(1_000, 50_000_000)] public int SampleBufferSize { get; set; } = 1_000_000;

    /// <summary>
    /// Operations each kind's executor measures against something of the runner's own when it starts, before it takes
    /// a run (HTTP: a loopback server on each engine; cache: memory; file system: a temporary folder), so a young
    /// process's measuring path is compiled before it measures (the runner's <c>SelfWarmup</c>); 0 for none.
    /// bench/README.md "Does a young process measure like an old one?" has what it changed.
    /// </summary>
    [Range(0, 100_000)] public int SelfWarmupRequests { get; set; }

    /// <summary>
    /// Child runner only: socket completions run their continuation at once on one event thread
    /// (<c>DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS=1</c>, <c>…_THREAD_COUNT=1</c>) instead of being handed to a pool
    /// thread, which must first wake. On two cores that hand-off was the runner's largest cost: it slowed both
    /// the client and the server it measures (bench/README.md "Socket completions on the event thread").
    /// The runtime reads these once, at start, for the whole process, so they are set on the child's environment.
    /// </summary>
    public bool InlineSocketCompletions { get; set; } = true;

    /// <summary>
    /// Child runner only: the runtime's dynamic PGO (tiered profile-guided optimisation). Off by default
    /// (<c>DOTNET_TieredPGO=0</c> on the child's environment): with it each hot method is compiled twice more
    /// (instrumented, then optimised), and the code that runs once per flush or heartbeat reached its last
    /// compilation only during a young child's first measured run, whose JIT then took 65-79 µs of CPU per request
    /// (1 ms target, c = 4) against 9-10 without; warm, the event thread's cost was the same within noise
    /// (bench/README.md, "What a young child compiles, and what it allocates").
    /// </summary>
    public bool ChildDynamicPgo { get; set; }

    /// <summary>
    /// HTTP runs with at most this many connections send each connection's requests with blocking calls on a thread
    /// of its own (<c>HttpChannel.Blocking</c>), closed model only; above it, asynchronously. 0: never.
    /// One connection gains most (no hand-off at all between the kernel's answer and the clock); with more, the
    /// threads contend for two cores and the one event thread does as well or better (bench/README.md "Socket
    /// completions on the event thread").
    /// </summary>
    [Range(0, 1024)] public int HttpBlockingUpTo { get; set; } = 1;

    /// <summary>
    /// Closed-model HTTP runs on the lean engine's asynchronous sends, with more than one connection: the answers that
    /// arrived together are all read and timed before any connection sends its next request, as wrk does, instead of
    /// each waiting behind the sends of those handled before it (<c>Lean.BatchTurn</c>; bench/README.md,
    /// "What the target took and what the client added").
    /// </summary>
    public bool HttpReadsBeforeSends { get; set; } = true;

    /// <summary>
    /// What sends an HTTP run's requests (<c>HttpEngine</c>): by default the lean HTTP/1.1 engine for every
    /// request it speaks (plain http://), SocketsHttpHandler for the rest. The run's notes say which measured.
    /// </summary>
    public HttpEngine HttpEngine { get; set; } = HttpEngine.Auto;

    /// <summary>When storing samples has failed this long (a lock, a full or failing disk), the run's load stops.</summary>
    [Range(1, 3_600)] public int StorageStallSeconds { get; set; } = 20;

    /// <summary>After the load stopped, how long the writer keeps trying to store what it holds before counting it lost.</summary>
    [Range(1, 3_600)] public int StorageGiveUpSeconds { get; set; } = 60;
}

public enum ParallelLimit
{
    /// <summary>Runs of every runner sharing the database count: two runner processes never measure at once.</summary>
    Database,

    /// <summary>Only this runner's runs count: runners on separate machines measuring separate targets.</summary>
    Runner,
}

public enum RunnerProcess
{
    /// <summary>A child process of the dashboard: started, restarted and stopped with it.</summary>
    Child,

    /// <summary>Inside the dashboard's process, sharing its thread pool (tests, debugging).</summary>
    InProcess,

    /// <summary>No runner in or under this dashboard.</summary>
    None,
}

public enum RunnerMode { Runner, Agent }
