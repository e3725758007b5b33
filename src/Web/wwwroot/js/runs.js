// The runs list keeps itself current: every few seconds it reads its own address again (the page is cached on
// the server for a second and shared by every viewer, so this is cheap) and swaps in the new list when it
// changed: new runs, statuses, figures. Ticked runs stay ticked; nothing is fetched while the tab is hidden.
(() => {
    const area = document.getElementById('runs-area');
    if (!area) return;
    const everyMs = 3000;
    let last = area.innerHTML;

    async function refresh() {
        if (document.hidden) return;
        try {
            const response = await fetch(location.href, { headers: { Accept: 'text/html' } });
            if (!response.ok) return;
            const fresh = new DOMParser().parseFromString(await response.text(), 'text/html').getElementById('runs-area');
            if (!fresh || fresh.innerHTML === last) return;
            const ticked = new Set([...area.querySelectorAll('input[name=items]:checked')].map(box => box.value));
            const scroll = area.querySelector('.table-wrap')?.scrollLeft ?? 0;
            last = fresh.innerHTML;
            area.innerHTML = fresh.innerHTML;
            for (const box of area.querySelectorAll('input[name=items]')) box.checked = ticked.has(box.value);
            const wrap = area.querySelector('.table-wrap');
            if (wrap) wrap.scrollLeft = scroll;
        } catch {
            // Offline or restarting: the next tick tries again.
        }
    }

    setInterval(refresh, everyMs);
    document.addEventListener('visibilitychange', () => { if (!document.hidden) refresh(); });
})();
