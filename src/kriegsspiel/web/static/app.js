// Kriegsspiel browser table: plain JS, no build step. Everything shown comes from this seat's
// view (GET .../view or the WebSocket), its own odds previews and its own command acks.
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";
const $ = (sel) => document.querySelector(sel);

const S = {
  game: null, seat: null, token: null, view: null, ws: null, wsSeat: null,
  selected: null, pending: null, box: null, links: null, rulesets: {},
};

// what differs by ruleset (GET /api/rulesets: the registry's plug-in data): status flags,
// piece footprints by kind, the keys of a legal template that are not part of the command
function plugin() {
  return (S.view && S.rulesets[S.view.ruleset]) || { status_flags: [], footprints: {}, template_only: [] };
}
// a ruleset's own table code (web/static/table-<plugin>.js) registers itself here by the
// registry's `table_plugin` name: optional render(S, el) after each render, label(c) for a
// command template the generic label cannot tell apart, click(x, y) -> true when it took a tap
// on the table
const TABLE_PLUGINS = {};
function tablePlugin() { return TABLE_PLUGINS[plugin().plugin] || {}; }

// ------------------------------------------------------------------ helpers
function el(tag, attrs = {}, ...children) {
  const svg = ["svg", "g", "rect", "circle", "polygon", "polyline", "path", "text", "line", "title"].includes(tag);
  const node = svg ? document.createElementNS(SVGNS, tag) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "onclick") node.addEventListener("click", v);
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c);
  return node;
}

function toast(msg, ok = false) {
  const t = $("#toast");
  t.textContent = msg;
  t.className = ok ? "ok" : "";
  t.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { t.hidden = true; }, 4000);
}

function tokens(game) {
  try { return JSON.parse(localStorage.getItem(`ks-tokens:${game}`) || "{}"); } catch { return {}; }
}
function saveToken(game, seat, token) {
  const all = tokens(game);
  all[seat] = token;
  localStorage.setItem(`ks-tokens:${game}`, JSON.stringify(all));
}
// the games created or joined in this browser, newest first: {id, name, seats, at}
function savedGames() {
  try { return JSON.parse(localStorage.getItem("ks-games") || "[]"); } catch { return []; }
}
function rememberGame(entry) {
  const rest = savedGames().filter((g) => g.id !== entry.id);
  localStorage.setItem("ks-games", JSON.stringify([entry, ...rest].slice(0, 20)));
}
function linkOf(game, seat, token) {
  return `${location.origin}/?game=${game}&seat=${seat}${token ? `#token=${token}` : ""}`;
}

async function api(method, path, body, extra) {
  const headers = { "Content-Type": "application/json", ...(extra || {}) };
  if (S.token) headers["X-Token"] = S.token;
  const res = await fetch(`/api${path}`, { method, headers, body: body ? JSON.stringify(body) : undefined });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const d = data.detail;
    const reason = data.reason || (typeof d === "string" ? d : Array.isArray(d) ? d.map((x) => `${x.loc.join(".")}: ${x.msg}`).join("; ") : d && d.reason) || res.statusText;
    const err = new Error(data.field ? `${reason} (${data.field})` : reason);
    err.status = res.status;
    err.field = data.field;
    throw err;
  }
  return data;
}
const seatPath = (what) => `/games/${S.game}/seats/${S.seat}/${what}`;

function unitName(id) {
  const v = S.view;
  const u = [...v.units, ...v.enemies, ...v.last_known].find((x) => x.id === id);
  return u ? u.name : id;
}
function sideIndex(side) {
  return Math.max(0, (S.view.sides || []).findIndex((s) => s.id === side));
}
// a side's colour by its nation (the scenario's side.nation), not by its place in the list;
// a nation without a colour here, or two sides of one nation, fall back to the side order
const NATION_COLOURS = [
  [/^germ/, "#7d8a96"], [/^(usa|americ)/, "#7f8a4a"], [/^brit/, "#a88d5c"], [/^(ussr|russ|sov)/, "#a0524a"],
  [/^ital/, "#5f8f7a"], [/^japan/, "#c9a640"], [/^fran/, "#5a6fb0"], [/^(pol|fin|hung|rum|belg)/, "#8f6fa8"],
];
function sideColour(side) {
  const sides = S.view.sides || [];
  const of = (s) => { const n = (s && s.nation) || ""; const hit = NATION_COLOURS.find(([re]) => re.test(n)); return hit && hit[1]; };
  const mine = of(sides.find((x) => x.id === side));
  const clash = sides.filter((x) => of(x) && of(x) === mine).length > 1;
  return mine && !clash ? mine : `var(--side${sideIndex(side) % 2})`;
}
function sideName(side) {
  const s = (S.view.sides || []).find((x) => x.id === side);
  return s ? s.name : side;
}

