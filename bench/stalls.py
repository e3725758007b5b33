"""Reads a run's samples (CSV) and the kernel's trace of the machine during it (bench/stalls.sh); prints, for each stall
among the slowest 1 % of samples, where the time went: the send to nginx's read, nginx's read to its write of the
answer, that write to the sample's end; and who held each CPU from the answers' usual time to the stall's end.
usage: python3 stalls.py SAMPLES_CSV EVENTS_TXT NGINX_WORKER_PID CHILD_PID DASHBOARD_PID TARGET_MS"""
import bisect
import collections
import csv
import re
import statistics
import sys

samples_csv, events_txt, worker, child, dashboard, target_ms = sys.argv[1:]
worker, child, dashboard, target = int(worker), int(child), int(dashboard), float(target_ms) / 1e3

# tracefs with record-tgid: "comm-tid (tgid) [cpu] flags seconds: event: fields"
header = re.compile(r"^\s*(.*)-(\d+)\s+\(\s*(\d+|-+)\)\s+\[(\d+)\]\s+\S+\s+([\d.]+):\s+(\w+):?\s*(.*)$")
switch = re.compile(r"prev_comm=(.*?) prev_pid=(\d+) .*?prev_state=(\S+) ==> next_comm=(.*?) next_pid=(\d+)")
process_of, comm_of = {0: 0}, {0: "idle"}
on_cpu = {}                                   # cpu -> (tid, since)
runs = collections.defaultdict(list)          # cpu -> [(start, end, tid)]
sends = collections.defaultdict(list)         # child tid -> request send times
nginx_reads, nginx_writes = [], collections.defaultdict(list)   # [(time, fd)], fd -> [write times]
entered_fd, woken, woken_at = {}, {}, {}      # nginx tid -> fd being read; tid -> last wake-up; tid -> wake-up not yet run
queued = collections.defaultdict(list)        # tid -> [(woken, switched in)]: time ready but waiting for a CPU
with open(events_txt) as events:
    for line in events:
        m = header.match(line)
        if not m:
            continue
        comm, tid, pid, cpu, t, event, fields = m.group(1), int(m.group(2)), int(m.group(3).strip("-") or -1), int(m.group(4)), float(m.group(5)), m.group(6), m.group(7)
        process_of.setdefault(tid, pid)
        comm_of.setdefault(tid, comm)
        if event == "sched_switch":
            s = switch.search(fields)
            prev, nxt = int(s.group(2)), int(s.group(5))
            comm_of[prev], comm_of[nxt] = s.group(1), s.group(4)
            if cpu in on_cpu:
                held_by, since = on_cpu[cpu]
                if held_by == prev:
                    runs[cpu].append((since, t, prev))
                elif held_by == 0 and since <= woken.get(prev, -1) <= t:
                    # The kernel does not trace a switch out of an idle CPU here (a tracepoint inside idle, where it
                    # is not recorded): the CPU idled until the thread it next ran was woken.
                    runs[cpu] += [(since, woken[prev], 0), (woken[prev], t, prev)]
                else:
                    runs[cpu].append((since, t, -1))
            on_cpu[cpu] = (nxt, t)
            if nxt in woken_at:
                queued[nxt].append((woken_at.pop(nxt), t))
        elif event == "sched_wakeup":
            wakee = int(re.search(r" pid=(\d+)", fields).group(1))
            woken[wakee] = woken_at[wakee] = t
        elif event == "sys_sendto" and pid == child:
            if int(re.search(r"len: (\w+)", fields).group(1), 0) > 16:   # a request, not the turn's one-byte wake-up
                sends[tid].append(t)
        elif pid == worker and event == "sys_recvfrom" and fields.startswith("("):
            entered_fd[tid] = int(re.search(r"fd: (\w+)", fields).group(1), 0)
        elif pid == worker and event == "sys_recvfrom":
            returned = int(fields.split()[-1], 0)
            if 0 < returned < 1 << 63:
                nginx_reads.append((t, entered_fd.get(tid)))
        elif pid == worker and event == "sys_writev":
            nginx_writes[int(re.search(r"fd: (\w+)", fields).group(1), 0)].append(t)

nginx_reads.sort()
event_thread = max(sends, key=lambda tid: len(sends[tid]))
send_times = sorted(t for ts in sends.values() for t in ts)
rows = [(int(r["offset_ns"]) / 1e9, int(r["latency_ns"]) / 1e9, r["warmup"].lower() in ("true", "1")) for r in csv.DictReader(open(samples_csv))]
rows.sort()
offsets = [o for o, _, _ in rows]


def nearest(t):
    i = bisect.bisect_left(send_times, t)
    return min(abs(send_times[j] - t) for j in (i - 1, i) if 0 <= j < len(send_times))


# A sample's offset is not recorded in absolute time. With one send per sample the i-th send belongs to the i-th
# sample (the first of each connection also connected before its send, so the median, not the first, is the shift);
# otherwise the shift that puts the samples nearest to sends, trying every send near the middle sample's place.
if len(send_times) == len(offsets):
    shift = statistics.median(t - o for t, o in zip(send_times, offsets))
