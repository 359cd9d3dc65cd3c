// Panzerfaust's browser table plug-in (issue 19 item 6): plain functions, no build step.
// Reads only this seat's view (its `panzerfaust` section: companies with pips, platoons with
// members, the markers this side may see, whose turn it is in phases F and G) and adds:
// the phase letter and pips to the phase bar, a company -> platoon panel (a platoon chosen
// highlights its teams on the table), covering-fire / beaten-zone / smoke / mine templates drawn
// on the table, a waypoint route for a team (each leg's cm and the fraction of the whole path
// at each waypoint, as backtracking counts it) and labels that tell platoon orders and
// backtracking shots apart.
"use strict";

// the chosen platoon; a route being planned: {unit, points: [[x, y], ...]} (phase F)
const PF = { platoon: null, route: null };

// a marker kind's class and words (state.py Marker.kind)
const PF_MARKERS = {
  cf: "covering fire", poa: "point of aim", bz: "beaten zone", smoke: "smoke", mines: "minefield",
  wreck: "wreck",
};

function pfSection(S) { return S.view.panzerfaust || { companies: [], platoons: [], markers: [] }; }

// "F: movement" -> ["F", "movement"]; set-up and other ids without a letter keep their title
function pfPhase(title) {
  const m = /^([A-I]): (.*)$/.exec(title || "");
  return m ? [m[1], m[2]] : [null, title];
}

function pfPlatoonName(S, id) {
  const p = pfSection(S).platoons.find((x) => x.id === id);
  return p ? p.name : id;
}

