// The army builder page: the server holds no roster (POST /api/army/...); this page keeps it,
// with undo/redo as a stack of rosters, shares it in the URL fragment and saves several in
// localStorage. Every edit answers with the roster's report, so totals and checks stay live.
"use strict";
const $ = (id) => document.getElementById(id);
const RULESET = "panzerfaust";
const STORE = "kriegsspiel.army.rosters";
const S = { ratings: {}, tree: [], byEntry: {}, roster: null, report: null, sheet: [], past: [], future: [], target: "" };

function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v === true ? "" : v);
  }
  e.append(...kids);
  return e;
}

function showError(msg) {
  $("error").textContent = msg || "";
  $("error").hidden = !msg;
}

async function api(method, url, body) {
  const r = await fetch(url, {
    method,
    headers: body ? { "content-type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  if (r.ok) return (r.headers.get("content-type") || "").includes("json") ? r.json() : r.text();
  let msg = `${r.status} ${r.statusText}`;
  try {
    const d = (await r.json()).detail;
    if (Array.isArray(d)) msg = d.map((e) => `${e.loc.filter((p) => p !== "body").join(".")}: ${e.msg}`).join("; ");
    else if (d && d.reason) msg = d.field ? `${d.field}: ${d.reason}` : d.reason;
    else if (d) msg = String(d);
  } catch (_) { /* not JSON */ }
  throw new Error(msg);
}

const kindOf = (row) => row.kind || row.entry.split(":")[0].replace(/_/g, " ");

// --- the organisation tree ------------------------------------------------------------------
async function loadTree(nation, date) {
  const q = new URLSearchParams({ nation, date });
  const t = await api("GET", `/api/army/${RULESET}/tree?${q}`);
  S.tree = t.entries;
  S.byEntry = {};
  const kinds = new Set();
  const walk = (rows) => rows.forEach((r) => {
    kinds.add(kindOf(r));
    if (r.children) { S.byEntry[r.entry] = r.children; walk(r.children); }
  });
  walk(S.tree);
  const sel = $("kind");
  const keep = sel.value;
  sel.replaceChildren(new Option("all kinds", ""), ...[...kinds].sort().map((k) => new Option(k, k)));
  sel.value = kinds.has(keep) ? keep : "";
}

function findSel(path) {
  let level = S.roster ? S.roster.selections : [];
  let found = null;
  for (const id of path.split("/").filter(Boolean)) {
    found = level.find((s) => s.id === id);
    if (!found) return null;
    level = found.children || [];
  }
  return found;
}

function matches(row, want, kind, onlyNow) {
  if (onlyNow && !row.available) return false;
  const self = (!want || row.name.toLowerCase().includes(want) || row.entry.toLowerCase().includes(want))
    && (!kind || kindOf(row) === kind);
  return self || (row.children || []).some((c) => matches(c, want, kind, false));
}

function availableRow(row, addable) {
  const pv = row.pv === null || row.pv === undefined ? "" : `${row.pv} PV${row.pv_provenance === "placeholder" ? " *" : ""}`;
  const line = el("div", { class: "row" + (row.available ? "" : " unavailable"), "data-entry": row.entry },
    el("span", { class: "label", text: row.name, title: row.entry }),
    el("span", { class: "tag", text: kindOf(row) }),
    el("span", { class: "pv", text: [pv, row.dates ? `(${row.dates})` : "", row.page || ""].filter(Boolean).join(" ") }));
  if (addable) {
    line.append(el("button", {
      type: "button", class: "small add", disabled: !S.roster || !row.available,
      title: row.available ? "add" : "not available at this date",
      onclick: () => edit("add", { path: S.target, entry: row.entry }), text: "Add",
    }));
  }
  const li = el("li", {}, line);
  if (row.children && row.children.length) {
    const inner = el("ul", {}, ...row.children.map((c) => availableRow(c, false)));
    li.replaceChildren(el("details", {}, el("summary", {}, line), inner));
  }
  return li;
}

function renderAvailable() {
  const target = S.target ? findSel(S.target) : null;
  const rows = target ? S.byEntry[target.entry] || [] : S.tree;
  $("target-label").textContent = target ? `inside ${target.name || labelOf(S.target)}` : "at top level";
  const want = $("search").value.trim().toLowerCase();
  const kind = $("kind").value;
  const onlyNow = $("only-now").checked;
  const shown = rows.filter((r) => matches(r, want, kind, onlyNow));
  $("available").replaceChildren(...shown.map((r) => availableRow(r, true)));
  if (!shown.length) $("available").append(el("li", { class: "muted", text: "nothing to add here" }));
}

// --- the roster -----------------------------------------------------------------------------
function labelOf(path) {
  const find = (nodes) => {
    for (const n of nodes) {
      if (n.path === path) return n.name;
      const hit = find(n.children || []);
      if (hit) return hit;
    }
    return null;
  };
  return find(S.sheet) || path;
}

function rosterRow(n, top) {
  const nests = /^(organisation|adhoc):/.test(n.entry);
  const flag = n.placeholder ? " *" : n.unpriced ? " ?" : "";
  const cost = top && n.cost !== null && n.cost !== undefined ? ` → ${n.cost} PV` : "";
  const line = el("div", { class: "row" + (S.target === n.path ? " target" : ""), "data-path": n.path },
    el("span", {
      class: "label", text: `${n.count > 1 ? n.count + " × " : ""}${n.name}`, title: nests ? "add inside this" : n.entry,
      onclick: () => { if (nests) { S.target = n.path; render(); } },
    }),
    el("span", { class: "pv", text: `${n.base_pv}${flag}${cost}` }));
  if (!nests) {
    line.append(el("input", {
      type: "number", class: "count", min: 1, max: 100, value: n.count, "aria-label": "count", style: "width:4.2rem",
      onchange: (e) => edit("count", { path: n.path, count: Number(e.target.value) }),
    }));
  } else {
    line.append(el("button", { type: "button", class: "small ghost dup", text: "Duplicate", onclick: () => edit("duplicate", { path: n.path }) }));
  }
  const ratings = top ? (S.ratings[S.roster.nation] || []) : [];
  if (ratings.length) {
    const pick = el("select", {
      class: "rating", "aria-label": "troop rating (p22)", title: "troop rating (p22)",
      onchange: (e) => edit("rating", { path: n.path, rating: e.target.value || null }),
    }, new Option("default rating", ""), ...ratings.map((r) => new Option(r.replace(/_/g, " "), r)));
    pick.value = findSel(n.path)?.rating || "";
    line.append(pick);
  }
  line.append(el("button", { type: "button", class: "small ghost remove", text: "Remove", onclick: () => edit("remove", { path: n.path }) }));
  const li = el("li", {}, line);
  if (n.children && n.children.length) li.append(el("ul", {}, ...n.children.map((c) => rosterRow(c, false))));
  return li;
}

function renderTotals() {
  const t = (S.report && S.report.totals) || {};
  const r = S.report || {};
  const over = r.limit && r.total_pv > r.limit;
  const item = (id, text, cls) => el("span", { id, class: cls || null, text });
  $("totals").replaceChildren(
    item("t-pv", `${r.total_pv ?? 0}${r.limit ? " / " + r.limit : ""} PV`, over ? "over" : null),
    item("t-teams", `${t.teams ?? 0} teams`),
    item("t-vehicles", `${t.vehicles ?? 0} vehicles`),
    item("t-capacity", `transport for ${t.transport_capacity ?? 0}`),
    item("t-companies", `companies: ${t.companies ?? 0}`),
    item("t-errors", `${(r.errors || []).length} errors, ${(r.warnings || []).length} warnings`));
}

function renderMessages() {
  const r = S.report || {};
  const items = [];
  for (const [sev, list] of [["error", r.errors], ["warning", r.warnings], ["info", r.info]]) {
    for (const m of list || []) {
      items.push(el("li", { class: sev, "data-code": m.code },
        `${sev}: ${m.path ? "[" + labelOf(m.path) + "] " : ""}${m.text}${m.page ? " (" + m.page + ")" : ""}`));
    }
  }
  $("messages").replaceChildren(...(items.length ? items : [el("li", { class: "info", text: "no remarks" })]));
}

function render() {
  if (S.target && !findSel(S.target)) S.target = "";
  $("roster").replaceChildren(...S.sheet.map((n) => rosterRow(n, true)));
  $("target-root").disabled = !S.target;
  renderAvailable();
  renderTotals();
  renderMessages();
  $("undo").disabled = !S.past.length;
  $("redo").disabled = !S.future.length;
  for (const id of ["print", "share", "save"]) $(id).disabled = !S.roster;
  document.body.dataset.revision = String(Number(document.body.dataset.revision || 0) + 1);
}

function accept(st, push = true) {
  if (push && S.roster) {
    S.past.push(S.roster);
    S.future = [];
    if (location.hash) history.replaceState(null, "", location.pathname); // the link is stale now
  }
  S.roster = st.roster;
  S.report = st.report;
  S.sheet = st.sheet;
  showError("");
  render();
}

async function edit(op, extra) {
  try {
    accept(await api("POST", `/api/army/${RULESET}/edit`, { roster: S.roster, op, ...extra }));
  } catch (e) { showError(e.message); }
}

async function revalidate(roster, push) {
  accept(await api("POST", `/api/army/${RULESET}/validate`, { roster }), push);
}

async function step(from, to) {
  if (!from.length) return;
  const roster = from.pop();
  to.push(S.roster);
  try {
    const tree = S.roster.date !== roster.date || S.roster.nation !== roster.nation;
    if (tree) await loadTree(roster.nation, roster.date);
    fillSetup(roster);
    await revalidate(roster, false);
  } catch (e) { showError(e.message); }
}

function fillSetup(roster) {
  $("nation").value = roster.nation;
  $("date").value = roster.date;
  $("points").value = roster.points ?? "";
  $("name").value = roster.name || "";
}

async function startNew(ev) {
  ev.preventDefault();
  try {
    const body = { nation: $("nation").value, date: $("date").value, name: $("name").value || null };
    if ($("points").value) body.points = Number($("points").value);
    const st = await api("POST", `/api/army/${RULESET}/new`, body);
    await loadTree(body.nation, body.date);
    S.target = "";
    accept(st);
    fillSetup(st.roster);
  } catch (e) { showError(e.message); }
}

async function changeMeta() {
  if (!S.roster) return;
  const roster = { ...S.roster, date: $("date").value, name: $("name").value || S.roster.name };
  roster.points = $("points").value ? Number($("points").value) : null;
  if ($("nation").value !== S.roster.nation) return; // another nation is a new roster
  try {
    if (roster.date !== S.roster.date) await loadTree(roster.nation, roster.date);
    await revalidate(roster, true);
  } catch (e) { showError(e.message); fillSetup(S.roster); }
}

// --- print, share, save ---------------------------------------------------------------------
async function printSheet() {
  // open the window within the click (popup blockers), then fill it with the html export
  const win = window.open("", "_blank");
  if (!win) { showError("the browser blocked the sheet's window: allow pop-ups for this page"); return; }
  try {
    const html = await api("POST", `/api/army/${RULESET}/export/html`, { roster: S.roster });
    win.location.href = URL.createObjectURL(new Blob([html], { type: "text/html" }));
  } catch (e) { win.close(); showError(e.message); }
}

function encode(roster) {
  const { snapshot, ...rest } = roster;
  const bytes = new TextEncoder().encode(JSON.stringify(rest));
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function decode(text) {
  const bin = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return JSON.parse(new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0))));
}

function share() {
  const url = `${location.origin}/army#r=${encode(S.roster)}`;
  history.replaceState(null, "", url);
  $("share-url").value = url;
  $("share-url").hidden = false;
  $("share-url").select();
  if (navigator.clipboard) navigator.clipboard.writeText(url).catch(() => {});
}

const saved = () => { try { return JSON.parse(localStorage.getItem(STORE) || "{}"); } catch (_) { return {}; } };

function refreshSaved() {
  const all = saved();
  $("saved").replaceChildren(new Option("Saved rosters…", ""), ...Object.keys(all).sort().map((k) => new Option(k, k)));
}

function save() {
  const all = saved();
  all[S.roster.name] = S.roster;
  localStorage.setItem(STORE, JSON.stringify(all));
  refreshSaved();
  $("saved").value = S.roster.name;
}

async function openRoster(roster) {
  try {
    await loadTree(roster.nation, roster.date);
    fillSetup(roster);
    S.target = "";
    await revalidate(roster, true);
  } catch (e) { showError(`cannot open this roster: ${e.message}`); }
}

async function fromLink() {
  // a share link: /army#r=<base64url of the roster's JSON>
  const m = location.hash.match(/^#r=(.*)$/);
  if (!m) return false;
  let roster = null;
  try { roster = decode(m[1]); } catch (_) { /* reported below */ }
  if (roster && typeof roster === "object") await openRoster(roster);
  else showError("the share link is damaged: it does not hold a roster");
  return true;
}

async function init() {
  try {
    const n = await api("GET", `/api/army/${RULESET}/nations`);
    $("ruleset-name").textContent = RULESET;
    for (const x of n.nations) S.ratings[x.id] = x.ratings;
    $("nation").replaceChildren(...n.nations.map((x) => new Option(x.name, x.id)));
    $("date").min = n.dates.min;
    $("date").max = n.dates.max;
    $("date").value = "1943-06";
    refreshSaved();
    if (!(await fromLink())) {
      await loadTree($("nation").value, $("date").value);
      render();
    }
  } catch (e) { showError(e.message); }
  document.body.dataset.ready = "1";
}

$("setup").addEventListener("submit", startNew);
for (const id of ["date", "points", "name"]) $(id).addEventListener("change", changeMeta);
$("undo").addEventListener("click", () => step(S.past, S.future));
$("redo").addEventListener("click", () => step(S.future, S.past));
$("print").addEventListener("click", printSheet);
$("share").addEventListener("click", share);
$("save").addEventListener("click", save);
$("saved").addEventListener("change", () => { const r = saved()[$("saved").value]; if (r) openRoster(r); });
$("delete-saved").addEventListener("click", () => {
  const all = saved();
  delete all[$("saved").value];
  localStorage.setItem(STORE, JSON.stringify(all));
  refreshSaved();
});
window.addEventListener("hashchange", fromLink);
$("target-root").addEventListener("click", () => { S.target = ""; render(); });
for (const id of ["search", "kind", "only-now"]) $(id).addEventListener("input", renderAvailable);
document.addEventListener("keydown", (e) => {
  if (!(e.ctrlKey || e.metaKey) || e.target.matches("input")) return;
  if (e.key === "z") { e.preventDefault(); step(S.past, S.future); }
  if (e.key === "y") { e.preventDefault(); step(S.future, S.past); }
});
init();
