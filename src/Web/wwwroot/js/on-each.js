// "Measure each agent's site from here": the chosen agents become the HTTP form's interleaved variants, the first in
// the fields above, the others in the variant rows, each named after its agent with its base URL (from /api/agents,
// as the agent said in its hello) plus the path typed. The run is then this dashboard's, so the agents are unchecked.
// A file, not inline, since the content policy runs only this site's scripts.
if (!window.onEachWired) {
    window.onEachWired = true;
    document.addEventListener("click", async event => {
        const button = event.target.closest?.("#fill-variants");
        if (!button) return;
        const form = button.closest("form");
        const message = form.querySelector("#fill-variants-message");
        const chosen = [...form.querySelectorAll("#on-each-agents input[type=checkbox]:checked")].map(box => box.value);
        if (chosen.length === 0) { message.textContent = "Choose the agents to measure first."; return; }
        let agents;
        try {
            const response = await fetch("/api/agents", { headers: { Accept: "application/json" } });
            if (!response.ok) throw new Error(`GET /api/agents answered ${response.status}`);
            agents = await response.json();
        } catch (error) {
            message.textContent = `The agents' addresses could not be read: ${error.message}.`;
            return;
        }
        const baseOf = name => agents.find(a => a.name === name && a.linked)?.baseUrl;
        const missing = chosen.filter(name => !baseOf(name));
        if (missing.length > 0) {
            message.textContent = `${missing.join(", ")} ${missing.length === 1 ? "has" : "have"} no base URL: set Runner:PublicUrl on ${missing.length === 1 ? "it" : "them"} (App Service agents use their host name), or type the URLs yourself.`;
            return;
        }
        const rows = [...form.querySelectorAll(".variant-row")];
        if (chosen.length - 1 > rows.length) { message.textContent = `A run has at most ${rows.length + 1} variants.`; return; }
        let path = form.querySelector("#from-outside-path").value.trim();
        if (path !== "" && !path.startsWith("/")) path = "/" + path;
        const set = (selector, value) => { const field = form.querySelector(selector); if (field) field.value = value; };
        set("[name='Http.FirstVariantName']", chosen[0]);
        set("[name='Http.Url']", baseOf(chosen[0]) + path);
        rows.forEach((row, i) => {
            const agent = chosen[i + 1];
            row.querySelectorAll("[name]").forEach(field => { field.value = ""; }); // a row is the agent's alone: no method or body left from before
            set(`[name='Http.Variants[${i}].Name']`, agent ?? "");
            set(`[name='Http.Variants[${i}].Url']`, agent ? baseOf(agent) + path : "");
            if (agent) row.hidden = false;
        });
        form.querySelectorAll("#on-each-agents input[type=checkbox]").forEach(box => { box.checked = false; });
        form.querySelector("#on-each-typed").value = "";
        message.textContent = "";
        const url = form.querySelector("[name='Http.Url']");
        url?.dispatchEvent(new Event("change", { bubbles: true })); // the repeat's choices per variant follow (variants.js)
        url?.focus();
    });
}