// ------------------------------------------------------------------ start
async function start() {
  try {
    for (const r of await api("GET", "/rulesets")) S.rulesets[r.id] = r;
  } catch (e) { toast(`cannot load the rulesets: ${e.message}`); }
  const q = new URLSearchParams(location.search);
  S.game = q.get("game");
  const hash = new URLSearchParams(location.hash.slice(1));
  if (S.game && hash.get("token") && q.get("seat")) {
    saveToken(S.game, q.get("seat"), hash.get("token"));
    const known = savedGames().find((g) => g.id === S.game);
    rememberGame({ id: S.game, name: known ? known.name : S.game, at: Date.now(),
      seats: [...new Set([...(known ? known.seats : []), q.get("seat")])] });
    history.replaceState(null, "", `?game=${S.game}&seat=${q.get("seat")}`);
  }
  if (!S.game) return lobby();
  $("#play").hidden = false;
  setupBoard();
  await joinSeat(q.get("seat") || "spectator");
}

// "name=value name2=value2" (spaces or commas between): the server types and checks the values
function parseOptions(text) {
  const out = {};
  for (const pair of text.split(/[\s,]+/).filter(Boolean)) {
    const i = pair.indexOf("=");
    if (i < 1) throw new Error(`option ${pair}: expected name=value`);
    out[pair.slice(0, i)] = pair.slice(i + 1);
  }
  return out;
}

async function showOptions(ruleset) {
  try {
    const opts = await api("GET", `/rulesets/${ruleset}/options`);
    $("#option-list").textContent = "Options: " + opts.map((o) => `${o.name}=${o.default}` +
      (o.choices ? ` (${o.choices.join("|")})` : "")).join(", ");
  } catch (e) { $("#option-list").textContent = ""; }
}

async function lobby() {
  $("#lobby").hidden = false;
  const list = await api("GET", "/scenarios");
  const sel = $("#scenario");
  // every ruleset that has scenarios: the server lists only games it can start
  for (const s of list) {
    sel.append(el("option", { value: s.id, "data-ruleset": s.ruleset,
      text: `${s.name} (${s.sides.map((x) => x.name).join(" vs ")}) — ${s.ruleset}` }));
  }
  const rulesetOf = () => (list.find((x) => x.id === sel.value) || {}).ruleset;
  // who the server plays: nobody (every seat a player's) or one side (an AI seat)
  const aiChoices = () => {
    const sc = list.find((x) => x.id === sel.value);
    $("#ai").replaceChildren(el("option", { value: "", text: "nobody: every side is a player's" }),
      ...(sc ? sc.sides : []).map((x) => el("option", { value: x.id, text: `${x.name} (AI)` })));
  };
  sel.addEventListener("change", () => { showOptions(rulesetOf()); aiChoices(); });
  if (sel.value) showOptions(rulesetOf());
  aiChoices();
  renderSavedGames();
  $("#new-game").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      const body = { scenario: sel.value, options: parseOptions($("#options").value) };
      if ($("#seed").value !== "") body.seed = Number($("#seed").value);
      if ($("#ai").value) body.ai = [$("#ai").value];
      const g = await api("POST", "/games", body);
      for (const s of g.seats) saveToken(g.id, s.seat, s.token);
      rememberGame({ id: g.id, name: sel.selectedOptions[0].textContent, at: Date.now(), seats: g.seats.map((s) => s.seat) });
      location.href = `/?game=${g.id}&seat=${g.seats[0].seat}`;
    } catch (e) { toast(e.message); }
  });
}

async function joinSeat(seat) {
  S.seat = seat;
  S.token = seat === "spectator" ? null : tokens(S.game)[seat] || null;
  S.selected = null;
  S.pending = null;
  history.replaceState(null, "", `?game=${S.game}&seat=${seat}`);
  if (seat !== "spectator" && !S.token) return noToken(seat);
  try {
    S.view = await api("GET", seatPath("view"));
  } catch (e) {
    if (!S.view) return noToken(seat, e.message);
    toast(`cannot join as ${seat}: ${e.message}`);
    return;
  }
  $("#no-token").hidden = true;
  $("#play").hidden = false;
  S.box = null;
  render();
  connect();
}

function connect() {
  if (S.ws) { S.ws.onclose = null; S.ws.close(); }
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const qs = S.token ? `?token=${encodeURIComponent(S.token)}` : "";
  const ws = new WebSocket(`${proto}://${location.host}/api/games/${S.game}/ws${qs}`);
  const seat = S.seat;
  ws.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "view" && msg.seat === S.seat && newer(msg.view)) { take(msg.view); render(); }
  };
  ws.onclose = () => { if (S.seat === seat) setTimeout(connect, 1500); };
  S.ws = ws;
}

// ------------------------------------------------------------------ commands
function clean(template) {
  const c = {};
  const only = plugin().template_only;
  for (const [k, v] of Object.entries(template)) if (!only.includes(k) && !k.startsWith("_")) c[k] = v;
  return c;
}

