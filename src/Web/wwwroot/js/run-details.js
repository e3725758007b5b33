// Run page. A finished run: its charts, from the JSON the server embeds (durations in ms). A run under way: its
// runner's live figures, polled once a second from /api/runs/{id}/live (a poll, not server-sent events: one small
// answer a second, shared by every viewer and cached on the server, that passes any proxy), and when it ends
// the finished page is fetched and put in place without reloading.
(function () {
    const u = window.units;
    const p = window.palette;
    let charts = [];
    let seriesIndex = new Map(); // a variant's place in the run: its colour, point style and dash on every chart and card

    // A series' look by name (its place in the run, so picking one keeps its colour), for a line or for points.
    const look = (name, i, line = true) => p.look(seriesIndex.has(name) ? seriesIndex.get(name) : i, line);
    // The charts over time (and over the samples' order) zoom and pan along x; a reader picks a stretch of the run.
    const tools = window.chartTools;
    const zoomable = (options) => (tools ? { ...options, plugins: { ...options.plugins, zoom: tools.zoom() } } : options);
    const withRange = (made, kind) => { if (made && tools) tools.rangeTools(made, kind); return made; };
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
            legend: { labels: { usePointStyle: true, filter: (item) => item.text !== '' } },
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
        Chart.getChart(canvas)?.destroy();
        const made = new Chart(canvas, config);
        charts = charts.filter(c => c.canvas !== canvas);
        charts.push(made);
        return made;
    };
    const windowLength = (seconds) => seconds < 1 ? `${u.number(seconds * 1000, 0)} ms` : `${u.number(seconds, 0)} s`;

    function overTime(data) {
        const w = data.windows;
        if (!w) return;
        const sets = w.sets.filter(s => !data.picked || s.name === data.picked);
        const multi = data.seriesNames.length > 0;
        const seconds = w.seconds;
        const end = Math.max(seconds, ...sets.map(s => s.rows.length ? s.rows[s.rows.length - 1].end : 0));
        const start = Math.min(...sets.map(s => s.rows.length ? s.rows[0].t : 0)); // a picked phase starts where it ran
        // Each window holds its rate from its start to its end; the last one ends with the run's last answer (its
        // rate is over the time it really lasted, so a short tail is not drawn as a collapse) and says so when it is
        // shorter than its series' windows, or longer (a last request answered, or timed out, after the window).
        const lengthOf = new Map(sets.map(s => [s.rows, s.seconds ?? seconds]));
        const partial = (r, rows) => {
            const own = lengthOf.get(rows) ?? seconds, lasted = r.end - r.t;
            if (lasted < own * 0.999) return ` (partial: the last ${u.number(lasted, 2)} s)`;
            return lasted > own * 1.001 ? ` (the last window, to the last answer: ${u.number(lasted, 2)} s)` : '';
        };
        const steps = (rows, value) => rows.length
            ? [...rows.map(r => ({ x: r.t, y: value(r), note: partial(r, rows) })), { x: rows[rows.length - 1].end, y: value(rows[rows.length - 1]), note: partial(rows[rows.length - 1], rows) }]
            : [];
        // A window in which nothing was answered is a gap in the line, not a slope drawn across it.
        const middles = (rows, key) => rows.map(r => ({ x: (r.t + r.end) / 2, y: r[key], note: partial(r, rows) }));
        // The last window's step is dotted when its length differs from the others': its rate is true, but over another time.
        const partialDash = (rows) => ({ borderDash: (ctx) => rows.length && ctx.p1DataIndex === rows.length && partial(rows[rows.length - 1], rows) ? [2, 3] : undefined });
        const xAxis = (text) => ({ type: 'linear', min: start, max: end, title: { display: true, text } });
        const over = 'from the first measured request';

        const rateSets = multi
            ? sets.flatMap((s, i) => [
                { label: `${s.name}`, data: steps(s.rows, r => r.perSecond - r.errorsPerSecond), ...look(s.name, i), pointRadius: 0, stepped: 'before', borderWidth: 2, segment: partialDash(s.rows) },
                ...(s.rows.some(r => r.errorsPerSecond > 0)
                    ? [{ label: `${s.name}: errors`, data: steps(s.rows, r => r.errorsPerSecond), ...look(s.name, i), borderDash: [2, 2], pointRadius: 0, stepped: 'before' }]
                    : []),
            ])
            : [
                { label: 'succeeded per second', data: steps(sets[0]?.rows ?? [], r => r.perSecond - r.errorsPerSecond), borderColor: p.throughput, backgroundColor: p.throughput, pointRadius: 0, stepped: 'before', borderWidth: 2, segment: partialDash(sets[0]?.rows ?? []) },
                { label: 'errors per second', data: steps(sets[0]?.rows ?? [], r => r.errorsPerSecond), borderColor: p.error, backgroundColor: p.error, pointRadius: 0, stepped: 'before', borderDash: [5, 3] },
            ];
        withRange(chart('rate-chart', {
            type: 'line',
            data: { datasets: rateSets },
            options: zoomable(baseOptions({
                x: xAxis(`seconds ${over} (windows of ${windowLength(seconds)})`),
                y: { title: { display: true, text: 'operations per second' }, beginAtZero: true },
            }, (ctx) => `${ctx.dataset.label}: ${u.number(ctx.raw.y, 1)}/s (from ${u.number(ctx.raw.x, seconds < 1 ? 2 : 0)} s)${ctx.raw.note}`)),
        }), 'seconds');

        if (!sets.some(s => s.rows.some(r => r.p50 !== null))) return nothing('latency-time-chart', 'No request got an answer: there is no latency to show.');
        const latencyTooltip = (ctx) => `${ctx.dataset.label}: ${u.duration(ctx.raw.y)} (window from ${u.number(ctx.raw.x, seconds < 1 ? 2 : 0)} s)${ctx.raw.note}`;
        const latencyAxes = { x: xAxis(`seconds ${over} (windows of ${windowLength(seconds)})`), y: durationAxis('latency') };
        if (!multi || data.picked) {
            // One series: its percentiles, each in its colour on every page.
            withRange(chart('latency-time-chart', {
                type: 'line',
                data: { datasets: ['p50', 'p95', 'p99'].map(key => ({ label: key, data: middles(sets[0].rows, key), ...p.percentileDataset(key) })) },
                options: zoomable(baseOptions(latencyAxes, latencyTooltip)),
            }), 'seconds');
            return;
        }
        // Every variant at one percentile (eight variants × three percentiles would be a tangle): the reader picks which.
        const picker = document.getElementById('latency-time-percentile');
        const draw = () => {
            const key = picker ? picker.value : 'p50';
            withRange(chart('latency-time-chart', {
                type: 'line',
                data: { datasets: sets.map((s, i) => ({ label: `${s.name} ${key}`, data: middles(s.rows, key), ...look(s.name, i), pointRadius: 2.5, borderWidth: 2 })) },
                options: zoomable(baseOptions(latencyAxes, latencyTooltip)),
            }), 'seconds');
        };
        if (picker) picker.onchange = draw;
        draw();
    }

    function distribution(data) {
        const shapes = (data.shapes || []).filter(s => !data.picked || s.name === data.picked);
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
                    data: s.percentiles.map(q => ({ x: q.p >= 1 ? reach(s.percentiles) + 0.3 : -Math.log10(1 - q.p), y: q.ms, p: q.p })),
                    ...look(s.name, i), pointRadius: 0, borderWidth: 2,
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
                    label: s.name, data: s.cdf.map(q => ({ x: q.x, y: q.y })),
                    ...look(s.name, i), pointRadius: 0, borderWidth: 2, stepped: 'before',
                })),
            },
            options: baseOptions({
                x: { ...durationAxis('latency'), max: slowest },
                y: { min: 0, max: 1, title: { display: true, text: 'share of requests at or below' }, ticks: { callback: (v) => u.percent(v, 0) } },
            }, (ctx) => `${ctx.dataset.label}: ${u.percent(ctx.raw.y, 2)} ≤ ${u.duration(ctx.raw.x)}`),
        });
        const toggle = document.getElementById('cdf-log');
        if (toggle && cdfChart) toggle.onchange = () => {
            cdfChart.options.scales.x = toggle.checked
                ? { ...durationAxis('latency (logarithmic)', 'logarithmic'), min: fastest, max: slowest }
                : { ...durationAxis('latency'), max: slowest };
            cdfChart.update();
        };

        const h = data.histogram || { edgesMs: [], sets: [] };
        const sets = h.sets.filter(s => !data.picked || s.name === data.picked);
        const labels = h.edgesMs.slice(0, -1).map((from, i) => `${u.duration(from)} – ${u.duration(h.edgesMs[i + 1])}`);
        const single = sets.length <= 1;
        chart('histogram-chart', {
            type: single ? 'bar' : 'line',
            data: {
                labels,
                datasets: sets.map((set, i) => ({
                    label: set.name, data: set.counts, ...look(set.name, i),
                    pointRadius: 0, borderWidth: 2, stepped: 'middle', barPercentage: 1, categoryPercentage: 1,
                })),
            },
            options: {
                animation: false, maintainAspectRatio: false,
                scales: {
                    x: { title: { display: true, text: 'latency (each bin a constant factor wider than the last)' }, ticks: { maxRotation: 0, autoSkipPadding: 12, callback: (v, i) => u.tick(h.edgesMs[i]) } },
                    y: { title: { display: true, text: 'requests' }, beginAtZero: true },
                },
                plugins: { legend: { display: !single, labels: { usePointStyle: true } }, tooltip: { callbacks: { title: (items) => labels[items[0].dataIndex] } } },
            },
        });
    }

    function perSample(data, id = 'series-chart') {
        const warmupBox = document.getElementById('show-warmup');
        const showWarmup = !!(warmupBox && warmupBox.checked);
        const series = data.series.filter(s => !data.picked || s.name === data.picked);
        const datasets = series.length > 0
            ? series.map((s, i) => ({ label: s.name, data: s.points, pointRadius: 2, ...look(s.name, i, false) }))
            : [{ label: 'measured', data: data.measured, pointRadius: 1.5, borderColor: p.series(0).colour, backgroundColor: p.series(0).colour }];
        // Warm-up is off the measured figures, so it is off the scale until the reader asks for it: a slow
        // warm-up must not flatten the measured points into a line at the bottom.
        if (series.length === 0 && data.warmup.length > 0 && showWarmup)
            datasets.push({ label: 'warm-up (excluded)', data: data.warmup, pointRadius: 1.5, pointStyle: 'triangle', borderColor: p.warmup, backgroundColor: p.warmup });
        datasets.push({ label: 'errors', data: data.errors.filter(e => !data.picked || e.series === data.picked), pointStyle: 'crossRot', pointRadius: 5, borderColor: p.error, backgroundColor: p.error });
        const all = datasets.flatMap(d => d.data.map(q => q.y));
        let top = all.length ? Math.max(...all) * 1.05 : 1;
        let yMax;
        // The very first request (a cold start, an empty cache): ringed and large, never hidden behind the axis at x = 0
        // nor by the warm-up toggle; one far above the rest sits at the top edge as a triangle, its value in the label.
        const cold = data.cold && !data.picked ? data.cold : null;
        if (cold) {
            const above = all.length > 0 && cold.y > top * 3;
            if (above) yMax = top;
            datasets.push({
                label: `first request (${u.duration(cold.y)}${cold.warmup ? ', warm-up' : ''}${above ? ', above the scale' : ''})`,
                data: [{ x: cold.x, y: above ? top : cold.y, real: cold.y }],
                pointStyle: above ? 'triangle' : 'circle', pointRadius: 8, pointHoverRadius: 9, borderWidth: 2.5,
                borderColor: p.steady, backgroundColor: 'rgba(255,255,255,0.4)',
            });
            if (!above) top = Math.max(top, cold.y * 1.05);
        }
        // Warm-up boundary and degradation episodes belong to one series: drawn when the chart shows one.
        const one = series.length <= 1;
        if (one && data.steadyFromIndex !== null && data.steadyFromIndex !== undefined)
            datasets.push({ label: 'steady from here', data: [{ x: data.steadyFromIndex, y: 0 }, { x: data.steadyFromIndex, y: top }], showLine: true, borderDash: [6, 4], borderColor: p.steady, pointRadius: 0 });
        if (one) (data.episodes || []).forEach((e, i) => datasets.push({ label: i === 0 ? 'degradation episodes' : '', data: [{ x: e.from, y: top }, { x: e.to, y: top }], showLine: true, borderWidth: 6, borderColor: p.episode, backgroundColor: p.episode, pointStyle: 'line', pointRadius: 0 }));
        const lastIndex = Math.max(1, data.lastIndex || 0);
        withRange(chart(id, {
            type: 'scatter',
            data: { datasets },
            options: zoomable(baseOptions({
                // A little room left of index 0, so the first request is not drawn on the axis line.
                x: { type: 'linear', min: -Math.max(1, Math.ceil(lastIndex * 0.015)), max: lastIndex, title: { display: true, text: 'sample index (request order)' },
                    ticks: { callback: (v) => v < 0 ? '' : u.number(Number(v)) } },
                y: { ...durationAxis(`latency${series.length === 0 && data.warmup.length > 0 && !showWarmup ? ' (measured; warm-up hidden)' : ''}`), ...(yMax ? { max: yMax } : {}) },
            }, (ctx) => {
                const q = ctx.raw;
                const extra = q.kind ? ` ${q.kind}${q.status ? ' ' + q.status : ''}` : '';
                return `#${q.x}: ${u.duration(q.real ?? q.y)}${extra}`;
            })),
        }), null);
        if (warmupBox) warmupBox.onchange = () => perSample(data, id);
    }

    function load(data) {
        // An open-model run: operations due per second (target) against those that started (achieved).
        if (!data.load) return;
        withRange(chart('load-chart', {
            type: 'line',
            data: {
                datasets: [
                    { label: 'target (due)', data: data.load.map(q => ({ x: q.second, y: q.due })), borderColor: p.target, backgroundColor: p.target, borderDash: [6, 4], pointRadius: 0, stepped: 'middle' },
                    { label: 'achieved (started)', data: data.load.map(q => ({ x: q.second, y: q.started })), borderColor: p.throughput, backgroundColor: p.throughput, pointRadius: 2, stepped: 'middle' },
                ],
            },
            options: zoomable(baseOptions({
                x: { type: 'linear', min: 0, title: { display: true, text: 'second of the schedule' } },
                y: { title: { display: true, text: 'operations per second' }, beginAtZero: true },
            })),
        }), 'seconds');
    }

    // Swatches beside variant names (picker, cards, live table) in the colour their charts give them.
    function swatches(root = document) {
        root.querySelectorAll('.swatch[data-series-index]').forEach(s => {
            const look = p.series(Number(s.dataset.seriesIndex));
            s.style.backgroundColor = look.colour;
            s.dataset.pointStyle = look.pointStyle;
        });
    }

    function live(section) {
        window.runLive(section, { chart, baseOptions, durationAxis, swatches, init });
    }

    function init() {
        charts.forEach(c => c.destroy());
        charts = [];
        const element = document.getElementById('chart-data');
        const data = element ? JSON.parse(element.textContent) : null;
        seriesIndex = new Map((data?.seriesNames ?? []).map((name, i) => [name, i]));
        swatches();
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