else:
    middle = len(offsets) // 2
    guess = middle * len(send_times) // len(offsets)
    probe = offsets[:: max(1, len(offsets) // 300)]
    shift = min((send_times[k] - offsets[middle] for k in range(max(0, guess - 300), min(len(send_times), guess + 300))),
                key=lambda s: statistics.median(nearest(o + s) for o in probe))
residuals = sorted(nearest(o + shift) for o in offsets)
print("  %d samples, %d request sends by the child (event thread %d: %d); alignment residual p50 %.1f µs, p99 %.1f µs"
      % (len(rows), len(send_times), event_thread, len(sends[event_thread]), residuals[len(residuals) // 2] * 1e6, residuals[int(len(residuals) * .99)] * 1e6))

measured = sorted((lat, o) for o, lat, warm in rows if not warm)
p50 = measured[len(measured) // 2][0]
worst = sorted(measured[int(len(measured) * .99):], key=lambda r: r[1])
stalls = []
for latency, offset in worst:
    if stalls and offset - stalls[-1][-1][1] < 1e-3:
        stalls[-1].append((latency, offset))
    else:
        stalls.append([(latency, offset)])


def label(tid):
    pid = process_of.get(tid)
    name = comm_of.get(tid, "?")
    if tid == -1:
        return "(switch not traced)"
    if tid == 0:
        return "idle"
    if tid == event_thread:
        return "child: event thread"
    if pid == child:
        return "child: " + name
    if pid == dashboard:
        return "dashboard: " + name
    if pid == worker:
        return "nginx"
    return name


def cause(label):
    """What a stall's main holder of a CPU was, in the words of the causes bench/README.md names."""
    for words, name in (("child: .NET Tiered", "the child's JIT"), ("child: .NET Server GC", "the child's GC"), ("child: .NET BGC", "the child's GC"),
                        ("child: Run storing", "the child's storing thread"), ("child: Run heartbeat", "the child's heartbeat thread"),
                        ("child: ", "the child's pool and timer (storing and heartbeat before they had threads of their own)"), ("dashboard: .NET Tiered", "the dashboard's JIT"),
                        ("dashboard: ", "the dashboard's other threads"), ("curl", "the bench script"), ("grep", "the bench script"),
                        ("bash", "the bench script"), ("sleep", "the bench script")):
        if label.startswith(words):
            return name
    return "the kernel or another process (%s)" % label


def held(start, end):
    """Seconds each label held a CPU within [start, end], per CPU."""
    per_cpu = {}
    for cpu, intervals in runs.items():
        totals = collections.Counter()
        for s, e, tid in intervals:
            if e > start and s < end:
                totals[label(tid)] += min(e, end) - max(s, start)
        per_cpu[cpu] = totals
    return per_cpu


read_times = [t for t, _ in nginx_reads]
overall, causes = collections.Counter(), collections.Counter()
window_total = 0.0
print("  p50 %.3f ms; the slowest %d samples in %d stalls:" % (p50 * 1e3, len(worst), len(stalls)))
for group in stalls:
    parts = []
    for latency, offset in group:
        sent = offset + shift
        i = bisect.bisect_left(read_times, sent - 20e-6)
        if i >= len(nginx_reads) or nginx_reads[i][0] > sent + 2e-3:
            continue
        read, fd = nginx_reads[i]
        writes = nginx_writes.get(fd, [])
        j = bisect.bisect_right(writes, read)
        if j < len(writes):
            parts.append((read - sent, writes[j] - read, sent + latency - writes[j]))
    start = min(o for _, o in group) + shift + p50
    end = max(o + lat for lat, o in group) + shift
    window_total += end - start
    cpus = held(start, end)
    for totals in cpus.values():
        overall.update(totals)
    where = "; ".join("cpu%d %s" % (cpu, ", ".join("%s %.0f" % (name, sec * 1e6) for name, sec in totals.most_common(4)))
                      for cpu, totals in sorted(cpus.items()))
    split = ("send→read %.0f, nginx %.3f ms, write→end %.0f µs" % tuple(statistics.mean(p[k] for p in parts) * f for k, f in ((0, 1e6), (1, 1e3), (2, 1e6)))
             if parts else "nginx's read not found")
    waited = {name: sum(max(0, min(b, end) - max(a, start)) for a, b in queued[tid]) for name, tid in (("nginx", worker), ("event thread", event_thread))}
    others = collections.Counter()
    for totals in cpus.values():
        others.update({name: sec for name, sec in totals.items() if name not in ("idle", "nginx", "child: event thread", "(switch not traced)")})
    if max(waited.values()) >= 0.2 * (end - start) and others:
        causes["%s waited for a CPU; most held by %s" % (max(waited, key=waited.get), cause(others.most_common(1)[0][0]))] += 1
    elif others and others.most_common(1)[0][1] >= 0.3 * (end - start):
        causes["a CPU held by %s, no wait seen" % cause(others.most_common(1)[0][0])] += 1
    elif parts:
        late_nginx = statistics.mean(p[1] for p in parts) - (p50 - 200e-6)   # against a usual answer, not the whole p50
        causes["no CPU held: nginx answered late" if late_nginx > statistics.mean(p[0] + p[2] for p in parts) else "no CPU held: the client woke late"] += 1
    else:
        causes["not found"] += 1
    print("    at %8.1f ms: %d samples, up to %.3f ms; %s; ready but waiting for a CPU: nginx %.0f, event thread %.0f µs\n      held (µs, from the usual answer time %.0f µs): %s"
          % (group[0][1] * 1e3, len(group), max(l for l, _ in group) * 1e3, split, waited["nginx"] * 1e6, waited["event thread"] * 1e6, (end - start) * 1e6, where))

whole = collections.Counter()
run_start, run_end = offsets[0] + shift, offsets[-1] + shift
for totals in held(run_start, run_end).values():
    whole.update(totals)
span = (run_end - run_start) * len(runs)
print("  share of CPU time in the stalls' windows against the whole run:")
for name, sec in overall.most_common(10):
    print("    %-32s %5.1f %%  (whole run %5.1f %%)" % (name, 100 * sec / (window_total * len(runs)), 100 * whole[name] / span))
print("  stalls by who waited for a CPU (at least 20 % of the stall) and what held it; else what held a CPU for 30 %; else which side was late:")
for name, count in causes.most_common():
    print("    %2d  %s" % (count, name))
