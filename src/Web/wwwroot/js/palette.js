// The charts' colours, in one place for the run, compare and trend pages: a reader who learns that p95 is amber
// on one page finds it amber on every other. Percentiles have fixed colours; series (variants, phases, compared
// items) take turns through a list chosen to stay apart for the common colour-blindnesses (Okabe and Ito's, with
// Paul Tol's for more), and each also has its own point style and dash pattern, so no series is told by colour
// alone. Red is kept for errors, greys for warm-up and marks (the steady line, degradation episodes).
window.palette = (function () {
    const percentile = { p50: '#2f5fd0', p80: '#0f7c8a', p90: '#1f9e89', p95: '#b7791f', p99: '#7b3fb8', max: '#37474f' };
    const seriesColours = ['#0072b2', '#e69f00', '#009e73', '#cc79a7', '#56b4e9', '#d55e00', '#332288', '#999933', '#882255', '#44aa99'];
    const pointStyles = ['circle', 'rect', 'triangle', 'rectRot', 'star', 'rectRounded', 'cross', 'dash', 'circle', 'rect'];
    const dashes = [[], [8, 4], [2, 3], [10, 3, 2, 3], [4, 4], [14, 4], [2, 6], [10, 3, 2, 3, 2, 3], [6, 2], [1, 2]];
    // Series i: its colour, point style and dash; past ten the colours repeat with a different pattern.
    const series = (i) => ({
        colour: seriesColours[i % seriesColours.length],
        pointStyle: pointStyles[i % pointStyles.length],
        dash: dashes[(i + Math.floor(i / seriesColours.length)) % dashes.length],
    });
    // The dash of a percentile's line when colour already tells the series apart (p50 solid, p99 dashed).
    const percentileDash = { p50: [], p95: [6, 3], p99: [2, 2] };
    return {
        percentile, percentileDash, series,
        throughput: '#1f7a4d',
        error: '#c0342b',
        warmup: '#9aa3b2',
        target: '#5b6170',
        steady: '#1d2330',
        episode: '#6b7280',
        flagged: '#b7791f',
    };
})();
