// The journey's step cards (_StepCard.cshtml): "Add a step" turns the one request's fields into step 1 and adds a card,
// "Remove" takes one away (the last gone, the one request's fields come back), a HAR file fills the cards from the
// server's conversion, a data file is read here into the form. Cards are renumbered after each change: the server
// binds Http.Steps[0..n] and keys its errors the same way. A file, not inline: the content policy runs only this site's scripts.
if (!window.stepsWired) {
    window.stepsWired = true;

    const journeyOf = element => element?.closest("form")?.querySelector("#journey");
    const cardsOf = journey => journey.querySelector("#step-cards");

    // The server's Http.Steps[i] names, ids and "Step n" labels follow the cards' order.
    const renumber = journey => {
        const cards = [...cardsOf(journey).querySelectorAll(".step-card")];
        cards.forEach((card, i) => {
            card.dataset.step = i;
            card.querySelector(".step-number").textContent = i + 1;
            card.querySelectorAll("[name]").forEach(field => field.name = field.name.replace(/^Http\.Steps\[[^\]]*\]/, `Http.Steps[${i}]`));
            card.querySelectorAll("[aria-label]").forEach(field => field.setAttribute("aria-label", field.getAttribute("aria-label").replace(/^(Remove step|Step) \S*/, `$1 ${i + 1}`)));
        });
        const form = journey.closest("form");
        form.querySelector("#single-request").hidden = cards.length > 0;
        journey.querySelector("#data-file").hidden = cards.length === 0;
        // One request takes no data file: a file left behind hidden would be refused where nobody sees why.
        if (cards.length === 0) clearDataFile(journey.querySelector("#data-file"));
    };

    const clearDataFile = box => {
        box.querySelector("[name='Http.Data.Name']").value = "";
        box.querySelector("[name='Http.Data.Content']").value = "";
        box.querySelector("#data-file-chosen").textContent = "";
        box.querySelector("#data-file-remove").hidden = true;
    };

    const secretNames = journey => new Set((journey.dataset.secretHeaders || "").split(",").filter(n => n));

    const markSecrets = (card, journey) => {
        const secrets = secretNames(journey);
        const text = card.querySelector("[data-field=Headers]").value;
        const found = [...new Set(text.split("\n").map(line => line.split(":")[0].trim()).filter(name => secrets.has(name.toLowerCase())))];
        card.querySelector(".secret-names").textContent = found.join(", ");
        card.querySelector(".secret-note").hidden = found.length === 0;
    };

    const json = value => value === undefined || value === null ? "" : JSON.stringify(value);

    // A step in the API's words (as /journeys/har answers) onto a new card.
    const addCard = (journey, step) => {
        const template = journey.querySelector("#step-template");
        const card = template.content.firstElementChild.cloneNode(true);
        const set = (field, value) => { card.querySelector(`[data-field=${field}]`).value = value ?? ""; };
        set("Name", step.name);
        set("Method", (step.method || "GET").toUpperCase());
        set("Url", step.url);
        set("Headers", step.headers ? Object.entries(step.headers).map(([name, value]) => `${name}: ${value}`).join("\n") : "");
        set("Body", step.body);
        set("Extract", json(step.extract));
        set("Checks", json(step.checks));
        set("ThinkTime", json(step.thinkTime));
        cardsOf(journey).appendChild(card);
        renumber(journey);
        markSecrets(card, journey);
        return card;
    };

    // "GET delay": the method and the URL's last path segment, as the HAR import names steps.
    const nameOf = (method, url, taken) => {
        let segment = "";
        try { segment = decodeURIComponent(new URL(url).pathname.split("/").filter(s => s).pop() || new URL(url).host); } catch { segment = ""; }
        const base = `${method} ${segment}`.replace(/[\/\u0000-\u001f]/g, "").trim().slice(0, 60) || "step";
        let name = base;
        for (let n = 2; taken.has(name); n++) name = `${base} ${n}`;
        return name;
    };

    const takenNames = journey => new Set([...journey.querySelectorAll("[data-field=Name]")].map(field => field.value.trim()));

    // The one request's fields become step 1 and are emptied: a journey's requests are its steps' only.
    const singleToFirstStep = (form, journey) => {
        const single = form.querySelector("#single-request");
        const field = name => single.querySelector(`[name='Http.${name}']`);
        const url = field("Url").value.trim();
        const method = field("Method").value || "GET";
        const headers = Object.fromEntries(field("Headers").value.split("\n").map(line => line.trim()).filter(line => line.includes(":"))
            .map(line => [line.slice(0, line.indexOf(":")).trim(), line.slice(line.indexOf(":") + 1).trim()]));
        addCard(journey, { name: nameOf(method, url, new Set()), method, url, headers, body: field("Body").value || null, checks: [{ status: 200 }] });
        field("Url").value = "";
        field("Method").value = "GET";
        field("Headers").value = "";
        field("Body").value = "";
    };

    document.addEventListener("click", event => {
        if (event.target.id === "data-file-remove") {
            clearDataFile(event.target.closest("#data-file"));
            return;
        }
        const add = event.target.closest?.("#add-step");
        if (add) {
            const journey = journeyOf(add), form = add.closest("form");
            if (cardsOf(journey).children.length === 0) singleToFirstStep(form, journey);
            const card = addCard(journey, { name: `step ${cardsOf(journey).children.length + 1}`, method: "GET", checks: [{ status: 200 }] });
            card.querySelector("[data-field=Url]").focus();
            return;
        }
        const remove = event.target.closest?.(".remove-step");
        if (remove) {
            const journey = journeyOf(remove), card = remove.closest(".step-card");
            card.remove();
            // The last card gone, its request goes back into the one request's fields rather than being lost.
            if (cardsOf(journey).children.length === 0) {
                const single = remove.ownerDocument.querySelector("#single-request");
                for (const field of ["Url", "Method", "Headers", "Body"])
                    single.querySelector(`[name='Http.${field}']`).value = card.querySelector(`[data-field=${field}]`).value;
            }
            renumber(journey);
        }
    });

    document.addEventListener("input", event => {
        if (event.target.matches?.(".step-card [data-field=Headers]")) markSecrets(event.target.closest(".step-card"), journeyOf(event.target));
    });

    const show = (box, lines) => {
        box.replaceChildren(...lines.map(line => { const p = document.createElement("p"); p.textContent = line; return p; }));
        box.hidden = lines.length === 0;
    };

    document.addEventListener("change", async event => {
        if (event.target.id === "har-file") {
            const input = event.target, journey = journeyOf(input), form = input.closest("form");
            const box = journey.querySelector("#har-result");
            const file = input.files?.[0];
            if (!file) return;
            show(box, [`Reading ${file.name}…`]);
            try {
                const keepStatic = journey.querySelector("#har-keep-static").checked;
                const response = await fetch(`/journeys/har?keepStatic=${keepStatic}`, {
                    method: "POST",
                    headers: { "Content-Type": "application/json", "RequestVerificationToken": form.querySelector("[name=__RequestVerificationToken]")?.value ?? "" },
                    body: await file.text(),
                });
                const answer = await response.json().catch(() => null);
                if (!response.ok) {
                    const errors = answer?.errors ? Object.entries(answer.errors).map(([field, messages]) => `${field}: ${messages.join(" ")}`) : [`The file was refused (${response.status}).`];
                    show(box, [`${file.name} was not imported:`, ...errors]);
                    return;
                }
                // The file's steps replace the cards and the one request: review them, then save.
                cardsOf(journey).replaceChildren();
                const single = form.querySelector("#single-request");
                single.querySelectorAll("input[type=text], textarea").forEach(field => field.value = "");
                single.querySelector("select").value = "GET";
                answer.steps.forEach(step => addCard(journey, step));
                renumber(journey);
                show(box, [`${answer.steps.length} step(s) from ${file.name}: review them before saving.`,
                    ...answer.skipped.map(s => `Left out: ${s.method} ${s.url}: ${s.reason}.`)]);
            } catch (error) {
                show(box, [`${file.name} could not be read: ${error.message}`]);
            } finally {
                input.value = "";
            }
            return;
        }
        if (event.target.id === "data-file-input") {
            const input = event.target, box = input.closest("#data-file");
            const file = input.files?.[0];
            if (!file) return;
            box.querySelector("[name='Http.Data.Name']").value = file.name;
            box.querySelector("[name='Http.Data.Content']").value = await file.text();
            if (/\.(jsonl|ndjson)$/i.test(file.name)) box.querySelector("[name='Http.Data.Format']").value = "jsonl";
            if (/\.csv$/i.test(file.name)) box.querySelector("[name='Http.Data.Format']").value = "csv";
            box.querySelector("#data-file-chosen").textContent = `${file.name} (${file.size.toLocaleString()} bytes)`;
            box.querySelector("#data-file-remove").hidden = false;
        }
    });
}
