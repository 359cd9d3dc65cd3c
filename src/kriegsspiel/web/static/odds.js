// The odds calculator: every ruleset's actions from /api/odds, a form per action, exact odds as
// bars with fractions, one explained roll, and the placeholder values the answer used.
"use strict";
const $ = (id) => document.getElementById(id);
let catalogue = [];

function currentAction() {
  const rs = catalogue.find((r) => r.ruleset === $("ruleset").value);
  return rs && rs.actions.find((a) => a.name === $("action").value);
}

function kindFor(action, param) {
  const k = action.kinds || {};
  if (["firer", "weapon"].includes(param)) return (k.firer_kinds || [])[0];
  if (["target", "vehicle"].includes(param)) return (k.target_kinds || [])[0];
  return null;
}

function field(action, p) {
  const label = document.createElement("label");
  const input = document.createElement(p.choices ? "select" : "input");
  input.name = p.name;
  input.id = "p-" + p.name;
  if (p.type === "boolean") {
    label.className = "flag";
    input.type = "checkbox";
    input.checked = p.default === true;
    label.append(input, document.createTextNode(p.help || p.name));
    return label;
  }
  if (p.choices) {
    for (const c of p.choices) input.append(new Option(c, c, c === p.default, c === p.default));
  } else {
    input.type = p.type === "text" ? "search" : "number";
    if (p.type !== "text") {
      input.step = p.type === "integer" ? "1" : "any";
      if (p.min !== null && p.min !== undefined) input.min = p.min;
      if (p.max !== null && p.max !== undefined) input.max = p.max;
    }
    if (p.default !== null && p.default !== undefined) input.value = p.default;
    const kind = kindFor(action, p.name);
    if (kind) {
      const list = document.createElement("datalist");
      list.id = "list-" + p.name;
      input.setAttribute("list", list.id);
      input.addEventListener("input", () => suggest(kind, input, list));
      label.append(list);
    }
  }
  input.required = !!p.required;
  const title = document.createElement("span");
  title.textContent = p.name.replaceAll("_", " ") + (p.required ? " *" : "") + (p.help ? " — " + p.help : "");
  label.prepend(title, input);
  return label;
}

async function suggest(kind, input, list) {
  const q = input.value.trim();
  if (q.length < 2) return;
  const r = await fetch(`/api/odds/${$("ruleset").value}/names?kind=${kind}&q=${encodeURIComponent(q)}`);
  if (!r.ok) return;
  list.replaceChildren(...(await r.json()).map((n) => new Option(n.name, n.id)));
}

function showActions() {
  const rs = catalogue.find((r) => r.ruleset === $("ruleset").value);
  $("action").replaceChildren(...rs.actions.map((a) => new Option(a.name, a.name)));
  showParams();
}

function showParams() {
  const a = currentAction();
  $("help").textContent = a.help;
  $("params").replaceChildren(...a.params.map((p) => field(a, p)));
}

function collect() {
  const params = {};
  for (const p of currentAction().params) {
    const el = $("p-" + p.name);
    if (p.type === "boolean") params[p.name] = el.checked;
    else if (el.value !== "") params[p.name] = p.type === "text" || p.choices ? el.value : Number(el.value);
  }
  const options = $("options").value.split(",").map((s) => s.trim()).filter(Boolean);
  return { params, options };
}

function render(data) {
  $("result").hidden = false;
  $("title").textContent = data.query;
  $("bars").replaceChildren(
    ...data.outcomes.map((o) => {
      const li = document.createElement("li");
      li.dataset.outcome = o.outcome;
      const name = document.createElement("span");
      name.textContent = o.outcome.replaceAll("_", " ");
      const bar = document.createElement("span");
      bar.className = "bar";
      const fill = document.createElement("i");
      fill.style.width = (100 * o.p).toFixed(2) + "%";
      bar.append(fill);
      const frac = document.createElement("span");
      frac.className = "frac";
      frac.textContent = `${o.exact} (${(100 * o.p).toFixed(1)}%)`;
      li.append(name, bar, frac);
      return li;
    }),
  );
  $("method").textContent = data.method === "exact" ? "exact odds" : "estimated by Monte Carlo";
  const used = data.placeholders.concat(data.roll ? data.roll.placeholders : []);
  $("placeholders").hidden = used.length === 0;
  $("placeholders").textContent =
    "Uses placeholder values (not the rulebook's): " + [...new Set(used)].join(", ");
  $("explanation").replaceChildren(
    ...(data.roll ? [...data.roll.explanation, "result: " + data.roll.result] : []).map((t) => {
      const li = document.createElement("li");
      li.textContent = t;
      return li;
    }),
  );
}

function showError(text) {
  $("error").textContent = text;
  $("error").hidden = false;
}

// The page checks each field against the bounds the API publishes before asking, and names the
// field it refuses; the server checks again and its 422 names the field too.
function invalidField() {
  for (const p of currentAction().params) {
    const el = $("p-" + p.name);
    if (!el.checkValidity()) {
      el.focus();
      return `${p.name}: ${el.validationMessage}${p.help ? " — " + p.help : ""}`;
    }
  }
  return null;
}

async function ask(withRoll) {
  $("error").hidden = true;
  const refused = invalidField();
  if (refused) return showError(refused);
  const body = collect();
  if (withRoll) body.seed = Math.floor(Math.random() * 2 ** 31);
  const r = await fetch(`/api/odds/${$("ruleset").value}/${$("action").value}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const data = await r.json();
  if (!r.ok) {
    const d = data.detail || {};
    return showError((d.field ? d.field + ": " : "") + (d.reason || JSON.stringify(d)));
  }
  render(data);
}

async function start() {
  catalogue = await (await fetch("/api/odds")).json();
  $("ruleset").replaceChildren(...catalogue.map((r) => new Option(r.ruleset, r.ruleset)));
  $("ruleset").addEventListener("change", showActions);
  $("action").addEventListener("change", showParams);
  $("query").addEventListener("submit", (e) => { e.preventDefault(); ask(false); });
  $("roll").addEventListener("click", () => ask(true));
  showActions();
  document.body.dataset.ready = "1";
}
start();
