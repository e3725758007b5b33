// The charts' colours, in one place for the run, compare and trend pages: a reader who learns that p95 is amber
// on one page finds it amber on every other. Percentiles have fixed colours and markers; series (variants, phases,
// compared items, file-system locations) take turns through sixteen colours chosen to stay apart for the common
// colour-blindnesses (Okabe and Ito's first, then Paul Tol's and ColorBrewer's darker ones), and each of the
// sixteen also has a marker and a dash pattern of its own, so no series is told by colour alone and sixteen series
// never share a colour, a marker or a dash. Red is kept for errors, greys for warm-up and marks (the steady line,
// degradation episodes).
window.palette = (function () {
    const percentile = { p50: '#2f5fd0', p80: '#0f7c8a', p90: '#1f9e89', p95: '#b7791f', p99: '#7b3fb8', max: '#37474f' };
    const seriesColours = [
        '#0072b2', '#e69f00', '#009e73', '#cc79a7', '#56b4e9', '#d55e00', '#332288', '#999933',
        '#882255', '#44aa99', '#66a61e', '#aa4499', '#661100', '#e7298a', '#7570b3', '#000000',
    ];
    // A marker is Chart.js's point style, turned (a triangle pointing down is another marker than one pointing up),
    // filled or drawn as an outline only.
    const markers = [
        ['circle', 0, false], ['rect', 0, false], ['triangle', 0, false], ['rectRot', 0, false],
        ['star', 0, false], ['crossRot', 0, false], ['circle', 0, true], ['rect', 0, true],
        ['triangle', 0, true], ['rectRot', 0, true], ['triangle', 180, false], ['cross', 0, false],
        ['triangle', 180, true], ['triangle', 90, false], ['triangle', 270, true], ['line', 90, false],
    ].map(([pointStyle, rotation, hollow]) => ({ pointStyle, rotation, hollow }));
    const dashes = [
        [], [8, 4], [2, 3], [10, 3, 2, 3], [4, 4], [14, 4], [2, 6], [10, 3, 2, 3, 2, 3],
        [6, 2], [1, 2], [12, 2, 2, 2], [6, 3, 1, 3], [3, 1], [16, 3, 4, 3], [5, 5, 1, 5], [20, 4],
    ];
    const count = seriesColours.length;
    // Series i: its colour, marker and dash. Past sixteen the colours come round again with the markers shifted by
    // one, so a seventeenth series still differs from the first in colour and marker together.
    const series = (i) => {
        const marker = markers[(i + Math.floor(i / count)) % count];
        return { colour: seriesColours[i % count], ...marker, dash: dashes[(i + Math.floor(i / count)) % count] };
    };
    const hollowFill = '#ffffff';
    // A series' options for a Chart.js dataset: its line (or none, for points alone) and its marker, which the
    // legend draws too.
    const look = (i, line = true) => {
        const s = series(i);
        return {
            borderColor: s.colour, backgroundColor: s.hollow ? hollowFill : s.colour, pointStyle: s.pointStyle,
            pointRotation: s.rotation, borderDash: line ? s.dash : [], pointBorderWidth: s.hollow ? 1.5 : 1,
        };
    };
    // The percentiles' lines: each its colour, dash and marker. p95 and p99 are equal in a short run's windows, so
    // p99 (an outline, larger) is drawn above p95 (filled, smaller) and both stay in sight; the lower a dataset's
    // order, the later Chart.js draws it.
    const percentileLook = {
        p50: { dash: [], pointStyle: 'circle', radius: 2, hollow: false, order: 3 },
        p95: { dash: [6, 3], pointStyle: 'triangle', radius: 3, hollow: false, order: 2 },
        p99: { dash: [2, 2], pointStyle: 'rectRot', radius: 4, hollow: true, order: 1 },
    };
    const percentileDash = Object.fromEntries(Object.entries(percentileLook).map(([key, l]) => [key, l.dash]));
    // A percentile's options for a Chart.js dataset.
    const percentileDataset = (key) => {
        const l = percentileLook[key];
        return {
            borderColor: percentile[key], backgroundColor: l.hollow ? hollowFill : percentile[key], borderDash: l.dash,
            pointStyle: l.pointStyle, pointRadius: l.radius, pointBorderWidth: l.hollow ? 1.5 : 1, order: l.order,
        };
    };
    return {
        percentile, percentileDash, percentileLook, percentileDataset, series, look, count,
        throughput: '#1f7a4d',
        error: '#c0342b',
        warmup: '#9aa3b2',
        target: '#5b6170',
        steady: '#1d2330',
        episode: '#6b7280',
        flagged: '#b7791f',
    };
})();
