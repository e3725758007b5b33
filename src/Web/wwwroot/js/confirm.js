// A form with data-confirm asks before it is sent (Delete on a run's page). A file, not an inline onsubmit:
// the content policy runs only this site's scripts. Delegated, so forms put in place later are covered too.
document.addEventListener("submit", event => {
    const message = event.target.dataset?.confirm;
    if (message && !window.confirm(message)) event.preventDefault();
});