// A view answered over HTTP and one pushed over the socket may arrive out of order: a view
// is taken only if the game has not moved on past it (its event count is not below ours).
function newer(view) {
  return !S.view || view.game.id !== S.view.game.id || view.game.events >= S.view.game.events;
}

// Take a newer view. When the step changed, a selection or a pending order belongs to the
// old step and is dropped, and every step change this seat did not ask for is told with its
// reason (the log's automatic entries since the old view).
function take(view) {
  const old = S.view;
  S.view = view;
  if (!old || old.game.step === view.game.step) return;
  S.selected = null;
  S.pending = null;
  const asked = S.asked === old.game.step;
  S.asked = null;
  const auto = view.log.filter((e) => e.index > (old.log.length ? old.log[old.log.length - 1].index : -1) &&
    e.type === "end_phase" && e.data && e.data.auto);
  const why = auto.map((e) => autoEnd(e)).join(" ");
  if (!asked || why) {
    const now = view.active.includes(S.seat) ? "your move" : `to move: ${view.active.map(sideName).join(", ") || "—"}`;
    S.notice = `${old.phase_title} → ${view.phase_title} (${now}).${why ? ` ${why}` : ""}`;
    toast(S.notice, true);
  }
}

// an automatic end of a step in plain words
function autoEnd(e) {
  const who = e.data.side ? sideName(e.data.side) : "nobody";
  return `${who} had nothing left to do${e.data.reason ? ` (${e.data.reason})` : ""}, so the step ended by itself.`;
}

async function send(cmd) {
  try {
    // a fresh idempotency key per command (a retry would reuse it) and the step it was given
    // at: if the game moved on meanwhile the server refuses it (409) instead of applying it
    const key = self.crypto && crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`;
    const extra = { "Idempotency-Key": key };
    if (S.view && S.view.game && S.view.game.step) extra["X-Step"] = S.view.game.step;
    const given = S.view.game.step;
    if (cmd.type === "end_phase") S.asked = given;
    let ack;
    try {
      ack = await api("POST", seatPath("commands"), cmd, extra);
    } catch (e) {
      if (e.status !== 409 || e.field !== "step") throw e;
      // a click on a step that is over: nothing was done; show the game as it is now
      S.asked = null;
      const now = await api("GET", seatPath("view"));
      if (newer(now)) take(now);
      render();
      toast(`Not done: the game moved on before this click (now ${S.view.phase_title}). Look again and choose.`);
      return;
    }
    S.pending = null;
    const lines = ack.events.filter((e) => e.explanation.length).length;
    toast(`done: ${cmd.type}${lines ? ` (${lines} explained in the log)` : ""}`, true);
    const view = await api("GET", seatPath("view"));
    if (newer(view)) take(view);
    render();
  } catch (e) { S.asked = null; toast(e.message); }
}

async function preview(template) {
  const cmd = clean(template);
  try {
    const odds = await api("POST", seatPath("odds"), cmd);
    S.pending = { cmd, odds };
  } catch (e) {
    S.pending = { cmd, odds: null, reason: e.message };
  }
  renderOdds();
  renderTable();
  renderInput();  // table-input.js: weapon and fire group
}

function choose(template) {
  S.notice = null;
  if ("max" in template) return startMove(template);  // table-input.js
  if (template.target) return preview(template);
  if (template.type === "end_phase") {
    const left = S.view.legal.filter((c) => c.type !== "end_phase");
    if (left.length) {
      S.pending = { confirmEnd: template, left };
      S.selected = null;
      return renderAll();
    }
  }
  return send(clean(template));
}

// ------------------------------------------------------------------ render
function render() { renderBar(); renderAll(); }
function renderAll() {
  renderTable(); renderCard(); renderActions(); renderOdds(); renderLog(); renderLinks(); renderInput();
  if (typeof infoRender === "function") infoRender();  // table-info.js: cards, tools, legend, briefing
  const own = tablePlugin().render;  // the ruleset's own table code (table-<plugin>.js)
  if (own) own(S, el);
}

function renderBar() {
  const v = S.view;
  const ph = $("#phase");
  ph.replaceChildren();
  ph.append(el("span", { class: "pill", text: `Turn ${v.turn}${v.turn_limit ? ` / ${v.turn_limit}` : ""}` }));
  ph.append(el("span", { class: "pill", id: "phase-title", text: v.phase_title }));
  if (v.outcome || v.result) {
    const r = v.outcome || v.result;
    ph.append(el("span", { class: "pill over", text: `Game over: ${outcomeWords(r)}` }));
  } else {
    const mine = v.active.includes(S.seat);
    ph.append(el("span", { class: `pill${mine ? " you" : ""}`, id: "to-move",
      text: mine ? "Your move" : `To move: ${v.active.map(sideName).join(", ") || "—"}` }));
  }
  if (v.prompt) {  // a reaction prompt (engine/flow.py): asked of this seat, or awaited by it
    const waiting = v.prompt.kind === "waiting";
    ph.append(el("span", { class: `pill${waiting ? "" : " you"}`, id: "prompt",
      text: waiting ? `Waiting for ${sideName(v.prompt.for)}'s answer` : `React? (${v.prompt.kind.replaceAll("_", " ")})` }));
  }
  const seats = $("#seats");
  seats.replaceChildren();
  const known = tokens(S.game);
  for (const seat of [...v.sides.map((s) => s.id), "umpire", "spectator"]) {
    if (seat !== "spectator" && !known[seat]) continue;
    const label = seat === "umpire" ? "Umpire" : seat === "spectator" ? "Spectator" : sideName(seat);
    seats.append(el("button", { type: "button", class: seat === S.seat ? "active" : null, "data-seat": seat,
      text: label, onclick: () => joinSeat(seat) }));
  }
}

