// Compare page: overlays each item's per-sample series, CDF and histogram (shared logarithmic bins) from the
// embedded JSON (durations in ms, formatted by units.js).
(function () {
    if (!window.Chart) return;
    const u = window.units;
    const data = JSON.parse(document.getElementById('chart-data').textContent);
    // Each item its colour, point style and dash from palette.js (the run and trend pages' too).
    const look = (i, line = true) => window.palette.look(i, line);
    const durationAxis = (title, type = 'linear') => ({ type, title: { display: true, text: title }, ticks: { callback: (v) => u.tick(Number(v)) }, beginAtZero: type === 'linear' });
    const common = { animation: false, maintainAspectRatio: false, parsing: false };
    const legend = { labels: { usePointStyle: true } };
    const slowest = Math.max(0, ...data.items.map(it => it.cdf.length ? it.cdf[it.cdf.length - 1].x : 0));
    const fastest = Math.min(...data.items.map(it => it.cdf.length ? it.cdf[0].x : slowest));
    const longest = Math.max(1, ...data.items.map(it => it.series.length ? it.series[it.series.length - 1].x : 0));

    const series = new Chart(document.getElementById('series-chart'), {
        type: 'scatter',
        data: { datasets: data.items.map((it, i) => ({ label: it.label, data: it.series, pointRadius: 1.6, ...look(i, false) })) },
        options: {
            ...common,
            scales: { x: { type: 'linear', min: 0, max: longest, title: { display: true, text: 'position in the item (answered requests in order)' } }, y: durationAxis('latency') },
            // Zoom and pan along the samples' order, as on the run page.
            plugins: { legend, zoom: window.chartTools?.zoom(), tooltip: { callbacks: { label: (ctx) => `${ctx.dataset.label} #${ctx.raw.x}: ${u.duration(ctx.raw.y)}` } } },
        },
    });
    window.chartTools?.rangeTools(series, null);

    const cdf = new Chart(document.getElementById('cdf-chart'), {
        type: 'line',
        data: { datasets: data.items.map((it, i) => ({ label: it.label, data: it.cdf, ...look(i), borderWidth: 2, pointRadius: 0, stepped: 'before' })) },
        options: {
            ...common,
            scales: { x: { ...durationAxis('latency'), max: slowest }, y: { min: 0, max: 1, title: { display: true, text: 'share of requests at or below' }, ticks: { callback: (v) => u.percent(v, 0) } } },
            plugins: { legend, tooltip: { callbacks: { label: (ctx) => `${ctx.dataset.label}: ${u.percent(ctx.raw.y, 2)} ≤ ${u.duration(ctx.raw.x)}` } } },
        },
    });
    const toggle = document.getElementById('cdf-log');
    if (toggle) toggle.addEventListener('change', () => {
        cdf.options.scales.x = toggle.checked ? { ...durationAxis('latency (logarithmic)', 'logarithmic'), min: fastest, max: slowest } : { ...durationAxis('latency'), max: slowest };
        cdf.update();
    });

    const edges = data.histogramEdgesMs;
    const labels = edges.slice(0, -1).map((e, i) => `${u.duration(e)} – ${u.duration(edges[i + 1])}`);
    new Chart(document.getElementById('histogram-chart'), {
        type: 'line',
        data: { labels, datasets: data.items.map((it, i) => ({ label: it.label, data: it.histogram, ...look(i), borderWidth: 2, pointRadius: 0, stepped: 'middle' })) },
        options: {
            animation: false, maintainAspectRatio: false,
            scales: {
                x: { title: { display: true, text: 'latency (each bin a constant factor wider than the last)' }, ticks: { maxRotation: 0, autoSkipPadding: 12, callback: (v, i) => u.tick(edges[i]) } },
                y: { beginAtZero: true, title: { display: true, text: 'requests' } },
            },
            plugins: { legend, tooltip: { callbacks: { title: (items) => labels[items[0].dataIndex] } } },
        },
    });
})();
