// One way to show a duration everywhere a chart does, as the pages do (Display.Duration): the unit its size
// calls for (ns, µs, ms, s) with four significant digits, e.g. 170 ns, 1.234 µs, 10.27 ms, 2.345 s.
window.units = (function () {
    function duration(ms) {
        if (ms === null || ms === undefined || Number.isNaN(ms)) return '–';
        const ns = ms * 1e6, abs = Math.abs(ns);
        if (abs < 999.5) return `${Math.round(ns)} ns`;
        // The unit is chosen on the value as shown: 999,999 ns is "1.000 ms", not "1000.0 µs".
        const [value, unit] = abs < 999950 ? [ns / 1e3, 'µs'] : abs < 999950000 ? [ms, 'ms'] : [ns / 1e9, 's'];
        const a = Math.abs(value);
        const digits = a < 10 ? 3 : a < 100 ? 2 : a < 1000 ? 1 : 0;
        return `${value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })} ${unit}`;
    }
    // An axis tick: the same units, trailing zeros dropped (5 ms, 12.5 ms, not 5.000 ms).
    const tick = (ms) => duration(ms).replace(/(\.\d*?)0+ /, '$1 ').replace('. ', ' ');
    const number = (n, digits = 0) => n === null || n === undefined ? '–' : n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
    const percent = (fraction, digits = 1) => `${number(fraction * 100, digits)} %`;
    // "p99.9" for 0.999; a percentile plot's axis is −log10(1 − p), so 1 → 90 %, 2 → 99 %, 3 → 99.9 %.
    const nines = (x) => x <= 0 ? '0 %' : `${(100 - 100 / Math.pow(10, x)).toLocaleString('en-US', { maximumFractionDigits: Math.max(0, Math.ceil(x) - 2) })} %`;
    return { duration, tick, number, percent, nines };
})();