function retreating() {
  const out = new Set();
  for (const e of S.view.log) if (e.data && e.data.cause === "retreat" && e.data.unit) out.add(e.data.unit);
  return out;
}

function flags(u, retreats) {
  const f = [];
  for (const [letter, key] of plugin().status_flags) if (u[key]) f.push([key, letter]);
  if (retreats.has(u.id)) f.push(["retreating", "R"]);
  if (u.removed) f.push(["removed", "X"]);
  return f;
}

const STATUS_COLOURS = { suppressed: "#e0b930", damaged: "#ff7b5c", tracked: "#b796e0", retreating: "#6fb1ff", removed: "#999" };

// table (x, y) -> screen: y grows up the table, so flip it
const sx = (x) => x;
const sy = (y) => S.view.table.depth - y;

function footprint(u) {
  const fp = plugin().footprints;
  const [w, h] = fp[u.kind] || fp["*"] || [2.0, 1.0];
  return { w, h };
}

function unitMarker(u, cls, retreats) {
  const colour = sideColour(u.side);
  const { w, h } = footprint(u);
  const g = el("g", { class: cls, "data-unit": u.id, transform: `translate(${sx(u.x)} ${sy(u.y)})` });
  const body = el("g", { transform: `rotate(${u.facing || 0})` });
  body.append(el("circle", { class: "ring", r: Math.max(w, h) * 0.75 }));
  body.append(el("rect", { class: "body", x: -w / 2, y: -h / 2, width: w, height: h, rx: 0.2, fill: colour }));
  body.append(el("polygon", { class: "nose", points: `0,${-h / 2 - 0.7} ${-0.35},${-h / 2 + 0.05} ${0.35},${-h / 2 + 0.05}` }));
  if (u.kind !== "vehicle") body.append(el("line", { x1: -w / 2, y1: -h / 2, x2: w / 2, y2: h / 2, stroke: "#111", "stroke-width": 0.1 }));
  g.append(body);
  if (!u.removed) g.append(el("text", { class: "name", x: 0, y: Math.max(w, h) * 0.75 + 1, "text-anchor": "middle", text: u.name }));
  else if (u.kind === "vehicle") {  // a knocked-out vehicle stays on the table as a wreck
    const r = Math.max(w, h) * 0.6;
    g.append(el("g", { class: "wreck", "data-wreck": u.id },
      el("circle", { r }), el("line", { x1: -r * 0.7, y1: -r * 0.7, x2: r * 0.7, y2: r * 0.7 }),
      el("line", { x1: -r * 0.7, y1: r * 0.7, x2: r * 0.7, y2: -r * 0.7 }),
      el("title", { text: `wreck of ${u.name}` })));
  }
  flags(u, retreats).forEach(([name, letter], i) => {
    g.append(el("text", { class: "status", x: w + 0.2 + i * 0.75, y: -h / 2, fill: STATUS_COLOURS[name] || "#ddd", text: letter },
      el("title", { text: name })));
  });
  g.append(el("title", { text: `${u.name} (${u.type})` }));
  return g;
}

function fitBox() {
  const t = S.view.table;
  return { x: -2, y: -2, w: t.width + 4, h: t.depth + 4 };
}

