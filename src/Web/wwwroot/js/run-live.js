// The live view of a run under way (Runs/_Live.cshtml): polls /api/runs/{id}/live once a second, fills the
// figures, the per-variant rows and the live charts, and swaps in the finished page when the run ends. Loaded
// before run-details.js, which calls it with the charts' shared helpers.
window.runLive = function (section, { chart, baseOptions, durationAxis, swatches, init }) {
    const u = window.units;
    const p = window.palette;
    const id = section.dataset.runId;
    const plannedOperations = Number(section.dataset.plannedOperations) || null;
    const plannedSeconds = Number(section.dataset.plannedSeconds) || null;
    const target = section.dataset.target ? JSON.parse(section.dataset.target) : null; // an open-model run's schedule
    const text = (elementId, value) => { const e = document.getElementById(elementId); if (e) e.textContent = value; };
    const seconds = new Map(); // every second seen since this page opened
    let elapsedAxis = 1;
    // A second's figures hold from its start to its end: drawn at its middle, on an axis that runs to the
    // elapsed time, the chart keeps up with the clock instead of trailing it by a second or two.
    const rate = chart('live-rate-chart', {
        type: 'line',
        data: { datasets: [
            { label: 'succeeded', data: [], borderColor: p.throughput, backgroundColor: p.throughput, pointRadius: 2 },
            { label: 'errors', data: [], borderColor: p.error, backgroundColor: p.error, pointRadius: 2, pointStyle: 'crossRot', borderDash: [5, 3] },
            ...(target ? [{ label: 'target rate', data: target.map(([x, y]) => ({ x, y })), borderColor: p.target, backgroundColor: p.target, borderDash: [8, 4], pointRadius: 0, borderWidth: 2 }] : []),
        ] },
        options: baseOptions({
            x: { type: 'linear', min: 0, title: { display: true, text: 'seconds into the run (by completion)' } },
            y: { title: { display: true, text: 'operations per second' }, beginAtZero: true },
        }, (ctx) => `${ctx.dataset.label}: ${u.number(ctx.raw.y, 1)}/s at ${u.number(ctx.raw.x, 1)} s`),
    });
    const latency = chart('live-latency-chart', {
        type: 'line',
        data: { datasets: ['p50', 'p95', 'p99'].map(label => ({ label, data: [], ...p.percentileDataset(label) })) },
        options: baseOptions({ x: { type: 'linear', min: 0, title: { display: true, text: 'seconds into the run' } }, y: durationAxis('latency') },
            (ctx) => `${ctx.dataset.label}: ${u.duration(ctx.raw.y)}`),
    });
    const samples = chart('live-series-chart', {
        type: 'scatter',
        data: { datasets: [
            { label: 'answered', data: [], pointRadius: 1.5, borderColor: p.series(0).colour, backgroundColor: p.series(0).colour },
            { label: 'errors', data: [], pointStyle: 'crossRot', pointRadius: 5, borderColor: p.error, backgroundColor: p.error },
        ] },
        options: baseOptions({ x: { type: 'linear', min: 0, title: { display: true, text: 'sample index (request order)' } }, y: durationAxis('latency') },
            (ctx) => `#${ctx.raw.x}: ${u.duration(ctx.raw.y)}`),
    });

    // A run of variants: a row per variant, its own figures so far (never only the blend).
    function seriesRows(list) {
        const table = document.getElementById('live-series');
        if (!table || !list || list.length === 0) return;
        table.hidden = false;
        const body = table.querySelector('tbody');
        list.forEach((v, i) => {
            let row = [...body.rows].find(r => r.dataset.series === v.name);
            if (!row) {
                row = body.insertRow();
                row.dataset.series = v.name;
                row.innerHTML = '<th><span class="swatch"></span><span data-field="name"></span></th><td class="num" data-field="measured"></td><td class="num" data-field="errors"></td><td class="num" data-field="p50"></td><td class="num" data-field="p95"></td><td class="num" data-field="p99"></td>';
                const swatch = row.querySelector('.swatch');
                swatch.dataset.seriesIndex = String(i);
                swatches(row);
                row.querySelector('[data-field="name"]').textContent = v.name;
            }
            const set = (field, value) => { row.querySelector(`[data-field="${field}"]`).textContent = value; };
            set('measured', u.number(v.measured));
            set('errors', v.measured ? u.percent(v.errors / v.measured) : '–');
            set('p50', u.duration(v.p50Ms));
            set('p95', u.duration(v.p95Ms));
            set('p99', u.duration(v.p99Ms));
        });
    }

    async function poll() {
        let run;
        try {
            const response = await fetch(`/api/runs/${id}/live`, { headers: { Accept: 'application/json' } });
            if (!response.ok) return setTimeout(poll, 2000);
            run = await response.json();
        } catch {
            return setTimeout(poll, 2000);
        }
        // The snapshot's own count when there is one: a journey's whole iterations are samples, not requests.
        text('progress', u.number(run.live ? run.live.measured + run.live.warmup : run.completedRequests));
        if (run.status !== 'queued' && run.status !== 'running') return finish();
        statusBadge(run.status, run.completedRequests);
        for (const a of run.agents ?? []) agentRow(a);
        const l = run.live;
        if (l) {
            for (const s of l.seconds) seconds.set(s.second, s);
            const rows = [...seconds.values()].sort((a, b) => a.second - b.second);
            const lastSecond = rows.length ? rows[rows.length - 1] : null;
            text('live-measured', u.number(l.measured));
            text('live-warmup', [l.warmup ? `+ ${u.number(l.warmup)} warm-up` : '', l.iterations != null ? `${u.number(l.iterations)} iterations` : '']
                .filter(Boolean).join(' · '));
            text('live-rate', lastSecond ? u.number(lastSecond.count) : '–');
            text('live-rate-errors', lastSecond ? `${u.number(lastSecond.errors)} errors in it` : '');
            text('live-p50', u.duration(l.p50Ms));
            text('live-p95', u.duration(l.p95Ms));
            text('live-p99', u.duration(l.p99Ms));
            text('live-max', `slowest ${u.duration(l.maxMs)}`);
            text('live-late', u.number(l.late));
            text('live-late-share', l.measured ? `${u.percent(l.late / l.measured)} started over 1 ms after due` : '');
            seriesRows(l.series);
            text('live-errors', l.measured ? u.percent(l.errors / l.measured) : '–');
            text('live-errors-kinds', Object.entries(l.errorsByKind).map(([k, n]) => `${k} ${u.number(n)}`).join(', '));
            const elapsed = l.elapsedSeconds;
            elapsedAxis = Math.max(1, elapsed, lastSecond ? lastSecond.second + 1 : 0);
            // A journey's planned count is of iterations.
            const counted = l.iterations ?? l.measured;
            const done = plannedOperations ? counted / plannedOperations : plannedSeconds ? elapsed / plannedSeconds : null;
            const bar = document.getElementById('live-progress');
            if (bar && done !== null) bar.value = Math.min(1, done);
            text('live-elapsed', `${u.number(elapsed, 1)} s` + (plannedSeconds ? ` of ${u.number(plannedSeconds, 0)} s` : '') +
                (plannedOperations ? ` · ${u.number(counted)} of ${u.number(plannedOperations)} ${done !== null ? `(${u.percent(Math.min(1, done), 0)})` : ''}` : ''));
            if (rate) {
                rate.data.datasets[0].data = rows.map(r => ({ x: r.second + 0.5, y: r.count - r.errors }));
                rate.data.datasets[1].data = rows.map(r => ({ x: r.second + 0.5, y: r.errors }));
                rate.options.scales.x.max = elapsedAxis;
                rate.update();
            }
            if (latency) {
                ['p50Ms', 'p95Ms', 'p99Ms'].forEach((key, i) => { latency.data.datasets[i].data = rows.filter(r => r[key] !== null).map(r => ({ x: r.second + 0.5, y: r[key] })); });
                latency.options.scales.x.max = elapsedAxis;
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

    // The heading's badge was written when the page was made: a page opened while the run waited in the queue
    // must not go on saying "queued" once it runs, nor while its requests are being counted.
    function statusBadge(status, counted) {
        const badge = document.getElementById('run-status');
        const shown = status === 'queued' && counted > 0 ? 'running' : status;
        if (!badge || badge.textContent === shown) return;
        badge.textContent = shown;
        badge.className = `status status-${shown} status-outcome-neutral`;
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
};