function pfRenderBar(S, el) {
  const pf = pfSection(S);
  const bar = document.querySelector("#phase");
  for (const old of bar.querySelectorAll(".pf-pill")) old.remove();  // renderAll runs often
  const [letter] = pfPhase(S.view.phase_title);
  if (letter) bar.prepend(el("span", { class: "pill pf-pill pf-letter", id: "pf-letter", text: letter }));
  for (const c of pf.companies) {
    bar.append(el("span", { class: "pill pf-pill pf-pips", "data-company": c.id,
      text: `${c.name}: ${c.pips - c.spent} of ${c.pips} pips${c.finished ? " (done)" : ""}` }));
  }
  if (pf.platoon_moving) bar.append(el("span", { class: "pill pf-pill you", id: "pf-moving", text: `moving: ${pfPlatoonName(S, pf.platoon_moving)}` }));
  if (pf.to_fire) bar.append(el("span", { class: "pill pf-pill you", id: "pf-to-fire", text: `to fire: ${S.view.units.find((u) => u.id === pf.to_fire)?.name || pf.to_fire}` }));
  // exit goals (p5 breakthrough): this side's progress; of the enemy's, the goal alone (P258)
  for (const x of pf.exit || []) {
    const own = x.side === S.seat;
    bar.append(el("span", { class: `pill pf-pill pf-exit${own && x.reached ? " you" : ""}`, "data-exit": x.side,
      title: x.text, text: `${own ? "your" : `${x.side}'s`} exit by the ${x.edge} edge — ${x.text}` }));
  }
}

// company -> platoon -> teams; a platoon button highlights its teams on the table
function pfRenderCompanies(S, el) {
  const pf = pfSection(S);
  const panel = document.querySelector("#pf");
  panel.hidden = !pf.companies.length;
  const body = panel.querySelector(".body");
  body.replaceChildren();
  for (const c of pf.companies) {
    const box = el("div", { class: "pf-company", "data-company": c.id },
      el("div", { class: "title", text: `${c.name} · ${c.troop_class}, ${c.morale}${c.status !== "ok" ? ` · ${c.status}` : ""}` }));
    for (const pid of c.platoons) {
      const p = pf.platoons.find((x) => x.id === pid);
      if (!p) continue;
      const alive = p.members.filter((m) => S.view.units.some((u) => u.id === m && !u.removed)).length;
      const words = `${p.name} (${alive}/${p.members.length})${p.order ? ` · ${p.order}` : ""}${p.moved ? " · moved" : ""}${p.status !== "ok" ? ` · ${p.status}` : ""}`;
      box.append(el("button", { type: "button", class: `pf-platoon${PF.platoon === p.id ? " active" : ""}`, "data-platoon": p.id,
        text: words, onclick: () => { PF.platoon = PF.platoon === p.id ? null : p.id; renderAll(); } }));
    }
    body.append(box);
  }
  const chosen = pf.platoons.find((x) => x.id === PF.platoon);
  for (const g of document.querySelectorAll("#table [data-unit]")) {
    g.classList.toggle("pf-in-platoon", Boolean(chosen && chosen.members.includes(g.dataset.unit)));
  }
}

// the templates of the markers this side sees: circles of their radius (cm, table units), and
// the stretches of enemy moves its elements saw this turn (dotted lines)
function pfRenderMarkers(S, el) {
  const svg = document.querySelector("#table");
  const depth = S.view.table.depth;
  const layer = el("g", { class: "pf-markers" });
  for (const m of pfSection(S).markers || []) {
    if (m.kind === "dummy") continue;
    const words = PF_MARKERS[m.kind] || m.kind;
    const g = el("g", { class: `pf-marker pf-${m.kind}`, "data-marker": m.id },
      el("circle", { cx: m.x, cy: depth - m.y, r: Math.max(m.radius || 0, 1) }),
      el("title", { text: `${words}${m.radius ? ` (${m.radius} cm)` : ""}${pfAimedAt(m)}` }));
    const to = (m.data || {}).to;  // smoke spreading downwind (p33): the circle swept to `to`
    if (to) {
      g.append(el("line", { x1: m.x, y1: depth - m.y, x2: to[0], y2: depth - to[1],
        "stroke-width": 2 * m.radius, "stroke-linecap": "round" }));
    }
    layer.append(g);
  }
  for (const t of pfSection(S).tracks || []) {  // enemy moves seen this turn (P286): dotted
    for (const line of t.lines) {
      const pts = line.map(([x, y]) => `${x},${depth - y}`).join(" ");
      layer.append(el("g", { class: "pf-track", "data-track": t.id },
        line.length > 1 ? el("polyline", { points: pts }) : el("circle", { cx: line[0][0], cy: depth - line[0][1], r: 0.5 }),
        el("title", { text: `${unitName(t.id)} seen moving here this turn` })));
    }
  }
  for (const c of pfSection(S).counters || []) {  // hidden-deployment counters: a place and a size
    layer.append(el("g", { class: "pf-counter", "data-counter": c.id },
      el("rect", { x: c.x - 1.5, y: depth - c.y - 1.5, width: 3, height: 3 }),
      el("text", { x: c.x, y: depth - c.y + 0.8, "text-anchor": "middle", text: c.size })));
  }
  svg.insertBefore(layer, svg.querySelector("[data-unit]"));
}

// ---------------------------------------------------------------- waypoint routes (phase F)
const pfDist = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1]);

// a unit may be routed when the core offers it a move now
function pfCanRoute(S, unit) {
  return S.view.legal.some((c) => c.type === "move" && c.unit === unit);
}

// the route's legs from the unit: [[point, cm so far], ...] and the whole length
function pfLegs(S) {
  const u = S.view.units.find((x) => x.id === PF.route.unit);
  let at = [u.x, u.y];
  let cm = 0;
  const legs = PF.route.points.map((p) => { cm += pfDist(at, p); at = p; return [p, cm]; });
  return [legs, cm, u];
}

function pfRenderRoute(S, el) {
  const box = document.querySelector("#pf-route-box");
  if (PF.route && (!pfCanRoute(S, PF.route.unit) || S.selected !== PF.route.unit)) PF.route = null;
  const unit = S.selected;
  box.replaceChildren();
  if (!unit || !pfCanRoute(S, unit)) return;
  if (!PF.route) {
    box.append(el("button", { type: "button", id: "pf-route", text: `Plan a route for ${unitName(unit)}`,
      onclick: () => { PF.route = { unit, points: [] }; renderAll(); } }));
    return;
  }
  const [legs, total, u] = pfLegs(S);
  box.append(el("p", { class: "muted", id: "pf-route-help",
    text: legs.length ? `${legs.length} waypoint${legs.length > 1 ? "s" : ""}, ${total.toFixed(1)} cm` : "Tap the table to add waypoints." }));
  box.append(el("div", { class: "buttons" },
    el("button", { type: "button", class: "primary", id: "pf-route-send", disabled: legs.length ? null : "",
      text: "Move along the route", onclick: () => { const path = PF.route.points; PF.route = null; send({ type: "move", unit, path }); } }),
    el("button", { type: "button", id: "pf-route-clear", text: "Cancel", onclick: () => { PF.route = null; renderAll(); } })));
  // an AFV may drive the same route as an overrun of a target the core offers (p111 Q&A 1)
  for (const o of S.view.legal.filter((c) => c.type === "overrun" && c.unit === unit)) {
    box.append(el("button", { type: "button", class: "pf-route-overrun", "data-target": o.target, disabled: legs.length ? null : "",
      text: `Overrun ${pfEnemyAt(o.target)} along the route`,
      onclick: () => { const path = PF.route.points; PF.route = null; send({ type: "overrun", unit, target: o.target, path }); } }));
  }
  // the route on the table: a line through the waypoints, each marked with its cm and fraction
  const depth = S.view.table.depth;
  const svg = document.querySelector("#table");
  const g = el("g", { class: "pf-route" });
  const pts = [[u.x, u.y], ...PF.route.points].map(([x, y]) => `${x},${depth - y}`).join(" ");
  g.append(el("polyline", { points: pts }));
  for (const [[x, y], cm] of legs) {
    g.append(el("circle", { cx: x, cy: depth - y, r: 0.6 }));
    g.append(el("text", { x: x + 1, y: depth - y - 1, text: `${cm.toFixed(1)} cm (${Math.round((100 * cm) / total)}%)` }));
  }
  svg.append(g);
}

// a tap on the table while planning adds a waypoint (tenths of a cm, as the generic move)
function pfClick(x, y) {
  if (pfPick(x, y)) return true;
  if (!PF.route) return false;
  PF.route.points.push([Math.round(x * 10) / 10, Math.round(y * 10) / 10]);
  renderAll();
  return true;
}

// a covering-fire zone aimed at one floor of a building (p17, P338)
function pfAimedAt(m) {
  const aim = (m.data || {}).aim;
  return aim ? `, floor ${aim.floor} of ${aim.building} only` : "";
}

// a building cut into sections (p19, P328): its section lines, dashed, over the building, as
// the server sends them clipped to the building's walls (P340)
function pfRenderSections(S, el) {
  const svg = document.querySelector("#table");
  const depth = S.view.table.depth;
  const layer = el("g", { class: "pf-sections" });
  for (const { feature, line } of pfSection(S).sections || []) {
    layer.append(el("polyline", { class: "pf-section", "data-section-of": feature, fill: "none",
      stroke: "#222", "stroke-width": 0.3, "stroke-dasharray": "1 0.6",
      points: line.map(([x, y]) => `${x},${depth - y}`).join(" ") }));
  }
  if (layer.childNodes.length) svg.append(layer);
}

function pfRender(S, el) {
  pfRenderSections(S, el);
  pfRenderResult(S, el);
  pfRenderSheets(S, el);
  pfRenderBar(S, el);
  pfRenderMarkers(S, el);
  pfRenderCompanies(S, el);
  pfRenderRoute(S, el);
}

// platoon orders have no unit: name the platoon, the order and the step (cm)
function pfLabel(c) {
  if (c.type === "group") {
    const step = c.dx !== undefined ? ` by (${c.dx}, ${c.dy}) cm` : "";
    return `${pfPlatoonName(S, c.platoon)}: ${c.order}${step}`;
  }
  if (c.type === "fire" && c.at !== undefined) {  // backtracking: a point of a move it saw
    const seen = Math.max(...S.view.legal.filter((x) => x.target === c.target && x.at !== undefined).map((x) => x.at));
    return `fire ${unitName(c.unit)} → ${unitName(c.target)} at ${c.at} cm along its move (${Math.round((100 * c.at) / seen)}% of the path seen)`;
  }
  if (c.type === "fire" && c.floor !== undefined) return `fire ${unitName(c.unit)} → ${pfEnemyAt(c.target)}: HE at floor ${c.floor} only (p32)`;
  if (c.type === "fire" && c.crew) return `fire ${unitName(c.unit)}'s small arms at the crew of ${pfEnemyAt(c.target)} (p17)`;
  if (c.type === "fire" && c.passengers) return `fire ${unitName(c.unit)}'s small arms at the teams riding ${pfEnemyAt(c.target)} (p16-17)`;
  if (c.type === "close_down") return `close down ${unitName(c.unit)}: hatches shut (p8-9, p17)`;
  if (c.type === "open_up") return `open up ${unitName(c.unit)}: commander head-up (p8-9, p17)`;
  if (c.type === "overrun") return pfOverrunLabel(c);
  if (c.type === "flame") return pfFlameLabel(c);
  if (c.type === "end_platoon") return `${pfPlatoonName(S, c.platoon)}: done moving`;
  if (c.type === "dig") return `${pfPlatoonName(S, c.platoon)}: dig in (3 turns, p39)`;
  // guns carried en portee and crews riding apart (p34)
  const own = (id) => S.view.units.find((x) => x.id === id) || {};
  if (c.type === "limber" && c.portee) return `load ${unitName(c.unit)} en portee on ${unitName(c.tower)} (p34)`;
  if (c.type === "unlimber" && own(c.unit).portee) return `unload ${unitName(c.unit)} from its truck (p34)`;
  if (c.type === "embark" && own(c.unit).kind === "gun") return `${unitName(c.unit)}: crew boards ${unitName(c.vehicle)}, apart from the gun (p34)`;
  if (c.type === "dismount" && own(c.unit).kind === "gun") return `${unitName(c.unit)}: crew gets down beside the gun (p34)`;
  // a mortar carrier's mortar set up on the ground or loaded again (p12, p63, p92; P346-P348)
  if (c.type === "debark_mortar") return `${unitName(c.unit)}: set its mortar up on the ground beside it (p12)`;
  if (c.type === "embark_mortar") return `${unitName(c.unit)}: load its mortar back aboard (p12)`;
  if (c.type === "set_up_mortar") return `${unitName(c.unit)}: set up the mortar it saved from its lost carrier (p12)`;
  if (c.type === "cover" && c.x !== undefined) {
    const floor = c.floor !== undefined ? `, floor ${c.floor} only (p17)` : "";
    return `cover ${unitName(c.unit)} at (${c.x}, ${c.y}) cm${floor}`;
  }
  if (c.type === "move" && c.path) {
    const last = c.path[c.path.length - 1];
    return `move ${unitName(c.unit)} to (${last[0]}, ${last[1]}) cm`;
  }
  return null;
}

// an AFV's overrun (p111 Q&A 1): it drives at the target along its path (or straight at it)
function pfOverrunLabel(c) {
  const via = c.path && c.path.length ? ` via (${c.path[c.path.length - 1].join(", ")}) cm` : "";
  return `overrun: ${unitName(c.unit)} drives over ${pfEnemyAt(c.target)}${via} (Q&A 1)`;
}

// an observed enemy by name and place, so that like-named targets differ: "Rifle Team at (40, 60)"
function pfEnemyAt(alias) {
  const t = S.view.enemies.find((e) => e.id === alias);
  return t ? `${t.name} at (${+t.x.toFixed(1)}, ${+t.y.toFixed(1)})` : unitName(alias);
}

// a flame attack (p16, p21): the weapon and its reach, from the firer's own piece
const PF_FLAME = { man_pack: "flamethrower", vehicle_soviet_axis: "flame gun", vehicle_uk_us: "flame gun",
  molotov: "Molotovs: a throw to hit first" };
function pfFlameLabel(c) {
  const f = (S.view.units.find((u) => u.id === c.unit) || {}).flame;
  const how = f ? ` (${PF_FLAME[f.weapon] || f.weapon}, ${f.reach} cm, p21)` : " (p21)";
  return `flame: ${unitName(c.unit)} → ${unitName(c.target)}${how}`;
}

// ---------------------------------------------------------------- phase A order sheets
// One sheet per own battery and aircraft (view: panzerfaust.support). Its point is typed or
// picked on the table; every field is checked here before sending, and a refusal from the
// server is shown next to the field it names. The sheet is this seat's alone (the view of the
// other side never holds it, P171); it shows the written point until the fire lands, then
// where and when it landed (decision P210: the timing is the call-down in E, or the 1D6 delay
// of an on-call strike, p36, p42).
const PF_SHEET = { pick: null, draft: {}, errors: {} };

function pfSheetKey(kind, id) { return `${kind}:${id}`; }

function pfCheckSheet(S, kind, d) {
  const t = S.view.table;
  const errs = {};
  const num = (v) => v !== "" && v !== undefined && Number.isFinite(Number(v));
  if (!num(d.x) || Number(d.x) < 0 || Number(d.x) > t.width) errs.x = `x: a number from 0 to ${t.width} cm`;
  if (!num(d.y) || Number(d.y) < 0 || Number(d.y) > t.depth) errs.y = `y: a number from 0 to ${t.depth} cm`;
  if (kind === "aircraft") {
    if (!num(d.heading) || Number(d.heading) < 0 || Number(d.heading) >= 360) errs.heading = "heading: degrees from 0 to 359";
    if (!["low", "medium"].includes(d.altitude)) errs.altitude = "altitude: low or medium";
  }
  return errs;
}

async function pfWrite(S, kind, item) {
  const key = pfSheetKey(kind, item.id);
  const d = PF_SHEET.draft[key] || {};
  const errs = pfCheckSheet(S, kind, d);
  PF_SHEET.errors[key] = errs;
  if (Object.keys(errs).length) return renderAll();
  const cmd = kind === "battery"
    ? { type: "fire_mission", battery: item.id, x: Number(d.x), y: Number(d.y), ammo: d.ammo || "he" }
    : { type: "air_strike", aircraft: item.id, x: Number(d.x), y: Number(d.y), heading: Number(d.heading), altitude: d.altitude };
  if (await pfSend(S, key, cmd, `order written for ${item.id}`)) {
    PF_SHEET.draft[key] = {};
    renderAll();
  }
}

// send one sheet command; a refusal is shown beside the field the server names
async function pfSend(S, key, cmd, done) {
  try {
    const key2 = self.crypto && crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`;
    await api("POST", seatPath("commands"), cmd, { "Idempotency-Key": key2, "X-Step": S.view.game.step });
    PF_SHEET.errors[key] = {};
    toast(`done: ${done}`, true);
    const view = await api("GET", seatPath("view"));
    if (newer(view)) take(view);
    render();
  } catch (e) {
    // the server names the field it refused (battery, aircraft, x, ...): shown beside it
    const field = ["x", "y", "heading", "altitude", "ammo"].includes(e.field) ? e.field : "sheet";
    PF_SHEET.errors[key] = { [field]: e.message };
    renderAll();
    return false;
  }
  return true;
}

function pfSheetField(el, key, name, input) {
  const err = (PF_SHEET.errors[key] || {})[name];
  return el("label", { class: "pf-field" }, `${name} `, input,
    err ? el("span", { class: "refused pf-error", "data-error": name, text: err }) : "");
}

function pfSheet(S, el, kind, item) {
  const key = pfSheetKey(kind, item.id);
  const d = (PF_SHEET.draft[key] = PF_SHEET.draft[key] || {});
  if (kind === "aircraft") { d.heading ??= "0"; d.altitude ??= "low"; }
  const box = el("div", { class: "pf-sheet", "data-sheet": item.id });
  const head = kind === "battery"
    ? `${item.id}: ${item.on_board ? `on-board platoon ${item.on_board}, ` : ""}${item.count} × ${item.calibre_mm} mm, beaten zone ${item.radius} cm${item.missions_left === null ? "" : `, ${item.missions_left} mission${item.missions_left === 1 ? "" : "s"} left`}`
    : `${item.id}: ${item.type.split("/").pop()}${item.gone ? " (gone home)" : ""}`;
  box.append(el("div", { class: "title", text: head }));
  const o = kind === "battery" ? item.order : item.strike;
  if (o) {
    const when = kind === "battery"
      ? (o.landed ? `landed at (${o.x}, ${o.y}); fire goes on there each turn until you cease` : `written turn ${o.turn}: comes down when called in phase E`)
      : `arrives turn ${o.arrives}, heading ${o.heading}°, ${o.altitude}`;
    const rounds = o.ammo && o.ammo !== "he" ? ` ${o.ammo === "wp" ? "WP" : "smoke"}` : "";
    box.append(el("p", { class: `pf-order${o.landed ? " landed" : ""}`, "data-order": item.id, text: `order${rounds}: (${o.x}, ${o.y}) — ${when}` }));
  }
  for (const m of (kind === "battery" ? item.plan : [])) {
    box.append(el("p", { class: "muted", text: `map fire${m.ammo && m.ammo !== "he" ? ` (${m.ammo})` : ""} at (${m.x}, ${m.y}) on turn ${m.turns.join(", ")}` }));
  }
  if (kind === "battery" && item.counter_battery) {
    box.append(el("p", { class: "muted", text: "counter-battery fire: fires in phase E at batteries your listening post located (p37)" }));
  }
  const can = S.view.phase === "A" && S.view.active.includes(S.seat) &&
    S.view.legal.some((c) => c.type === "end_phase") && !(kind === "aircraft" && item.gone) &&
    !(kind === "battery" && (item.missions_left === 0 || item.plan.length || item.silenced || item.counter_battery));
  if (!can) return box;
  const input = (name, attrs) => {
    const i = el("input", { ...attrs, "data-field": name, value: d[name] ?? "" });
    i.addEventListener("input", () => { d[name] = i.value; });
    return i;
  };
  box.append(pfSheetField(el, key, "x", input("x", { type: "number", step: "0.1", min: 0, max: S.view.table.width })));
  box.append(pfSheetField(el, key, "y", input("y", { type: "number", step: "0.1", min: 0, max: S.view.table.depth })));
  if (kind === "aircraft") {
    box.append(pfSheetField(el, key, "heading", input("heading", { type: "number", step: "1", min: 0, max: 359 })));
    const alt = el("select", { "data-field": "altitude" }, el("option", { value: "low", text: "low" }), el("option", { value: "medium", text: "medium (bombs only)" }));
    alt.value = d.altitude;
    alt.addEventListener("change", () => { d.altitude = alt.value; });
    box.append(pfSheetField(el, key, "altitude", alt));
  }
  if (kind === "battery" && (item.ammo || []).length > 1) {
    // smoke or WP where the battery's guns fire them (p37): the server lists what it may fire
    const names = { he: "HE", smoke: "smoke", wp: "WP" };
    const ammo = el("select", { "data-field": "ammo" }, ...item.ammo.map((a) => el("option", { value: a, text: names[a] || a })));
    ammo.value = d.ammo || "he";
    ammo.addEventListener("change", () => { d.ammo = ammo.value; });
    box.append(pfSheetField(el, key, "ammo", ammo));
  }
  const picking = PF_SHEET.pick === key;
  // an order already written can be taken back while phase A lasts (cease fire, cancel strike)
  const undo = S.view.legal.find((c) => (kind === "battery"
    ? c.type === "cease_fire" && c.battery === item.id
    : c.type === "cancel_strike" && c.aircraft === item.id));
  if (undo) {
    box.append(el("div", { class: "buttons" },
      el("button", { type: "button", "data-withdraw": item.id,
        text: kind === "battery" ? "Cease fire" : "Cancel the strike",
        onclick: () => pfSend(S, key, undo, kind === "battery" ? `fire ceased for ${item.id}` : `strike cancelled for ${item.id}`) })));
  }
  box.append(el("div", { class: "buttons" },
    el("button", { type: "button", class: picking ? "primary" : null, "data-pick": item.id,
      text: picking ? "Tap the table…" : "Pick the point on the table",
      onclick: () => { PF_SHEET.pick = picking ? null : key; renderAll(); } }),
    el("button", { type: "button", class: "danger", "data-write": item.id, text: "Write the order",
      onclick: () => pfWrite(S, kind, item) })));
  const sheetErr = (PF_SHEET.errors[key] || {}).sheet;
  if (sheetErr) box.append(el("p", { class: "refused pf-error", "data-error": "sheet", text: sheetErr }));
  return box;
}

function pfRenderSheets(S, el) {
  const panel = document.querySelector("#pf-sheets");
  const sup = pfSection(S).support || { batteries: [], aircraft: [] };
  panel.hidden = !(sup.batteries.length || sup.aircraft.length);
  const body = panel.querySelector(".body");
  const post = sup.listening_post
    ? [el("p", { class: "muted", "data-listening-post": "", text: `listening post: ${sup.listening_post.located.length
        ? sup.listening_post.located.map((l) => `${l.target} seen firing ${l.seen} turn(s), silent ${l.silent}`).join("; ")
        : "no enemy battery located yet"} (p37)` })]
    : [];
  body.replaceChildren(
    ...sup.batteries.map((b) => pfSheet(S, el, "battery", b)),
    ...sup.aircraft.map((a) => pfSheet(S, el, "aircraft", a)), ...post);
  if (S.view.phase !== "A") PF_SHEET.pick = null;
}

// a tap on the table while a sheet picks its point fills the sheet's x and y
function pfPick(x, y) {
  if (!PF_SHEET.pick) return false;
  const d = (PF_SHEET.draft[PF_SHEET.pick] = PF_SHEET.draft[PF_SHEET.pick] || {});
  d.x = String(Math.round(x * 10) / 10);
  d.y = String(Math.round(y * 10) / 10);
  PF_SHEET.errors[PF_SHEET.pick] = {};
  PF_SHEET.pick = null;
  renderAll();
  return true;
}

// ---------------------------------------------------------------- the result
// the verdict on both pages once the game is over: who won and why, and what this side lost
function pfRenderResult(S, el) {
  const panel = document.querySelector("#pf-result");
  const r = S.view.outcome || S.view.result;
  panel.hidden = !r;
  if (!r) return;
  const pf = pfSection(S);
  const members = pf.platoons.flatMap((p) => p.members);
  const standing = members.filter((m) => S.view.units.some((u) => u.id === m)).length;
  panel.querySelector(".body").replaceChildren(
    el("p", { class: "title", id: "pf-verdict", text: outcomeWords(r) }),
    el("p", { text: `after turn ${S.view.turn}${S.view.turn_limit ? ` of ${S.view.turn_limit}` : ""}` }),
    el("p", { id: "pf-losses", text: `your elements still on the table: ${standing} of ${members.length}` }));
}

TABLE_PLUGINS.panzerfaust = { render: pfRender, label: pfLabel, click: pfClick };
