// Run page. A finished run: its charts, from the JSON the server embeds (durations in ms). A run under way: its
// runner's live figures, polled once a second from /api/runs/{id}/live (a poll, not server-sent events: one small
// answer a second, shared by every viewer and cached on the server, that passes any proxy), and when it ends
// the finished page is fetched and put in place without reloading.
(function () {
    const u = window.units;
    // Ten distinguishable colours: a Table run has eight variants; red is kept for errors.
    const palette = ['#2f5fd0', '#1f7a4d', '#b7791f', '#7b3fb8', '#0f7c8a', '#6d4c41', '#e07b00', '#9aa3b2', '#c2185b', '#37474f'];
    const red = '#c0342b';
    let charts = [];

    const durationAxis = (title, type = 'linear') => ({
        type,
        title: { display: true, text: title },
        ticks: { callback: (v) => u.tick(Number(v)) },
        beginAtZero: type === 'linear',
    });
    const baseOptions = (scales, tooltip) => ({
        animation: false,
        maintainAspectRatio: false,
        parsing: false,
        normalized: true,
        scales,
        plugins: {
            legend: { labels: { filter: (item) => item.text !== '' } },
            tooltip: tooltip ? { callbacks: { label: tooltip } } : {},
        },
    });
    // A chart with nothing to show (no answered request has a latency) gives way to a line saying so.
    const nothing = (id, why) => {
        const box = document.getElementById(id)?.closest('.chart-box');
        if (!box) return;
        box.querySelector('.chart-area').outerHTML = `<p class="muted">${why}</p>`;
        box.classList.add('empty');
    };
    const chart = (id, config) => {
        const canvas = document.getElementById(id);
        if (!canvas || !window.Chart) return null;
        const made = new Chart(canvas, config);
        charts.push(made);
        return made;
    };

    function overTime(data) {
        const rows = (data.windows && data.windows.rows) || [];
        const seconds = data.windows ? data.windows.seconds : 1;
        const last = rows.length ? rows[rows.length - 1].t + seconds : 1;
        // Each window holds its rate from its start to its end: the step ends at the last window's end.
        const steps = (value) => rows.length ? [...rows.map(r => ({ x: r.t, y: value(r) })), { x: last, y: value(rows[rows.length - 1]) }] : [];
        const middles = (key) => rows.filter(r => r[key] !== null).map(r => ({ x: r.t + seconds / 2, y: r[key] }));
        chart('rate-chart', {
            type: 'line',
            data: {
                datasets: [
                    { label: 'succeeded per second', data: steps(r => r.perSecond - r.errorsPerSecond), borderColor: palette[0], backgroundColor: palette[0], pointRadius: 0, stepped: 'before' },
                    { label: 'errors per second', data: steps(r => r.errorsPerSecond), borderColor: red, backgroundColor: red, pointRadius: 0, stepped: 'before', borderDash: [5, 3] },
                ],
            },
            options: baseOptions({
                x: { type: 'linear', min: 0, max: last, title: { display: true, text: `seconds into the run (windows of ${seconds} s)` } },
                y: { title: { display: true, text: 'operations per second' }, beginAtZero: true },
            }, (ctx) => `${ctx.dataset.label}: ${u.number(ctx.raw.y, 1)} (from ${u.number(ctx.raw.x, 0)} s)`),
        });
        if (!rows.some(r => r.p50 !== null)) return nothing('latency-time-chart', 'No request got an answer: there is no latency to show.');
        chart('latency-time-chart', {
            type: 'line',
            data: {
                datasets: [['p50', 'p50', palette[0]], ['p95', 'p95', palette[2]], ['p99', 'p99', palette[3]]].map(([label, key, colour]) => ({
                    label, data: middles(key), borderColor: colour, backgroundColor: colour, pointRadius: 2,
                })),
            },
            options: baseOptions({
                x: { type: 'linear', min: 0, max: last, title: { display: true, text: 'seconds into the run' } },
                y: durationAxis('latency'),
            }, (ctx) => `${ctx.dataset.label}: ${u.duration(ctx.raw.y)} (from ${u.number(ctx.raw.x, 0)} s)`),
        });
    }

    function distribution(data) {
        const shapes = data.shapes || [];
        if (shapes.length === 0) {
            ['percentile-chart', 'histogram-chart', 'cdf-chart'].forEach(id => nothing(id, 'No request got an answer: there is no latency to show.'));
            return;
        }
        const slowest = Math.max(...shapes.map(s => s.cdf.length ? s.cdf[s.cdf.length - 1].x : 0));
        const fastest = Math.min(...shapes.map(s => s.cdf.length ? s.cdf[0].x : slowest));
        // The maximum (p = 1) sits a little beyond the last measured rank on the −log10(1 − p) axis.
        const reach = (points) => points.length > 1 ? -Math.log10(1 - points[points.length - 2].p) : 0;
        const axisEnd = Math.max(1, ...shapes.map(s => reach(s.percentiles) + 0.3));
        chart('percentile-chart', {
            type: 'line',
            data: {
                datasets: shapes.map((s, i) => ({
                    label: s.name,
                    data: s.percentiles.map(p => ({ x: p.p >= 1 ? reach(s.percentiles) + 0.3 : -Math.log10(1 - p.p), y: p.ms, p: p.p })),
                    borderColor: palette[i % palette.length], backgroundColor: palette[i % palette.length], pointRadius: 0, borderWidth: 2,
                })),
            },
            options: baseOptions({
                x: { type: 'linear', min: 0, max: axisEnd, title: { display: true, text: 'percentile (logarithmic: each step is ten times closer to 100 %)' },
                    ticks: { stepSize: 1, callback: (v) => Number.isInteger(v) ? u.nines(v) : '' } },
                y: durationAxis('latency'),
            }, (ctx) => `${ctx.dataset.label}: ${ctx.raw.p >= 1 ? 'max' : 'p' + u.number(ctx.raw.p * 100, ctx.raw.p > 0.999 ? 3 : 1)} ${u.duration(ctx.raw.y)}`),
        });

        const cdfChart = chart('cdf-chart', {
            type: 'line',
            data: {
                datasets: shapes.map((s, i) => ({
                    label: s.name, data: s.cdf.map(p => ({ x: p.x, y: p.y })),
                    borderColor: palette[i % palette.length], backgroundColor: palette[i % palette.length], pointRadius: 0, borderWidth: 2, stepped: 'before',
                })),
            },
            options: baseOptions({
                x: { ...durationAxis('latency'), max: slowest },
                y: { min: 0, max: 1, title: { display: true, text: 'share of requests at or below' }, ticks: { callback: (v) => u.percent(v, 0) } },
            }, (ctx) => `${ctx.dataset.label}: ${u.percent(ctx.raw.y, 2)} ≤ ${u.duration(ctx.raw.x)}`),
        });
        const toggle = document.getElementById('cdf-log');
        if (toggle && cdfChart) toggle.addEventListener('change', () => {
            cdfChart.options.scales.x = toggle.checked
                ? { ...durationAxis('latency (logarithmic)', 'logarithmic'), min: fastest, max: slowest }
                : { ...durationAxis('latency'), max: slowest };
            cdfChart.update();
        });

        const h = data.histogram || { edgesMs: [], sets: [] };
        const labels = h.edgesMs.slice(0, -1).map((from, i) => `${u.duration(from)} – ${u.duration(h.edgesMs[i + 1])}`);
        const single = h.sets.length <= 1;
        chart('histogram-chart', {
            type: single ? 'bar' : 'line',
            data: {
                labels,
                datasets: h.sets.map((set, i) => ({
                    label: set.name, data: set.counts, borderColor: palette[i % palette.length], backgroundColor: palette[i % palette.length],
                    pointRadius: 0, stepped: 'middle', barPercentage: 1, categoryPercentage: 1,
                })),
            },
            options: {
                animation: false, maintainAspectRatio: false,
                scales: {
                    x: { title: { display: true, text: 'latency (each bin a constant factor wider than the last)' }, ticks: { maxRotation: 0, autoSkipPadding: 12, callback: (v, i) => u.tick(h.edgesMs[i]) } },
                    y: { title: { display: true, text: 'requests' }, beginAtZero: true },
                },
                plugins: { legend: { display: !single }, tooltip: { callbacks: { title: (items) => labels[items[0].dataIndex] } } },
            },
        });
    }

    function perSample(data, id = 'series-chart') {
        const datasets = data.series.length > 0
            ? data.series.map((s, i) => ({ label: s.name, data: s.points, pointRadius: 1.5, borderColor: palette[i % palette.length], backgroundColor: palette[i % palette.length] }))
            : [
                { label: 'measured', data: data.measured, pointRadius: 1.5, borderColor: palette[0], backgroundColor: palette[0] },
                { label: 'warm-up (excluded)', data: data.warmup, pointRadius: 1.5, borderColor: '#9aa3b2', backgroundColor: '#9aa3b2' },
            ];
        datasets.push({ label: 'errors', data: data.errors, pointStyle: 'crossRot', pointRadius: 5, borderColor: red, backgroundColor: red });
        // Warm-up boundary and degradation episodes, drawn at the top of the plotted range.
        const all = datasets.flatMap(d => d.data.map(p => p.y));
        const top = all.length ? Math.max(...all) * 1.05 : 1;
        if (data.steadyFromIndex !== null && data.steadyFromIndex !== undefined)
            datasets.push({ label: 'steady from here', data: [{ x: data.steadyFromIndex, y: 0 }, { x: data.steadyFromIndex, y: top }], showLine: true, borderDash: [6, 4], borderColor: '#1d2330', pointRadius: 0 });
        (data.episodes || []).forEach((e, i) => datasets.push({ label: i === 0 ? 'degradation episodes' : '', data: [{ x: e.from, y: top }, { x: e.to, y: top }], showLine: true, borderWidth: 6, borderColor: '#e8890c', pointRadius: 0 }));
        chart(id, {
            type: 'scatter',
            data: { datasets },
            options: baseOptions({
                x: { type: 'linear', min: 0, max: Math.max(1, data.lastIndex || 0), title: { display: true, text: 'sample index (request order)' } },
                y: durationAxis('latency'),
            }, (ctx) => {
                const p = ctx.raw;
                const extra = p.kind ? ` ${p.kind}${p.status ? ' ' + p.status : ''}` : '';
                return `#${p.x}: ${u.duration(p.y)}${extra}`;
            }),
        });
    }

    function load(data) {
        // An open-model run: operations due per second (target) against those that started (achieved).
        if (!data.load) return;
        chart('load-chart', {
            type: 'line',
            data: {
                datasets: [
                    { label: 'target (due)', data: data.load.map(p => ({ x: p.second, y: p.due })), borderColor: '#9aa3b2', backgroundColor: '#9aa3b2', borderDash: [6, 4], pointRadius: 0, stepped: 'middle' },
                    { label: 'achieved (started)', data: data.load.map(p => ({ x: p.second, y: p.started })), borderColor: palette[0], backgroundColor: palette[0], pointRadius: 2, stepped: 'middle' },
                ],
            },
            options: baseOptions({
                x: { type: 'linear', min: 0, title: { display: true, text: 'second of the schedule' } },
                y: { title: { display: true, text: 'operations per second' }, beginAtZero: true },
            }),
        });
    }

    function live(section) {
        const id = section.dataset.runId;
        const plannedOperations = Number(section.dataset.plannedOperations) || null;
        const plannedSeconds = Number(section.dataset.plannedSeconds) || null;
        const text = (elementId, value) => { const e = document.getElementById(elementId); if (e) e.textContent = value; };
        const seconds = new Map(); // every second seen since this page opened
        const rate = chart('live-rate-chart', {
            type: 'line',
            data: { datasets: [
                { label: 'succeeded', data: [], borderColor: palette[0], backgroundColor: palette[0], pointRadius: 2 },
                { label: 'errors', data: [], borderColor: red, backgroundColor: red, pointRadius: 2, borderDash: [5, 3] },
            ] },
            options: baseOptions({
                x: { type: 'linear', min: 0, title: { display: true, text: 'seconds into the run (by completion)' } },
                y: { title: { display: true, text: 'operations per second' }, beginAtZero: true },
            }),
        });
        const latency = chart('live-latency-chart', {
            type: 'line',
            data: { datasets: [['p50', palette[0]], ['p95', palette[2]], ['p99', palette[3]]].map(([label, colour]) => ({ label, data: [], borderColor: colour, backgroundColor: colour, pointRadius: 2 })) },
            options: baseOptions({ x: { type: 'linear', min: 0, title: { display: true, text: 'seconds into the run' } }, y: durationAxis('latency') },
                (ctx) => `${ctx.dataset.label}: ${u.duration(ctx.raw.y)}`),
        });
        const samples = chart('live-series-chart', {
            type: 'scatter',
            data: { datasets: [
                { label: 'answered', data: [], pointRadius: 1.5, borderColor: palette[0], backgroundColor: palette[0] },
                { label: 'errors', data: [], pointStyle: 'crossRot', pointRadius: 5, borderColor: red, backgroundColor: red },
            ] },
            options: baseOptions({ x: { type: 'linear', min: 0, title: { display: true, text: 'sample index (request order)' } }, y: durationAxis('latency') },
                (ctx) => `#${ctx.raw.x}: ${u.duration(ctx.raw.y)}`),
        });

        async function poll() {
            let run;
            try {
                const response = await fetch(`/api/runs/${id}/live`, { headers: { Accept: 'application/json' } });
                if (!response.ok) return setTimeout(poll, 2000);
                run = await response.json();
            } catch {
                return setTimeout(poll, 2000);
            }
            text('progress', u.number(run.completedRequests));
            if (run.status !== 'queued' && run.status !== 'running') return finish();
            for (const a of run.agents ?? []) agentRow(a);
            const l = run.live;
            if (l) {
                for (const s of l.seconds) seconds.set(s.second, s);
                const rows = [...seconds.values()].sort((a, b) => a.second - b.second);
                const lastSecond = rows.length ? rows[rows.length - 1] : null;
                text('live-measured', u.number(l.measured));
                text('live-warmup', l.warmup ? `+ ${u.number(l.warmup)} warm-up` : '');
                text('live-rate', lastSecond ? u.number(lastSecond.count) : '–');
                text('live-rate-errors', lastSecond ? `${u.number(lastSecond.errors)} errors in it` : '');
                text('live-p50', u.duration(l.p50Ms));
                text('live-p99', u.duration(l.p99Ms));
                text('live-p95', `p95 ${u.duration(l.p95Ms)} · max ${u.duration(l.maxMs)}`);
                text('live-errors', l.measured ? u.percent(l.errors / l.measured) : '–');
                text('live-errors-kinds', Object.entries(l.errorsByKind).map(([k, n]) => `${k} ${u.number(n)}`).join(', '));
                const elapsed = l.elapsedSeconds;
                const done = plannedOperations ? l.measured / plannedOperations : plannedSeconds ? elapsed / plannedSeconds : null;
                const bar = document.getElementById('live-progress');
                if (bar && done !== null) bar.value = Math.min(1, done);
                text('live-elapsed', `${u.number(elapsed, 1)} s` + (plannedSeconds ? ` of ${u.number(plannedSeconds, 0)} s` : '') +
                    (plannedOperations ? ` · ${u.number(l.measured)} of ${u.number(plannedOperations)} ${done !== null ? `(${u.percent(Math.min(1, done), 0)})` : ''}` : ''));
                if (rate) {
                    rate.data.datasets[0].data = rows.map(r => ({ x: r.second, y: r.count - r.errors }));
                    rate.data.datasets[1].data = rows.map(r => ({ x: r.second, y: r.errors }));
                    rate.update();
                }
                if (latency) {
                    ['p50Ms', 'p95Ms', 'p99Ms'].forEach((key, i) => { latency.data.datasets[i].data = rows.filter(r => r[key] !== null).map(r => ({ x: r.second, y: r[key] })); });
                    latency.update();
                }
                if (samples) {
                    samples.data.datasets[0].data = l.points.filter(p => !p[2]).map(p => ({ x: p[0], y: p[1] }));
                    samples.data.datasets[1].data = l.points.filter(p => p[2]).map(p => ({ x: p[0], y: p[1] }));
                    samples.update();
                }
            }
            setTimeout(poll, 1000);
        }

        // A run over agents: who holds each shard, its start skew, the samples received and its status, as they come.
        function agentRow(a) {
            const row = document.querySelector(`#agent-rows tr[data-shard="${a.shard}"]`);
            if (!row) return;
            const set = (field, value) => { const cell = row.querySelector(`[data-field="${field}"]`); if (cell) cell.textContent = value; };
            set('agent', a.agent ?? '–');
            set('machine', a.machine ?? '–');
            set('connections', a.connections ? u.number(a.connections) : '–');
            set('skew', a.startSkewMs === null ? '–' : u.number(a.startSkewMs, 2) + (a.clockErrorMs === null ? '' : ` ± ${u.number(a.clockErrorMs, 2)}`));
            set('samples', u.number(Math.max(a.samplesMeasured, a.samplesReceived)));
            set('status', a.status + (a.reason ? `: ${a.reason}` : ''));
        }

        // The run has ended: its finished page replaces this one's content in place.
        async function finish() {
            try {
                const response = await fetch(`/runs/${id}`, { headers: { Accept: 'text/html' } });
                const page = new DOMParser().parseFromString(await response.text(), 'text/html');
                const main = page.querySelector('main');
                if (!response.ok || !main) throw new Error(`status ${response.status}`);
                document.querySelector('main').innerHTML = main.innerHTML;
                document.title = page.title;
                init();
            } catch {
                location.reload();
            }
        }
        poll();
    }

    function init() {
        charts.forEach(c => c.destroy());
        charts = [];
        const element = document.getElementById('chart-data');
        const data = element ? JSON.parse(element.textContent) : null;
        if (data && window.Chart) {
            overTime(data);
            distribution(data);
            perSample(data);
            load(data);
        }
        const section = document.getElementById('live');
        if (section) live(section);
    }

    window.runPage = { init };
    init();
})();
