// "Add a variant" shows the next hidden variant row of its fieldset, and the repeat's choices per variant
// (#variant-repeat-fields) show once a variant row is filled, as the API accepts them only then. A file, not
// inline, since the content policy runs only this site's scripts; delegated listeners, however many kinds' fields include it.
if (!window.addVariantWired) {
    window.addVariantWired = true;
    document.addEventListener("click", event => {
        const button = event.target.closest?.("#add-variant");
        if (!button) return;
        const next = button.closest("fieldset")?.querySelector(".variant-row[hidden]");
        if (next) { next.hidden = false; next.querySelector("input")?.focus(); }
    });

    // A row is filled when any of its fields is (the server's IVariantRow.IsEmpty, the other way round).
    const hasVariants = form => [...form.querySelectorAll(".variant-row")].some(row =>
        [...row.querySelectorAll("[name]")].some(field => field.value.trim() !== ""));
    const showChoices = form => {
        const choices = form?.querySelector("#variant-repeat-fields");
        if (!choices) return;
        const shown = hasVariants(form);
        choices.hidden = !shown;
        choices.disabled = !shown; // a disabled fieldset's fields are not sent
    };
    document.addEventListener("input", event => showChoices(event.target.form));
    document.addEventListener("change", event => showChoices(event.target.form));
    const start = () => document.querySelectorAll("form").forEach(showChoices);
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
}