function renderTable() {
  const svg = $("#table");
  const v = S.view;
  if (!S.box) S.box = fitBox();
  setBox();
  svg.replaceChildren();
  svg.append(el("rect", { class: "edge", x: 0, y: 0, width: v.table.width, height: v.table.depth }));
  const order = { hill: 0, wheatfield: 1, woods: 2, road: 3, stream: 3, hulldown: 4, building: 5 };
  const terrain = [...v.terrain].sort((a, b) => (order[a.kind] ?? 3) - (order[b.kind] ?? 3));
  for (const f of terrain) {
    const cls = `t-${f.kind}`;
    if (f.polygon) {
      svg.append(el("polygon", { class: cls, points: f.polygon.map(([x, y]) => `${sx(x)},${sy(y)}`).join(" ") },
        el("title", { text: `${f.id}: ${f.kind}${f.height ? `, height ${f.height}` : ""}` })));
      if (["woods", "hill", "building"].includes(f.kind) && f.kind !== "building") {
        const [cx, cy] = centroid(f.polygon);
        svg.append(el("text", { class: "t-label", x: sx(cx), y: sy(cy), "text-anchor": "middle", text: f.kind }));
      }
    } else if (f.line) {
      const w = f.kind === "road" ? f.width || 1.5 : f.kind === "stream" ? f.width || 0.8 : Math.max(f.width || 0.3, 0.3);
      svg.append(el("polyline", { class: cls, "stroke-width": w, points: f.line.map(([x, y]) => `${sx(x)},${sy(y)}`).join(" ") },
        el("title", { text: `${f.id}: ${f.kind}${f.attributes && f.attributes.ford ? " (ford)" : ""}` })));
    }
  }
  for (const o of v.objectives) {
    svg.append(el("g", { class: "objective" },
      el("circle", { cx: sx(o.x), cy: sy(o.y), r: o.radius || 2 }),
      el("text", { x: sx(o.x), y: sy(o.y) + 0.4, "text-anchor": "middle", text: `★ ${o.name}` })));
  }
  const sel = S.selected && v.units.find((u) => u.id === S.selected);
  const move = S.pending && S.pending.move;
  drawInput(svg);  // table-input.js: reach cells, waypoints, aim point
  const retreats = retreating();
  for (const m of v.last_known) {
    const g = el("g", { class: "ghost", "data-ghost": m.id, transform: `translate(${sx(m.x)} ${sy(m.y)})` });
    g.append(el("rect", { class: "body", x: -1, y: -1, width: 2, height: 2, rx: 0.3, transform: `rotate(${m.facing || 0})` }));
    g.append(el("text", { x: 0, y: 0.3, "text-anchor": "middle", text: "?" }));
    g.append(el("text", { x: 0, y: 2.2, "text-anchor": "middle", text: `${m.name}, turn ${m.turn}` }));
    svg.append(g);
  }
  const target = S.pending && S.pending.cmd && S.pending.cmd.target;
  for (const u of [...v.enemies, ...v.units]) {
    const cls = ["unit", u.id === S.selected ? "selected" : "", u.id === target ? "target" : "", u.removed ? "removed" : ""].join(" ");
    const g = unitMarker(u, cls, retreats);
    g.addEventListener("click", (ev) => { ev.stopPropagation(); if (!S.dragged) clickUnit(u); });
    svg.append(g);
  }
  svg.classList.toggle("targeting", Boolean(move));
  $("#hint").textContent = move ? moveHint(move) : "";
  // the hint goes to the half of the board away from the moving unit, never over it
  $("#hint").classList.toggle("top", Boolean(sel) && sy(sel.y) > S.box.y + S.box.h / 2);
}

function centroid(points) {
  const n = points.length;
  return [points.reduce((a, p) => a + p[0], 0) / n, points.reduce((a, p) => a + p[1], 0) / n];
}

function legalFor(unitId) {
  return S.view.legal.filter((c) => c.unit === unitId || c.target === unitId);
}

function clickUnit(u) {
  if (tapUnit(u)) return;  // table-input.js: an aim point
  const mine = S.view.units.some((x) => x.id === u.id);
  if (!mine && S.selected) {
    const fire = S.view.legal.find((c) => c.unit === S.selected && c.target === u.id);
    if (fire) return preview(fire);
  }
  if (S.pending && S.pending.move && S.pending.move.unit === u.id) S.pending = null;
  S.selected = u.id;
  if (S.pending && !S.pending.move) S.pending = null;
  renderAll();
}

function clickTable(x, y) {
  const own = tablePlugin().click;  // the ruleset's own table code takes the tap first
  if (own && own(x, y)) return;
  tapTable(x, y);  // table-input.js
}
const round = (n) => Math.round(n * 10) / 10;

const CARD_COMMON = ["id", "side", "type", "kind", "x", "y", "facing", "name"];

