// Run details: draws the sample-index chart, the histogram and (open model) the target vs. achieved rate from the embedded JSON, and while the run
// is queued or running polls the API for progress and reloads the page when the run ends.
(function () {
    const data = JSON.parse(document.getElementById('chart-data').textContent);

    if (window.Chart) {
        // Runs with series (cache phases) get a dataset per series; others measured and warm-up.
        // Ten distinguishable colours: a Table run has eight variants; red is kept for errors.
        const palette = ['#2f5fd0', '#1f7a4d', '#b7791f', '#7b3fb8', '#0f7c8a', '#9aa3b2', '#e07b00', '#6d4c41', '#c2185b', '#37474f'];
        const datasets = data.series.length > 0
            ? data.series.map((s, i) => ({ label: s.name, data: s.points, pointRadius: 1.5, borderColor: palette[i % palette.length], backgroundColor: palette[i % palette.length] }))
            : [
                { label: 'measured', data: data.measured, pointRadius: 1.5, borderColor: '#2f5fd0', backgroundColor: '#2f5fd0' },
                { label: 'warm-up (excluded)', data: data.warmup, pointRadius: 1.5, borderColor: '#9aa3b2', backgroundColor: '#9aa3b2' },
            ];
        datasets.push({ label: 'errors', data: data.errors, pointStyle: 'crossRot', pointRadius: 5, borderColor: '#c0342b', backgroundColor: '#c0342b' });
        // Warm-up boundary and degradation episodes, drawn at the top of the plotted range.
        const all = datasets.flatMap(d => d.data.map(p => p.y));
        const top = all.length ? Math.max(...all) * 1.05 : 1;
        if (data.steadyFromIndex !== null && data.steadyFromIndex !== undefined)
            datasets.push({ label: 'steady from here', data: [{ x: data.steadyFromIndex, y: 0 }, { x: data.steadyFromIndex, y: top }], showLine: true, borderDash: [6, 4], borderColor: '#1d2330', pointRadius: 0 });
        data.episodes.forEach((e, i) => datasets.push({ label: i === 0 ? 'degradation episodes' : '', data: [{ x: e.from, y: top }, { x: e.to, y: top }], showLine: true, borderWidth: 6, borderColor: '#e8890c', pointRadius: 0 }));
        new Chart(document.getElementById('series-chart'), {
            type: 'scatter',
            data: { datasets },
            options: {
                animation: false,
                maintainAspectRatio: false,
                scales: {
                    x: { title: { display: true, text: 'sample index (request order)' } },
                    y: { title: { display: true, text: 'latency (ms)' }, beginAtZero: true },
                },
                plugins: {
                    legend: { labels: { filter: (item) => item.text !== '' } },
                    tooltip: {
                        callbacks: {
                            label: (ctx) => {
                                const p = ctx.raw;
                                const extra = p.kind ? ` ${p.kind}${p.status ? ' ' + p.status : ''}` : '';
                                return `#${p.x}: ${p.y.toFixed(3)} ms${extra}`;
                            },
                        },
                    },
                },
            },
        });

        new Chart(document.getElementById('histogram-chart'), {
            type: 'bar',
            data: {
                labels: data.histogram.map(b => `${b.fromMs.toFixed(3)}–${b.toMs.toFixed(3)}`),
                datasets: [{ label: 'requests', data: data.histogram.map(b => b.count), backgroundColor: '#2f5fd0' }],
            },
            options: {
                animation: false,
                maintainAspectRatio: false,
                scales: {
                    x: { title: { display: true, text: 'latency (ms); the last bar gathers anything above p99.9' } },
                    y: { title: { display: true, text: 'requests' }, beginAtZero: true },
                },
            },
        });

        // An open-model run: operations due per second (target) against those that started (achieved).
        const loadCanvas = document.getElementById('load-chart');
        if (loadCanvas && data.load) {
            new Chart(loadCanvas, {
                type: 'line',
                data: {
                    labels: data.load.map(p => p.second),
                    datasets: [
                        { label: 'target (due)', data: data.load.map(p => p.due), borderColor: '#9aa3b2', backgroundColor: '#9aa3b2', borderDash: [6, 4], pointRadius: 0, stepped: 'middle' },
                        { label: 'achieved (started)', data: data.load.map(p => p.started), borderColor: '#2f5fd0', backgroundColor: '#2f5fd0', pointRadius: 2, stepped: 'middle' },
                    ],
                },
                options: {
                    animation: false,
                    maintainAspectRatio: false,
                    scales: {
                        x: { title: { display: true, text: 'second of the schedule' } },
                        y: { title: { display: true, text: 'operations per second' }, beginAtZero: true },
                    },
                },
            });
        }
    }

    const live = document.getElementById('live');
    if (!live) return;
    const id = live.dataset.runId;
    const timer = setInterval(async () => {
        try {
            const response = await fetch(`/api/runs/${id}?includeStats=false`, { headers: { Accept: 'application/json' } });
            if (!response.ok) return;
            const run = await response.json();
            document.getElementById('progress').textContent = run.completedRequests.toLocaleString();
            document.getElementById('run-status').textContent = run.status;
            if (!['queued', 'running'].includes(run.status)) {
                clearInterval(timer);
                location.reload();
            }
        } catch { /* the next tick tries again */ }
    }, 1000);
})();
