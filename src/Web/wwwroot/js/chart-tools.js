// What the charts of the run, compare and trend pages share, beside their colours (palette.js):
// - the legend leaves the plot on a narrow screen or past six entries: it is then a list under the chart (each entry
//   its colour, dash and marker, a click hides or shows the series) instead of rows that would squeeze the plot;
// - legends and tooltips list series in the order the page gave them, whatever order they are drawn in;
// - zoom and pan along x on the charts over time (chartjs-plugin-zoom): drag across to zoom, Shift+drag or a swipe to
//   pan, Ctrl+wheel or a pinch to zoom, and a row above the chart with a range to pick and a button to see it all.
window.chartTools = (function () {
    if (!window.Chart) return null;
    const narrowWidth = 600, maxEntriesInside = 6;
    // A vertical swipe on a chart still scrolls the page; only a sideways one pans the chart.
    if (window.Hammer) Hammer.defaults.touchAction = 'pan-y';
    const byDatasetIndex = (a, b) => a.datasetIndex - b.datasetIndex;
    Chart.defaults.plugins.legend.labels.sort = byDatasetIndex;
    Chart.defaults.plugins.tooltip.itemSort = byDatasetIndex;

    // An entry's line and marker, drawn as the chart draws them, kept as a picture (the page's canvases are its charts).
    function swatch(item) {
        const canvas = document.createElement('canvas');
        const scale = window.devicePixelRatio || 1;
        const [width, height] = [30, 14];
        canvas.width = width * scale;
        canvas.height = height * scale;
        const ctx = canvas.getContext('2d');
        ctx.scale(scale, scale);
        ctx.strokeStyle = item.strokeStyle;
        ctx.fillStyle = item.fillStyle;
        ctx.lineWidth = Math.min(2, item.lineWidth || 1);
        ctx.setLineDash(item.lineDash || []);
        ctx.beginPath();
        ctx.moveTo(1, height / 2);
        ctx.lineTo(width - 1, height / 2);
        ctx.stroke();
        ctx.setLineDash([]);
        if (item.pointStyle) Chart.helpers.drawPoint(ctx, { pointStyle: item.pointStyle, rotation: item.rotation || 0, radius: 4.5, borderWidth: 1.5 }, width / 2, height / 2);
        return Object.assign(document.createElement('img'), { src: canvas.toDataURL(), width, height, alt: '' });
    }

    function htmlLegend(chart) {
        const box = chart.canvas.closest && chart.canvas.closest('.chart-box');
        if (!box) return;
        const area = chart.canvas.closest('.chart-area') || chart.canvas;
        let list = box.querySelector(':scope > .chart-legend');
        box.classList.toggle('legend-below', !!chart.$legendBelow);
        if (!chart.$legendBelow) { list?.remove(); return; }
        if (!list) {
            list = document.createElement('ul');
            list.className = 'chart-legend';
            area.after(list);
        }
        chart.$legendList = list;
        // Drawn again only when an entry changed, not at every step of a zoom or pan.
        const items = chart.legend?.legendItems ?? [];
        const key = items.map(i => `${i.text}\u0000${i.hidden}\u0000${i.strokeStyle}`).join('\u0001');
        if (list.dataset.key === key && list.childElementCount === items.length) return;
        list.dataset.key = key;
        list.replaceChildren(...items.map(item => {
            const entry = document.createElement('li');
            const button = document.createElement('button');
            button.type = 'button';
            button.className = 'legend-entry' + (item.hidden ? ' off' : '');
            button.setAttribute('aria-pressed', String(!item.hidden));
            button.dataset.datasetIndex = item.datasetIndex;
            button.append(swatch(item), document.createTextNode(item.text));
            button.addEventListener('click', () => {
                chart.setDatasetVisibility(item.datasetIndex, !chart.isDatasetVisible(item.datasetIndex));
                chart.update();
            });
            entry.append(button);
            return entry;
        }));
    }

    // The entries the legend will have (the page's filter applied), counted before Chart.js has built them.
    function entries(chart) {
        const labels = chart.options.plugins?.legend?.labels ?? {};
        return chart.data.datasets.filter((d, datasetIndex) => !labels.filter || labels.filter({ text: d.label ?? '', datasetIndex }, chart.data)).length;
    }

    // The page's wish (legend shown or not) is kept; the legend is drawn in the canvas only where it takes little of
    // it: on a narrow chart, or one with more than a few series, it is the list under the chart.
    Chart.register({
        id: 'legendBelow',
        beforeUpdate(chart) {
            const options = chart.config.options;
            options.plugins ??= {};
            options.plugins.legend ??= {};
            chart.$legendWanted ??= options.plugins.legend.display !== false;
            const below = chart.$legendWanted && ((chart.width > 0 && chart.width < narrowWidth) || entries(chart) > maxEntriesInside);
            options.plugins.legend.display = chart.$legendWanted && !below;
            chart.$legendBelow = below;
        },
        afterUpdate: htmlLegend,
        // Chart.js has let go of the canvas by now: the box is the one the list was put in.
        afterDestroy(chart) {
            chart.$legendList?.remove();
        },
    });

    const tools = new WeakMap(); // chart → its range row's sync

    // Zoom and pan along x, never past the data the chart was drawn with; the range row follows every change.
    const sync = ({ chart }) => tools.get(chart)?.();
    const zoom = () => ({
        limits: { x: { min: 'original', max: 'original' } },
        pan: { enabled: true, mode: 'x', modifierKey: 'shift', onPanComplete: sync },
        zoom: {
            mode: 'x', wheel: { enabled: true, modifierKey: 'ctrl' }, pinch: { enabled: true }, drag: { enabled: true, threshold: 5 },
            onZoom: sync, onZoomComplete: sync,
        },
    });

    const plain = (n) => n.toLocaleString('en-US', { maximumFractionDigits: 0 });
    const seconds = (s) => s < 1 ? `${plain(s * 1000)} ms` : s < 60 ? `${plain(s)} s` : s < 3600 ? `${plain(s / 60)} min` : `${plain(s / 3600)} h`;
    const hours = (h) => h < 24 ? `${plain(h)} hours` : `${plain(h / 24)} days`;

    // The ranges a reader can pick, from the x the chart was drawn with: the whole run and its first and last
    // stretches ('seconds', x in seconds), or the latest hours and days ('time', x in epoch milliseconds).
    function choices(kind, min, max) {
        const span = max - min;
        if (kind === 'time') {
            return [1, 6, 24, 24 * 7, 24 * 30, 24 * 90].filter(h => h * 3600e3 < span * 0.9)
                .map(h => ({ label: `last ${hours(h)}`, min: max - h * 3600e3, max }));
        }
        const lengths = [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300, 600, 1800, 3600]
            .filter(s => s < span * 0.6).slice(-3);
        return lengths.flatMap(s => [
            { label: `first ${seconds(s)}`, min, max: min + s },
            { label: `last ${seconds(s)}`, min: max - s, max },
        ]);
    }

    // The row above a zoomable chart: a range to pick (kind 'seconds' or 'time'; none for other axes) and "Show all".
    // Called again when the page draws the chart again, it replaces its row.
    function rangeTools(chart, kind) {
        if (!chart) return;
        const box = chart.canvas.closest('.chart-box');
        const area = chart.canvas.closest('.chart-area') || chart.canvas;
        const row = document.createElement('div');
        row.className = 'chart-tools';
        const { min, max } = chart.scales.x;
        const picks = kind ? choices(kind, min, max) : [];
        let select = null;
        if (picks.length > 0) {
            select = document.createElement('select');
            select.className = 'chart-range';
            select.setAttribute('aria-label', 'Range shown');
            const option = (value, label) => Object.assign(document.createElement('option'), { value, textContent: label });
            select.append(option('all', kind === 'time' ? 'all runs' : 'whole run'), ...picks.map((p, i) => option(String(i), p.label)), option('zoomed', 'as zoomed'));
            select.lastChild.hidden = true;
            select.addEventListener('change', () => {
                const pick = picks[Number(select.value)];
                if (select.value === 'all' || !pick) chart.resetZoom('none');
                else chart.zoomScale('x', { min: Math.max(min, pick.min), max: Math.min(max, pick.max) }, 'none');
                sync();
            });
            const label = document.createElement('label');
            label.append('show ', select);
            row.append(label);
        }
        const reset = document.createElement('button');
        reset.type = 'button';
        reset.className = 'link-button';
        reset.dataset.zoomReset = '';
        reset.textContent = 'Show all';
        reset.title = 'Drag across the chart to zoom in, Shift+drag (or swipe) to move along it, Ctrl+wheel (or pinch) to zoom.';
        reset.addEventListener('click', () => { chart.resetZoom('none'); sync(); });
        const hint = document.createElement('span');
        hint.className = 'muted zoom-hint';
        hint.textContent = 'drag across to zoom';
        row.append(reset, hint);
        function sync() {
            const zoomed = chart.isZoomedOrPanned();
            reset.disabled = !zoomed;
            if (!select) return;
            const { min: from, max: to } = chart.scales.x;
            const near = (a, b) => Math.abs(a - b) <= (max - min) * 1e-6;
            const index = picks.findIndex(p => near(Math.max(min, p.min), from) && near(Math.min(max, p.max), to));
            select.value = !zoomed ? 'all' : index >= 0 ? String(index) : 'zoomed';
        }
        tools.set(chart, sync);
        const previous = box.querySelector(':scope > .chart-tools');
        const exports = previous?.querySelector('.chart-export');
        if (exports) row.append(exports);
        previous?.remove();
        area.before(row);
        sync();
        window.chartExport?.addButtons();
    }

    return { zoom, rangeTools, narrowWidth };
})();