function renderCard() {
  const body = $("#card .body");
  body.replaceChildren();
  const v = S.view;
  const u = [...v.units, ...v.enemies].find((x) => x.id === S.selected);
  if (!u) { body.className = "body muted"; body.textContent = "Tap a unit to see its card."; return; }
  body.className = "body";
  body.append(el("div", { class: "title", text: u.name }));
  const fl = el("div", { class: "flags" });
  for (const [name] of flags(u, retreating())) fl.append(el("span", { class: `flag ${name}`, text: name }));
  body.append(fl);
  const dl = el("dl");
  const rows = [["id", u.id], ["side", sideName(u.side)], ["type", u.type], ["kind", u.kind],
    ["position", `${u.x.toFixed(1)}, ${u.y.toFixed(1)}`], ["facing", `${Math.round(u.facing)}°`]];
  // whatever else the ruleset tells of a piece (envelope: a piece's own keys), one row each
  const shown = new Set([...CARD_COMMON, ...plugin().status_flags.map((f) => f[1])]);
  for (const [k, val] of Object.entries(u)) {
    if (shown.has(k) || val === null || val === undefined || val === false || typeof val === "object") continue;
    const text = k === "transport" ? unitName(val) : typeof val === "number" ? String(+val.toFixed(2)) : val;
    rows.push([k.replaceAll("_", " "), text]);
  }
  for (const [k, val] of rows) dl.append(el("dt", { text: k }), el("dd", { text: String(val) }));
  body.append(dl);
}

function label(c) {
  const own = tablePlugin().label && tablePlugin().label(c);
  if (own) return own;
  const parts = [c.type.replaceAll("_", " ")];
  if (c.unit) parts.push(unitName(c.unit));
  if (c.target) parts.push(`→ ${unitName(c.target)}`);
  if (c.suppressive) parts.push("(suppressive)");
  if (c.side_a) return `side A: ${sideName(c.side_a)}`;
  if (c.type === "hatches") return c._all === false ? "open all hatches" : c._all === true ? "button up all hatches" : "swap hatches";
  if (c.max !== undefined) parts.push(`(≤ ${c.max.toFixed(1)}${unitMark()})`);
  if (c.x !== undefined && c.y !== undefined) parts.push(`to (${c.x}, ${c.y})`);
  if (c.edge) parts.push(`by the ${c.edge} edge`);
  return parts.join(" ");
}

// the table's unit as a mark after a distance (the envelope's table.unit: inch or cm)
function unitMark() { return S.view.table.unit === "cm" ? " cm" : "″"; }

function renderActions() {
  const body = $("#actions .body");
  body.replaceChildren();
  const legal = S.view.legal;
  if (S.notice) body.append(el("div", { class: "notice", id: "step-notice", text: S.notice }));
  inputActions(body);  // table-input.js: undo, calls for fire
  if (!legal.length) {
    body.append(el("span", { class: "muted", text: S.seat === "umpire" || S.seat === "spectator" ? "This seat watches." : "Nothing to do now: waiting for the other side." }));
    return;
  }
  // every unit that can act keeps its group; a selected unit's group comes first
  const units = [...new Set(legal.filter((c) => c.unit).map((c) => c.unit))];
  if (S.selected && units.includes(S.selected)) units.sort((a, b) => (b === S.selected) - (a === S.selected));
  const groups = units.map((u) => [unitName(u), legal.filter((c) => c.unit === u), u]);
  groups.push(["Phase", legal.filter((c) => !c.unit).flatMap(choices), null]);
  for (const [title, cmds, unit] of groups) {
    if (!cmds.length) continue;
    body.append(el("div", { class: `group${unit && unit === S.selected ? " chosen" : ""}`, "data-group": unit || "phase", text: title }));
    for (const c of cmds) {
      body.append(el("button", { type: "button", class: c.type === "end_phase" ? "primary" : null, "data-cmd": c.type,
        "data-unit-cmd": c.unit || null, text: label(c), onclick: () => choose(c) }));
    }
  }
}

// a template may stand for several commands the page offers one by one: the hatches
// template (a toggle of every vehicle) becomes "button up all" and "open all", each
// offered only when it changes something
function choices(c) {
  if (c.type === "call_fire") return [];  // offered by observer in table-input.js
  if (c.type !== "hatches") return [c];
  const ids = Object.keys(c.buttoned);
  const now = Object.fromEntries(ids.map((id) => [id, !c.buttoned[id]]));
  const all = (value) => ({ type: "hatches", buttoned: Object.fromEntries(ids.map((id) => [id, value])), _all: value });
  return [all(true), all(false)].filter((x) => ids.some((id) => now[id] !== x.buttoned[id]));
}

