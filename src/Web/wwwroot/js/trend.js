// Trend page: p50/p95/p99 (left axis, formatted by units.js) and successful requests/s (right axis) per completed
// run on a time axis, in palette.js's colours (each percentile the colour it has on the run and compare pages);
// each level between changes as a thin line, and the marks: changes (dashed, ▲ slower ▼ faster), parameter
// changes (grey) and the pending change at the top, drawn by the small plugin below.
(function () {
    if (!window.Chart) return;
    const c = window.palette;
    const data = JSON.parse(document.getElementById('chart-data').textContent);
    const runs = data.runs;
    // Ticks say as much of the time as the span needs: seconds within a few minutes, days across days.
    const span = runs.length ? runs[runs.length - 1].t - runs[0].t : 0;
    const iso = (t) => new Date(t).toISOString();
    const tick = (t) => span < 600e3 ? iso(t).slice(11, 19) : span < 86400e3 ? iso(t).slice(11, 16) : iso(t).slice(5, 16).replace('T', ' ');
    const when = (t) => iso(t).slice(0, 19).replace('T', ' ');
    // Per point, by the run it stands for (a scriptable option: the legend, which has no point, gets the plain circle).
    const point = (ctx) => (ctx.dataIndex === undefined ? undefined : runs[ctx.dataIndex]);
    // Each percentile its marker (p99 drawn above p95, so a run whose two are equal shows both); an outlying run a ✕.
    const line = (label, key) => ({
        label, data: runs.map(p => ({ x: p.t, y: p[key], run: p.run })), ...c.percentileDataset(key),
        borderWidth: 1, yAxisID: 'ms', pointBorderWidth: 2,
        pointRadius: (ctx) => { const p = point(ctx); return p && (p.flagged || p.failed) ? 6 : p && p.outlier ? 5 : c.percentileLook[key].radius; },
        pointStyle: (ctx) => (point(ctx) && point(ctx).outlier ? 'crossRot' : c.percentileLook[key].pointStyle),
        pointBorderColor: (ctx) => { const p = point(ctx); return p && p.failed ? c.error : p && p.flagged ? c.flagged : c.percentile[key]; },
    });
    // A level is a span at its median; null between spans breaks the line.
    const level = (key) => ({
        label: `${key} level`, data: data.levels.flatMap(l => [{ x: l.from, y: l[key] }, { x: l.to, y: l[key] }, { x: l.to, y: null }]),
        borderColor: c.percentile[key], borderWidth: 3, pointRadius: 0, yAxisID: 'ms', spanGaps: false, order: 5,
        backgroundColor: c.percentile[key], borderDash: [], level: true,
    });
    const marks = {
        id: 'historyMarks',
        afterDatasetsDraw(chart) {
            const { ctx, chartArea: area, scales: { x } } = chart;
            const draw = (t, colour, label) => {
                const px = x.getPixelForValue(t);
                if (px < area.left || px > area.right) return;
                ctx.save();
                ctx.strokeStyle = colour; ctx.fillStyle = colour; ctx.setLineDash([4, 3]); ctx.lineWidth = 1.5;
                ctx.beginPath(); ctx.moveTo(px, area.top); ctx.lineTo(px, area.bottom); ctx.stroke();
                if (label) { ctx.setLineDash([]); ctx.font = '12px sans-serif'; ctx.fillText(label, Math.min(px + 3, area.right - ctx.measureText(label).width), area.top + 12); }
                ctx.restore();
            };
            data.parameters.forEach(p => draw(p.t, c.warmup, 'parameters'));
            data.changes.forEach(ch => draw(ch.t, ch.regression ? c.error : c.throughput, `${ch.regression ? '▲' : '▼'} ${ch.label}`));
            if (data.pending) draw(data.pending.t, c.flagged, '? pending');
        },
    };
    const chart = new Chart(document.getElementById('trend-chart'), {
        type: 'line',
        plugins: [marks],
        data: {
            datasets: [
                line('p50', 'p50'), line('p95', 'p95'), line('p99', 'p99'),
                level('p50'), level('p95'), level('p99'),
                { label: 'succeeded/s', data: runs.map(p => ({ x: p.t, y: p.rps, run: p.run })), borderColor: c.throughput, backgroundColor: c.throughput, borderDash: [10, 3, 2, 3], borderWidth: 1, yAxisID: 'rps', pointRadius: 1, pointStyle: 'rect' },
            ],
        },
        options: {
            animation: false, maintainAspectRatio: false, parsing: false, normalized: true,
            plugins: {
                legend: { labels: { usePointStyle: true, filter: (item, d) => !d.datasets[item.datasetIndex].level } },
                zoom: window.chartTools?.zoom(),
                tooltip: {
                    filter: (item) => !item.dataset.level,
                    callbacks: {
                        title: (items) => items.length ? `#${items[0].raw.run} · ${when(items[0].raw.x)} UTC` : '',
                        label: (ctx) => ctx.dataset.yAxisID === 'ms' ? `${ctx.dataset.label}: ${window.units.duration(ctx.raw.y)}` : `${ctx.dataset.label}: ${window.units.number(ctx.raw.y, 1)}`,
                        afterBody: (items) => {
                            const run = items.length ? items[0].raw.run : null;
                            const lines = [];
                            const point = runs.find(p => p.run === run);
                            if (point && point.outlier) lines.push(`outlier (${point.outlier})`);
                            data.changes.filter(ch => ch.run === run).forEach(ch => lines.push(ch.text));
                            if (data.pending && data.pending.run === run) lines.push(data.pending.text);
                            if (data.parameters.some(p => p.run === run)) lines.push('parameters changed');
                            return lines;
                        },
                    },
                },
            },
            scales: {
                x: { type: 'linear', title: { display: true, text: 'when the run ended (UTC)' }, ticks: { callback: (v) => tick(Number(v)), maxRotation: 0, autoSkipPadding: 20 } },
                ms: { position: 'left', beginAtZero: true, title: { display: true, text: 'latency' }, ticks: { callback: (v) => window.units.tick(Number(v)) } },
                rps: { position: 'right', beginAtZero: true, grid: { drawOnChartArea: false }, title: { display: true, text: 'successful operations per second' } },
            },
        },
    });
    window.chartTools?.rangeTools(chart, 'time');
})();
