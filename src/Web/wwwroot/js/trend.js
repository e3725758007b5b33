// Trend page: p50/p95/p99 (left axis, formatted by units.js) and successful requests/s (right axis) per completed
// run, in palette.js's colours: each percentile the colour it has on the run and compare pages.
(function () {
    if (!window.Chart) return;
    const c = window.palette;
    const points = JSON.parse(document.getElementById('chart-data').textContent);
    const labels = points.map(p => '#' + p.run);
    const radius = points.map(p => (p.flagged || p.failed ? 6 : 2));
    const border = points.map(p => (p.failed ? c.error : p.flagged ? c.flagged : undefined));
    const line = (label, key) => ({
        label, data: points.map(p => p[key]), borderColor: c.percentile[key], backgroundColor: c.percentile[key], borderDash: c.percentileDash[key], yAxisID: 'ms',
        pointRadius: radius, pointBorderColor: border.map(b => b || c.percentile[key]), pointBorderWidth: 2,
    });
    new Chart(document.getElementById('trend-chart'), {
        type: 'line',
        data: {
            labels,
            datasets: [
                line('p50', 'p50'), line('p95', 'p95'), line('p99', 'p99'),
                { label: 'succeeded/s', data: points.map(p => p.rps), borderColor: c.throughput, backgroundColor: c.throughput, borderDash: [10, 3, 2, 3], yAxisID: 'rps', pointRadius: 1, pointStyle: 'rect' },
            ],
        },
        options: {
            animation: false, maintainAspectRatio: false,
            plugins: { legend: { labels: { usePointStyle: true } }, tooltip: { callbacks: { label: (ctx) => ctx.dataset.yAxisID === 'ms' ? `${ctx.dataset.label}: ${window.units.duration(ctx.raw)}` : `${ctx.dataset.label}: ${window.units.number(ctx.raw, 1)}` } } },
            scales: {
                x: { title: { display: true, text: 'completed runs, oldest first' } },
                ms: { position: 'left', beginAtZero: true, title: { display: true, text: 'latency' }, ticks: { callback: (v) => window.units.tick(Number(v)) } },
                rps: { position: 'right', beginAtZero: true, grid: { drawOnChartArea: false }, title: { display: true, text: 'successful operations per second' } },
            },
        },
    });
})();