function renderOdds() {
  const panel = $("#odds");
  const p = S.pending;
  if (!p || p.move || p.arty) { panel.hidden = true; return; }
  panel.hidden = false;
  const body = panel.querySelector(".body");
  body.replaceChildren();
  if (p.confirmEnd) {  // ending a step with actions left: say what is given up, then ask
    const who = [...new Set(p.left.map((c) => (c.unit ? unitName(c.unit) : label(c))))];
    body.append(el("p", { id: "end-warning", text: `${p.left.length} action${p.left.length > 1 ? "s" : ""} left (${who.join(", ")}). End ${S.view.phase_title} anyway?` }));
    body.append(el("div", { class: "buttons" },
      el("button", { type: "button", class: "danger", id: "confirm-end", text: "End the step", onclick: () => send(clean(p.confirmEnd)) }),
      el("button", { type: "button", id: "cancel-end", text: "Keep playing", onclick: () => { S.pending = null; renderAll(); } })));
    return;
  }
  body.append(el("div", { class: "title", text: label(p.cmd) }));
  if (p.odds) {
    const bars = el("div", { class: "bars" });
    for (const [name, prob] of Object.entries(p.odds.outcomes).sort((a, b) => b[1] - a[1])) {
      bars.append(el("div", { class: "bar", "data-outcome": name },
        el("span", { text: name }),
        el("span", { class: "track" }, el("span", { class: "fill", style: `width:${(prob * 100).toFixed(1)}%; display:block` })),
        el("span", { class: "frac", text: `${(prob * 100).toFixed(1)}% (${p.odds.exact[name]})` })));
    }
    body.append(bars);
    if (p.odds.placeholders && p.odds.placeholders.length) body.append(el("p", { class: "muted", text: `uses placeholder data: ${p.odds.placeholders.join(", ")}` }));
  } else {
    body.append(el("p", { class: "muted", text: `no odds preview: ${p.reason}` }));
  }
  body.append(el("div", { class: "buttons" },
    el("button", { type: "button", class: "danger", id: "confirm", text: "Commit", onclick: () => send(p.cmd) }),
    el("button", { type: "button", text: "Cancel", onclick: () => { S.pending = null; renderAll(); } })));
}

// a result as a sentence: "Germany wins (turn limit reached)", "a draw (turn limit reached)"
function outcomeWords(r) {
  return `${r.winner ? `${sideName(r.winner)} wins` : "a draw"}${r.reason ? ` (${r.reason})` : ""}`;
}

function describe(e) {
  const d = e.data || {};
  if (e.type === "game_over") return outcomeWords(d);
  const bits = [];
  for (const key of ["unit", "target", "observer"]) if (typeof d[key] === "string") bits.push(unitName(d[key]));
  if (d.phase) bits.push(`turn ${d.turn}: ${d.title || phaseWords(d.phase)}`);
  if (e.type === "phase" && d.reason) bits.push(d.reason);
  if (d.winner) bits.push(`winner ${sideName(d.winner)}`);
  if (d.result) bits.push(String(d.result));
  if (d.outcome) bits.push(String(d.outcome));
  return bits.join(" · ");
}

// a phase id in words: the view's title when it is the current phase, else its id spelled out
function phaseWords(id) {
  if (id === S.view.phase) return S.view.phase_title;
  const w = id.replaceAll("_", " ");
  return w.charAt(0).toUpperCase() + w.slice(1);
}

