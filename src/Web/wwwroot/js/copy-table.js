// "Copy as Markdown" and "Copy as text" buttons (the _CopyTable partial): each copies what the API answers at its
// data-url, the same table a script would fetch. The clipboard needs a secure context (https, or localhost and
// 127.0.0.1); where the browser refuses, the text is shown selected under the buttons with a note to copy it by hand.
(function () {
    async function copy(button) {
        const box = button.closest('.copy-table');
        const note = box.querySelector('.copy-note');
        const fallback = box.querySelector('textarea');
        note.textContent = 'Copying…';
        fallback.hidden = true;
        let text;
        try {
            const answer = await fetch(button.dataset.url, { headers: { Accept: 'text/plain, text/markdown' } });
            text = await answer.text();
            if (!answer.ok) throw new Error(`the dashboard answered ${answer.status}: ${text.slice(0, 200)}`);
        } catch (error) {
            note.textContent = `Could not copy: ${error.message}`;
            return;
        }
        let refused = window.isSecureContext && navigator.clipboard ? null
            : 'This page is not in a secure context (https, or localhost), so the browser does not let it write the clipboard.';
        if (!refused) {
            try {
                await navigator.clipboard.writeText(text);
                note.textContent = `Copied ${button.dataset.what} (${text.split('\n').length - 1} lines).`;
                return;
            } catch (error) {
                refused = `The browser refused the clipboard (${error.message}).`;
            }
        }
        fallback.value = text;
        fallback.hidden = false;
        fallback.focus();
        fallback.select();
        note.textContent = `${refused} The text is selected below: press Ctrl+C (⌘C) to copy it.`;
    }

    document.addEventListener('click', (event) => {
        const button = event.target.closest('.copy-table button[data-url]');
        if (button) copy(button);
    });
})();
