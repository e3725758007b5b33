// Swagger UI (/api-docs) is a page of its package, without the dashboard's navigation: give it a way back.
// Swashbuckle puts this script in the page's head, so it waits for the body.
document.addEventListener('DOMContentLoaded', () => {
    const bar = document.createElement('nav');
    bar.className = 'dashboard-bar';
    bar.innerHTML = '<a class="brand" href="/">BenchDashboard</a> <a id="back-to-dashboard" href="/">← Back to the dashboard</a> <a href="/glossary">Glossary</a>';
    document.body.prepend(bar);
});