// explanation lines with measured distances rounded to a tenth (21.9317" -> 21.9")
const rounded = (line) => line.replace(/\d+\.\d{2,}(?=["″]|\s?cm\b)/g, (n) => Number(n).toFixed(1));

function renderLog() {
  const list = $("#log ol");
  const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 8;
  list.replaceChildren();
  for (const e of S.view.log) {
    if (e.type === "results_applied" && !e.explanation.length) continue;
    const auto = e.type === "end_phase" && e.data && e.data.auto;
    const li = el("li", { class: auto ? "auto" : null, style: e.side ? `border-color: ${sideColour(e.side)}` : null, "data-event": e.index });
    const head = auto ? `step ended by itself — ${autoEnd(e)}`
      : `${e.type.replaceAll("_", " ")}${e.side ? ` (${sideName(e.side)})` : ""}${describe(e) ? " — " + describe(e) : ""}`;
    li.append(el("div", { class: "head" }, el("span", { class: "n", text: `#${e.index}` }), head));
    if (e.explanation.length) li.append(el("ul", {}, ...e.explanation.map((x) => el("li", { text: rounded(x) }))));
    list.append(li);
  }
  if (atEnd) list.scrollTop = list.scrollHeight;
}

// the join links of the seats this browser holds (kept in localStorage), and the spectator's
function renderLinks() {
  const panel = $("#links");
  const known = tokens(S.game);
  const seats = Object.keys(known);
  if (!seats.length) { panel.hidden = true; return; }
  panel.hidden = false;
  const body = panel.querySelector(".body");
  body.replaceChildren();
  for (const seat of seats) {
    body.append(el("label", { text: seat === "umpire" ? "Umpire" : sideName(seat) },
      el("input", { readonly: "", value: linkOf(S.game, seat, known[seat]) })));
  }
  body.append(el("label", { text: "Spectator" }, el("input", { readonly: "", value: linkOf(S.game, "spectator") })));
}

// the lobby's list of games this browser created or joined, each seat a link
function renderSavedGames() {
  const list = $("#saved ul");
  list.replaceChildren();
  const games = savedGames();
  $("#saved").hidden = !games.length;
  for (const g of games) {
    const known = tokens(g.id);
    const li = el("li", { "data-game": g.id }, el("span", { class: "name", text: g.name }),
      el("span", { class: "muted", text: ` ${new Date(g.at).toLocaleString()}` }));
    const links = el("span", { class: "links" });
    for (const seat of [...Object.keys(known), "spectator"]) {
      links.append(el("a", { href: linkOf(g.id, seat, known[seat]), "data-seat": seat, text: seat }));
    }
    li.append(links);
    list.append(li);
  }
}

// a seat asked for without its token: say how to get in instead of showing an empty table
function noToken(seat, reason) {
  $("#play").hidden = true;
  const box = $("#no-token");
  box.hidden = false;
  box.querySelector(".seat").textContent = seat;
  box.querySelector(".reason").textContent = reason ? `The server said: ${reason}.` : "";
  box.querySelector("#watch").href = `/?game=${S.game}&seat=spectator`;
}

// ------------------------------------------------------------------ pan and zoom
function setBox() {
  const b = S.box;
  $("#table").setAttribute("viewBox", `${b.x} ${b.y} ${b.w} ${b.h}`);
}

function toTable(svg, clientX, clientY) {
  const pt = svg.createSVGPoint();
  pt.x = clientX;
  pt.y = clientY;
  const p = pt.matrixTransform(svg.getScreenCTM().inverse());
  return [p.x, S.view.table.depth - p.y];
}

function zoom(factor, cx, cy) {
  const b = S.box;
  const nw = Math.min(Math.max(b.w * factor, 6), 400);
  const f = nw / b.w;
  const px = cx ?? b.x + b.w / 2;
  const py = cy ?? b.y + b.h / 2;
  S.box = { x: px - (px - b.x) * f, y: py - (py - b.y) * f, w: b.w * f, h: b.h * f };
  setBox();
}

function setupBoard() {
  const svg = $("#table");
  $("#zoom-in").onclick = () => zoom(0.8);
  $("#zoom-out").onclick = () => zoom(1.25);
  $("#zoom-fit").onclick = () => { S.box = fitBox(); setBox(); };
  svg.addEventListener("wheel", (ev) => {
    ev.preventDefault();
    const [x, y] = toTable(svg, ev.clientX, ev.clientY);
    zoom(ev.deltaY > 0 ? 1.15 : 1 / 1.15, x, S.view.table.depth - y);
  }, { passive: false });
  let drag = null;
  const touches = new Map(); // pointerId -> [clientX, clientY], for two-finger pinch
  let pinch = null;
  const spread = () => { const [a, b] = [...touches.values()]; return Math.hypot(a[0] - b[0], a[1] - b[1]); };
  svg.addEventListener("pointerdown", (ev) => {
    touches.set(ev.pointerId, [ev.clientX, ev.clientY]);
    if (touches.size === 2) { pinch = { d: spread(), box: { ...S.box } }; drag = null; S.dragged = true; return; }
    drag = { x: ev.clientX, y: ev.clientY, box: { ...S.box }, id: ev.pointerId };
    S.dragged = false;
  });
  svg.addEventListener("pointermove", (ev) => {
    if (touches.has(ev.pointerId)) touches.set(ev.pointerId, [ev.clientX, ev.clientY]);
    if (pinch && touches.size === 2) {
      const [a, b] = [...touches.values()];
      S.box = { ...pinch.box };
      setBox();
      const [cx, cy] = toTable(svg, (a[0] + b[0]) / 2, (a[1] + b[1]) / 2);
      zoom(pinch.d / Math.max(spread(), 1), cx, S.view.table.depth - cy);
      return;
    }
    if (!drag || ev.pointerId !== drag.id) return;
    const dx = ev.clientX - drag.x;
    const dy = ev.clientY - drag.y;
    if (!S.dragged && Math.hypot(dx, dy) < 6) return;
    if (!S.dragged) svg.setPointerCapture(ev.pointerId);
    S.dragged = true;
    svg.classList.add("dragging");
    const scale = drag.box.w / svg.clientWidth;
    S.box = { ...drag.box, x: drag.box.x - dx * scale, y: drag.box.y - dy * scale };
    setBox();
  });
  const end = (ev) => {
    touches.delete(ev.pointerId);
    if (touches.size < 2) pinch = null;
    drag = null;
    svg.classList.remove("dragging");
    setTimeout(() => { S.dragged = false; }, 0);
  };
  svg.addEventListener("pointerup", end);
  svg.addEventListener("pointercancel", end);
  svg.addEventListener("click", (ev) => {
    if (S.dragged) return;
    const [x, y] = toTable(svg, ev.clientX, ev.clientY);
    clickTable(x, y);
  });
}

document.addEventListener("DOMContentLoaded", start);  // after table-input.js has loaded
