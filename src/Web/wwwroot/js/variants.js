// "Add a variant" shows the next hidden variant row of its fieldset. A file, not inline, since the content
// policy runs only this site's scripts; one delegated listener, however many kinds' fields include it.
if (!window.addVariantWired) {
    window.addVariantWired = true;
    document.addEventListener("click", event => {
        const button = event.target.closest?.("#add-variant");
        if (!button) return;
        const next = button.closest("fieldset")?.querySelector(".variant-row[hidden]");
        if (next) { next.hidden = false; next.querySelector("input")?.focus(); }
    });
}
