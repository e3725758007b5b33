// A saved report (Pages/Shared/_ReportLayout.cshtml). Chart.js follows its container when the window resizes, not
// when the page is laid out for printing: redraw every chart at the printed size before printing and at the
// window's size after, so no chart is cut or stretched on paper (Chart.js's documented way).
(function () {
    const resizeAll = () => { for (const chart of Object.values(Chart.instances)) chart.resize(); };
    window.addEventListener('beforeprint', resizeAll);
    window.addEventListener('afterprint', resizeAll);
})();
