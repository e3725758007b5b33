// Every chart on a page (each canvas in a .chart-box) gets "PNG" and "SVG" downloads at a size for a post. The chart
// is drawn again off the page from its own configuration, at 1200 × 600 and without animation, with its title (the
// box's heading) and the page's heading as a subtitle, its legend and its axis titles; tick labels carry the units
// (units.js). PNG on a white background; SVG through svgcanvas (a canvas 2D context that writes SVG elements), loaded
// only when asked for, so the pages pay nothing for it.
(function () {
    const size = { width: 1200, height: 600 };
    const svgModule = '/lib/svgcanvas/svgcanvas.esm.js';

    const text = (element) => {
        if (!element) return '';
        const copy = element.cloneNode(true);
        copy.querySelectorAll('label, input, button, .chart-export').forEach(e => e.remove());
        return copy.textContent.replace(/\s+/g, ' ').trim();
    };

    // The box's data-title, else the chart's heading, else the heading of the section it is in (the open-load chart's).
    function titleOf(box) {
        const own = box.dataset.title || text(box.querySelector('h3'));
        if (own) return own;
        for (let e = box.previousElementSibling; e; e = e.previousElementSibling)
            if (/^H[2-4]$/.test(e.tagName)) return text(e);
        return text(document.querySelector('h1')) || document.title;
    }

    const fileName = (title, extension) =>
        (text(document.querySelector('h1')) + ' ' + title).toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 80) + '.' + extension;

    const whiteBackground = {
        id: 'exportBackground',
        beforeDraw(chart) {
            const ctx = chart.ctx;
            ctx.save();
            ctx.fillStyle = '#ffffff';
            ctx.fillRect(0, 0, chart.width, chart.height);
            ctx.restore();
        },
    };

    // The chart's own configuration with what a picture outside the page needs: fixed size, no animation, the title,
    // the page's heading under it, and the legend even where the page hides it for a single series.
    function exportConfig(chart, title, platform) {
        const source = chart.config;
        const options = Chart.helpers.merge({}, [source.options, {
            animation: false, responsive: false, maintainAspectRatio: false, devicePixelRatio: 1,
            plugins: {
                title: { display: true, text: title, font: { size: 18, weight: 'bold' }, color: '#1d2330' },
                subtitle: { display: true, text: text(document.querySelector('h1')), font: { size: 13 }, color: '#5b6170', padding: { bottom: 8 } },
                legend: { display: true },
                tooltip: { enabled: false },
                // A picture has no gestures, and its legend is drawn in it whatever the page's width.
                zoom: false,
                legendBelow: false,
            },
        }]);
        // Datasets copied (their data shared): a plugin that rewrites a dataset's data (decimation) leaves the page's alone.
        // For SVG, a segment option (even empty) makes Chart.js draw lines with moveTo/lineTo, which svgcanvas turns into
        // paths, instead of through a Path2D object, which it cannot read.
        const data = { ...source.data, datasets: source.data.datasets.map(d => (platform ? { ...d, segment: d.segment || {} } : { ...d })) };
        return { type: source.type, data, options, plugins: [...(source.plugins || []), whiteBackground], platform };
    }

    function download(blob, name) {
        const link = document.createElement('a');
        link.href = URL.createObjectURL(blob);
        link.download = name;
        document.body.appendChild(link);
        link.click();
        link.remove();
        setTimeout(() => URL.revokeObjectURL(link.href), 10000);
    }

    async function png(chart, title) {
        const holder = document.createElement('div');
        holder.style.cssText = 'position:fixed;left:-10000px;top:0;';
        const canvas = document.createElement('canvas');
        canvas.width = size.width;
        canvas.height = size.height;
        holder.appendChild(canvas);
        document.body.appendChild(holder);
        const copy = new Chart(canvas, exportConfig(chart, title));
        try {
            const blob = await new Promise(resolve => canvas.toBlob(resolve, 'image/png'));
            download(blob, fileName(title, 'png'));
        } finally {
            copy.destroy();
            holder.remove();
        }
    }

    // svgcanvas reads each text's font by writing it to a scratch span's style attribute, which the dashboard's
    // Content-Security-Policy (style-src 'self') refuses, leaving the SVG's text without size, weight or family.
    // While the chart draws, such a write goes through the CSSOM instead, which the policy allows.
    function withCssomFonts(draw) {
        const setAttribute = Element.prototype.setAttribute;
        Element.prototype.setAttribute = function (name, value) {
            if (name === 'style' && this instanceof HTMLSpanElement && !this.isConnected && String(value).startsWith('font:')) this.style.cssText = value;
            else setAttribute.call(this, name, value);
        };
        try {
            return draw();
        } finally {
            Element.prototype.setAttribute = setAttribute;
        }
    }

    async function svg(chart, title) {
        const svgCanvas = await import(svgModule);
        const element = new svgCanvas.Element();
        element.width = size.width;
        element.height = size.height;
        // BasicPlatform: Chart.js draws on the context it is given and asks the page nothing (no DOM canvas, no events);
        // with animation off it draws inside the constructor, so the font shim below covers every text it writes.
        const copy = withCssomFonts(() => new Chart(element, exportConfig(chart, title, Chart.BasicPlatform)));
        try {
            const markup = element.ctx.getSerializedSvg(true);
            download(new Blob([markup], { type: 'image/svg+xml;charset=utf-8' }), fileName(title, 'svg'));
        } finally {
            copy.destroy();
        }
    }

    function button(label, format, canvas, box, make) {
        const b = document.createElement('button');
        b.type = 'button';
        b.className = 'link-button';
        b.textContent = label;
        b.dataset.export = format;
        b.addEventListener('click', async () => {
            // Looked up when clicked: the run page draws some charts again (toggles, the live view) after load.
            const chart = Chart.getChart(canvas);
            const title = titleOf(box);
            if (!chart) { b.title = 'This chart has not been drawn yet.'; return; }
            b.disabled = true;
            try {
                await make(chart, title);
            } catch (error) {
                b.title = `Could not make the ${label}: ${error}`;
                console.error(error);
            } finally {
                b.disabled = false;
            }
        });
        return b;
    }

    function addButtons() {
        if (!window.Chart) return;
        document.querySelectorAll('.chart-box canvas').forEach(canvas => {
            const box = canvas.closest('.chart-box');
            if (box.querySelector('.chart-export')) return;
            const bar = document.createElement('span');
            bar.className = 'chart-export';
            bar.setAttribute('aria-label', 'Download this chart');
            bar.append(button('PNG', 'png', canvas, box, png), button('SVG', 'svg', canvas, box, svg));
            // Beside the heading, or in the row above the chart: never over the chart, where its legend is.
            const heading = box.querySelector('h3');
            if (heading) heading.appendChild(bar);
            else {
                let row = box.querySelector(':scope > .chart-tools');
                if (!row) {
                    row = document.createElement('div');
                    row.className = 'chart-tools';
                    (canvas.closest('.chart-area') || canvas).before(row);
                }
                row.appendChild(bar);
            }
        });
    }

    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', addButtons); else addButtons();
    window.chartExport = { addButtons, size };
})();
