// Reads a .nettrace of the runner's child (bench/trace-child.sh) and prints, for windows of wall-clock time:
//   jit   TRACE LABEL=FROM_MS..TO_MS …   the methods the JIT compiled in each window (MethodJittingStarted →
//         MethodLoadVerbose on the same thread), with the tier and the time the JIT spent, grouped by assembly,
//         by namespace and by our nearest frame on the compiling thread's stack, and the methods themselves.
//   alloc TRACE FROM_MS TO_MS REQUESTS     GC AllocationTick events in the window (one per ~100 KB a heap
//         allocates, carrying the amount since the last one): bytes per request by type, by the nearest
//         BenchDashboard frame on the allocating stack, and the heaviest stacks.
// Times are Unix milliseconds (UTC), as the dashboard's API reports a run's start and end.
//   usage: dotnet run bench/trace-child.cs -c Release -- jit|alloc …
#:package Microsoft.Diagnostics.Tracing.TraceEvent
#:property PublishAot=false
using Microsoft.Diagnostics.Tracing;
using Microsoft.Diagnostics.Tracing.Etlx;
using Microsoft.Diagnostics.Tracing.Parsers;
using Microsoft.Diagnostics.Tracing.Parsers.Clr;

return args[0] switch
{
    "jit" => Jit.Print(args[1], args[2..]),
    "alloc" => Alloc.Print(args[1], long.Parse(args[2]), long.Parse(args[3]), double.Parse(args[4])),
    _ => throw new ArgumentException("jit or alloc"),
};

static class Window
{
    public static long UnixMs(TraceEvent e) => new DateTimeOffset(e.TimeStamp.ToUniversalTime()).ToUnixTimeMilliseconds();
}

record Compiled(string Window, long Module, string Namespace, string Method, string Tier, double Ms, string Caller);

static class Jit
{
    public static int Print(string trace, string[] windowArgs)
    {
        var windows = windowArgs.Select(w =>
        {
            var (label, range) = (w[..w.IndexOf('=')], w[(w.IndexOf('=') + 1)..]);
            var ends = range.Split("..");
            return (Label: label, From: long.Parse(ends[0]), To: long.Parse(ends[1]));
        }).ToArray();
        var modules = new Dictionary<long, string>();
        var started = new Dictionary<int, (double Ms, string Caller)>(); // thread → its current compilation
        var compiled = new List<Compiled>();
        using (var log = new TraceLog(TraceLog.CreateFromEventPipeDataFile(trace, Path.ChangeExtension(trace, ".etlx"))))
        {
            var source = log.Events.GetSource();
            void Module(ModuleLoadUnloadTraceData m) => modules[m.ModuleID] = Path.GetFileNameWithoutExtension(m.ModuleILPath);
            source.Clr.LoaderModuleLoad += Module;
            source.Clr.LoaderModuleDCStartV2 += Module;
            source.Clr.LoaderModuleDCStopV2 += Module;
            var rundown = new ClrRundownTraceEventParser(source);
            rundown.LoaderModuleDCStart += Module;
            rundown.LoaderModuleDCStop += Module;
            // A first (tier 0) compilation runs on the thread that calls the method: its stack names our code that
            // needed it. Re-compilations at a higher tier run on the tiering thread, with no caller of ours.
            source.Clr.MethodJittingStarted += e => started[e.ThreadID] = (e.TimeStampRelativeMSec, OurFrame(e.CallStack()));
            source.Clr.MethodLoadVerbose += e =>
            {
                var at = Window.UnixMs(e);
                var window = windows.FirstOrDefault(w => at >= w.From && at < w.To).Label;
                if (window is null) return;
                var (ms, caller) = started.Remove(e.ThreadID, out var from) ? (e.TimeStampRelativeMSec - from.Ms, from.Caller) : (double.NaN, "?");
                var type = e.MethodNamespace;
                var generic = type.IndexOf('[');
                var plain = generic < 0 ? type : type[..generic];
                var ns = plain.Contains('.') ? plain[..plain.LastIndexOf('.')] : "(none)";
                compiled.Add(new Compiled(window, e.ModuleID, ns, type + "::" + e.MethodName, e.OptimizationTier.ToString(), ms, caller));
            };
            source.Process();
        }
        // The rundown that names the modules loaded before the session comes at its end: names are looked up last.
        string Assembly(Compiled c) => modules.TryGetValue(c.Module, out var name) ? name : "(module " + c.Module + ")";
        foreach (var (label, _, _) in windows)
        {
            var inWindow = compiled.Where(c => c.Window == label).ToList();
            Console.WriteLine($"\n== {label}: {inWindow.Count} methods compiled, {Sum(inWindow):F1} ms in the JIT");
            Console.WriteLine("  by tier: " + string.Join(", ", inWindow.GroupBy(c => c.Tier).OrderByDescending(g => g.Count())
                .Select(g => $"{g.Key} {g.Count()} ({Sum(g):F1} ms)")));
            Table("  by assembly", inWindow.GroupBy(Assembly), 30);
            Table("  by namespace", inWindow.GroupBy(c => c.Namespace), 20);
            Table("  by our nearest frame on the compiling thread", inWindow.GroupBy(c => c.Caller), 20);
            Console.WriteLine("  methods, longest compilation first (tier, ms):");
            foreach (var c in inWindow.OrderByDescending(c => double.IsNaN(c.Ms) ? 0 : c.Ms).Take(40))
                Console.WriteLine($"    {c.Ms,7:F2}  {c.Tier,-28} {Short(c.Method)}");
        }
        return 0;
    }

