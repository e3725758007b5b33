// Compare page: overlays each item's per-sample series, CDF and histogram (shared bins) from the embedded JSON.
(function () {
    if (!window.Chart) return;
    const data = JSON.parse(document.getElementById('chart-data').textContent);
    const palette = ['#2f5fd0', '#c0342b', '#1f7a4d', '#b7791f', '#7b3fb8', '#0f7c8a', '#667085', '#d0487f'];
    const color = (i) => palette[i % palette.length];
    const common = { animation: false, maintainAspectRatio: false };

    new Chart(document.getElementById('series-chart'), {
        type: 'scatter',
        data: { datasets: data.items.map((it, i) => ({ label: it.label, data: it.series, pointRadius: 1.2, borderColor: color(i), backgroundColor: color(i) })) },
        options: { ...common, scales: { x: { title: { display: true, text: 'position in the item (answered requests in order)' } }, y: { beginAtZero: true, title: { display: true, text: 'latency (ms)' } } } },
    });

    new Chart(document.getElementById('cdf-chart'), {
        type: 'line',
        data: { datasets: data.items.map((it, i) => ({ label: it.label, data: it.cdf, borderColor: color(i), backgroundColor: color(i), pointRadius: 0, stepped: true })) },
        options: { ...common, parsing: false, scales: { x: { type: 'linear', title: { display: true, text: 'latency (ms)' } }, y: { min: 0, max: 1, title: { display: true, text: 'share of requests at or below' } } } },
    });

    const edges = data.histogramEdgesMs;
    new Chart(document.getElementById('histogram-chart'), {
        type: 'bar',
        data: {
            labels: edges.slice(0, -1).map((e, i) => `${e.toFixed(3)}–${edges[i + 1].toFixed(3)}`),
            datasets: data.items.map((it, i) => ({ label: it.label, data: it.histogram, backgroundColor: color(i) + '99' })),
        },
        options: { ...common, scales: { x: { stacked: false, title: { display: true, text: 'latency (ms); the last bin includes everything above' } }, y: { beginAtZero: true, title: { display: true, text: 'requests' } } } },
    });
})();
