// Trend page: p50/p95/p99 (left axis, formatted by units.js) and successful requests/s (right axis) per completed run.
(function () {
    if (!window.Chart) return;
    const points = JSON.parse(document.getElementById('chart-data').textContent);
    const labels = points.map(p => '#' + p.run);
    const radius = points.map(p => (p.flagged || p.failed ? 6 : 2));
    const border = points.map(p => (p.failed ? '#c0342b' : p.flagged ? '#e8890c' : undefined));
    const line = (label, key, color) => ({
        label, data: points.map(p => p[key]), borderColor: color, backgroundColor: color, yAxisID: 'ms',
        pointRadius: radius, pointBorderColor: border.map(b => b || color), pointBorderWidth: 2,
    });
    new Chart(document.getElementById('trend-chart'), {
        type: 'line',
        data: {
            labels,
            datasets: [
                line('p50', 'p50', '#2f5fd0'), line('p95', 'p95', '#7b3fb8'), line('p99', 'p99', '#9aa3b2'),
                { label: 'succeeded/s', data: points.map(p => p.rps), borderColor: '#1f7a4d', backgroundColor: '#1f7a4d', borderDash: [4, 3], yAxisID: 'rps', pointRadius: 1 },
            ],
        },
        options: {
            animation: false, maintainAspectRatio: false,
            plugins: { tooltip: { callbacks: { label: (ctx) => ctx.dataset.yAxisID === 'ms' ? `${ctx.dataset.label}: ${window.units.duration(ctx.raw)}` : `${ctx.dataset.label}: ${window.units.number(ctx.raw, 1)}` } } },
            scales: {
                x: { title: { display: true, text: 'completed runs, oldest first' } },
                ms: { position: 'left', beginAtZero: true, title: { display: true, text: 'latency' }, ticks: { callback: (v) => window.units.tick(Number(v)) } },
                rps: { position: 'right', beginAtZero: true, grid: { drawOnChartArea: false }, title: { display: true, text: 'successful operations per second' } },
            },
        },
    });
})();
