// The load fields (Pages/Kinds/_LoadModelFields.cshtml): show only the fields of the mode and model chosen, and
// say live what a count stands for ("per variant: 3 variants × 50 = 150 requests in all"). Without this script
// every field shows and says when it applies; the server ignores the ones that do not. A file, not inline, since
// the content policy runs only this site's scripts; wired once, however many kinds' fields include it.
if (!window.loadFieldsWired) {
    window.loadFieldsWired = true;
    document.documentElement.classList.add("js");

    const checkedCount = (form, name) => form.querySelectorAll(`input[type=checkbox][name="${name}"]:checked`).length;

    // Filled variant rows, plus the fields above as the first variant; 1 without other variants.
    const variantRows = (form, prefix) => {
        const filled = [...form.querySelectorAll(".variant-row")].filter(row =>
            [...row.querySelectorAll(`[name^="${prefix}["]`)].some(field => field.value.trim() !== "")).length;
        return filled > 0 ? filled + 1 : 1;
    };

    const factor = (form, rule) => {
        const [how, what] = rule.split(":");
        if (how === "checked") return checkedCount(form, what);
        if (how === "product") return what.split(",").reduce((product, name) => product * checkedCount(form, name), 1);
        if (how === "rows") return variantRows(form, what);
        return 1;
    };

    const sentence = input => {
        const form = input.form;
        const n = Number.parseInt(input.value, 10) || 0;
        const factors = (input.dataset.countTotal || "").split(";").filter(Boolean).map(pair => {
            const at = pair.indexOf("=");
            return { noun: pair.slice(0, at), count: factor(form, pair.slice(at + 1)) };
        });
        const total = factors.reduce((product, f) => product * f.count, n);
        const noun = input.dataset.noun;
        const shown = factors.filter(f => f.count !== 1);
        if (shown.length === 0) return `${total.toLocaleString("en")} ${noun} in all.`;
        const steps = shown.map(f => `${f.count.toLocaleString("en")} ${f.noun}`).join(" × ");
        return `${input.dataset.per}: ${steps} × ${n.toLocaleString("en")} = ${total.toLocaleString("en")} ${noun} in all.`;
    };

    const refresh = form => {
        for (const field of form.querySelectorAll("[data-shown-when]")) {
            const [name, values] = field.dataset.shownWhen.split("=");
            const chosen = form.querySelector(`input[type=radio][name="${name}"]:checked`)?.value;
            field.hidden = !values.split(",").includes(chosen);
        }
        for (const input of form.querySelectorAll("input[data-count-total]")) {
            const output = input.parentElement.querySelector("output.load-total");
            if (output) output.textContent = sentence(input);
        }
    };

    const update = event => { if (event.target.form?.querySelector("[data-load-fields]")) refresh(event.target.form); };
    document.addEventListener("input", update);
    document.addEventListener("change", update);
    // "Add a variant" reveals a row; a revealed empty row changes nothing, but a refresh keeps the sentence true.
    document.addEventListener("click", update);
    const start = () => document.querySelectorAll("form").forEach(form => { if (form.querySelector("[data-load-fields]")) refresh(form); });
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
}