    static string OurFrame(TraceCallStack? stack)
    {
        for (var s = stack; s is not null; s = s.Caller)
            if (s.CodeAddress.FullMethodName is { } name && name.StartsWith("BenchDashboard", StringComparison.Ordinal))
                return name.IndexOf('(') is > 0 and var a ? name[..a] : name;
        return "(none: the tiering thread, or the runtime's or a library's own thread)";
    }

    static double Sum(IEnumerable<Compiled> c) => c.Where(x => !double.IsNaN(x.Ms)).Sum(x => x.Ms);
    static string Short(string s) => s.Length > 150 ? s[..147] + "..." : s;

    static void Table(string title, IEnumerable<IGrouping<string, Compiled>> groups, int rows)
    {
        Console.WriteLine(title + " (methods, ms, tiers):");
        foreach (var g in groups.OrderByDescending(g => Sum(g)).ThenByDescending(g => g.Count()).Take(rows))
            Console.WriteLine($"    {g.Count(),5} {Sum(g),8:F1}  {g.Key}  [" + string.Join(" ", g.GroupBy(c => c.Tier).OrderByDescending(t => t.Count()).Select(t => $"{t.Key}:{t.Count()}")) + "]");
    }
}

static partial class Alloc
{
    public static int Print(string trace, long from, long to, double requests)
    {
        // TraceLog resolves the stacks' managed frames from the method events and the rundown in the trace.
        using var log = new TraceLog(TraceLog.CreateFromEventPipeDataFile(trace, Path.ChangeExtension(trace, ".etlx")));
        var byType = new Dictionary<string, double>();
        var bySite = new Dictionary<string, double>();
        var byFrame = new Dictionary<string, double>();
        var byStack = new Dictionary<string, (double Bytes, string Type)>();
        double total = 0; var ticks = 0;
        foreach (var e in log.Events)
        {
            if (e is not GCAllocationTickTraceData tick) continue;
            var at = Window.UnixMs(e);
            if (at < from || at >= to) continue;
            var bytes = (double)tick.AllocationAmount64;
            total += bytes; ticks++;
            Add(byType, tick.TypeName, bytes);
            var frames = Frames(e.CallStack()).ToList();
            // Our nearest frame, and the call it made towards the allocation (the library's entry point).
            var ours = frames.FindIndex(f => f.StartsWith("BenchDashboard", StringComparison.Ordinal));
            var site = ours < 0 ? "(no BenchDashboard frame)" : frames[ours] + (ours > 0 ? " → " + frames[ours - 1] : "");
            Add(bySite, site + "  ←  " + tick.TypeName, bytes);
            Add(byFrame, ours < 0 ? site : Lambda().Replace(frames[ours], " (a lambda)"), bytes);
            var key = tick.TypeName + "\n" + string.Join("\n", frames.Take(14).Select(f => "        " + Trim(f)));
            byStack[key] = (byStack.GetValueOrDefault(key).Bytes + bytes, tick.TypeName);
        }
        var seconds = (to - from) / 1000.0;
        Console.WriteLine($"{ticks} AllocationTick events over {seconds:F2} s, {total / 1e6:F1} MB, {requests:F0} requests: {total / requests:F0} bytes per request");
        Console.WriteLine("\nby type (bytes per request, share):");
        foreach (var (type, b) in byType.OrderByDescending(kv => kv.Value).Take(20))
            Console.WriteLine($"  {b / requests,8:F0}  {b / total,6:P1}  {type}");
        Console.WriteLine("\nby nearest BenchDashboard frame (bytes per request, share):");
        foreach (var (frame, b) in byFrame.OrderByDescending(kv => kv.Value).Take(15))
            Console.WriteLine($"  {b / requests,8:F0}  {b / total,6:P1}  {Trim(frame)}");
        Console.WriteLine("\nby nearest BenchDashboard frame, the call it made, and type (bytes per request, share):");
        foreach (var (site, b) in bySite.OrderByDescending(kv => kv.Value).Take(25))
            Console.WriteLine($"  {b / requests,8:F0}  {b / total,6:P1}  {Trim(site)}");
        Console.WriteLine("\nheaviest stacks (leaf first):");
        foreach (var (stack, (b, _)) in byStack.OrderByDescending(kv => kv.Value.Bytes).Take(12))
            Console.WriteLine($"  {b / requests,8:F0} B/request  {stack}\n");
        return 0;
    }

    static IEnumerable<string> Frames(TraceCallStack? stack)
    {
        for (var s = stack; s is not null; s = s.Caller)
        {
            var name = s.CodeAddress.FullMethodName;
            if (string.IsNullOrEmpty(name)) { yield return "?!" + s.CodeAddress.ModuleName; continue; }
            var arguments = name.IndexOf('(');
            yield return arguments > 0 ? name[..arguments] : name; // the argument lists only make the lines too long
        }
    }

    // The compiler's names for lambdas (Type+<>c.<Method>b__6_9): one row per declaring type, not per lambda.
    [System.Text.RegularExpressions.GeneratedRegex(@"\+<>c(__DisplayClass[\d_]+)?\.<.*>b__[\d_]+$")]
    private static partial System.Text.RegularExpressions.Regex Lambda();

    static void Add(Dictionary<string, double> d, string key, double v) => d[key] = d.GetValueOrDefault(key) + v;
    static string Trim(string s) => s.Length > 170 ? s[..167] + "..." : s;
}
