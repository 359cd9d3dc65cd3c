// Kriegsspiel browser table: the information a player needs (issue 15 item 9) and the
// spectator's banner (item 11). Plain functions, loaded after app.js; app.js calls
// infoRender() after every render. Every answer comes from this seat's own endpoints: its
// briefing, its units' cards, the sight check (terrain and its own unit only).
"use strict";

const INFO = {
  briefing: null, briefingOf: null, // the briefing and the "game/seat" it belongs to
  cards: new Map(), // "game/seat/unit/events" -> card (or an Error)
  tool: null, // "ruler" | "sight" | null
  ruler: null, // {a: [x, y], b: [x, y] | null}
  sight: null, // {unit, at: [x, y], answer}
};

function infoRender() {
  if (!S.view) return;
  infoSpectatorBanner();
  infoScaleBar();
  infoToolMarks();
  infoSpreadLabels();
  infoPanels();
  infoCard();
  infoBriefing();
}

// ------------------------------------------------------------------ spectator
function infoSpectatorBanner() {
  const old = document.getElementById("spectator-mode");
  if (old) old.remove();
  const sp = S.view.spectator;
  if (!sp || S.seat !== "spectator") return;
  const text = sp.mode === "full" ? "Spectator: the full game (it is over)"
    : sp.mode === "delayed" ? `Spectator: the full game ${sp.delay} turn${sp.delay > 1 ? "s" : ""} behind — showing turn ${sp.as_of_turn} (live: turn ${sp.turn})`
    : `Spectator: public information only, no live pieces${sp.delay ? ` (the full view follows ${sp.delay} turn${sp.delay > 1 ? "s" : ""} behind from turn ${sp.delay + 1})` : ""}`;
  $("#phase").append(el("span", { class: `pill spectator ${sp.mode}`, id: "spectator-mode", text }));
}

// ------------------------------------------------------------------ scale bar
function niceLength(max) {
  for (const n of [100, 50, 20, 12, 10, 6, 5, 2, 1]) if (n <= max) return n;
  return 1;
}

// a bar of a round length in the table's own unit, drawn in table coordinates, so it keeps
// its meaning at every zoom
function infoScaleBar() {
  const svg = $("#table");
  const t = S.view.table;
  const len = niceLength(t.width / 6);
  const x0 = 1, y0 = t.depth - 1.2;
  const mark = unitMark();
  const g = el("g", { id: "scale-bar", class: "scale-bar", "data-length": len },
    el("rect", { class: "scale-bg", x: x0 - 0.5, y: y0 - 1.6, width: len + 1, height: 2.4, rx: 0.3 }),
    el("line", { x1: x0, y1: y0, x2: x0 + len, y2: y0 }),
    el("line", { x1: x0, y1: y0 - 0.4, x2: x0, y2: y0 + 0.4 }),
    el("line", { x1: x0 + len, y1: y0 - 0.4, x2: x0 + len, y2: y0 + 0.4 }),
    el("text", { x: x0 + len / 2, y: y0 - 0.5, "text-anchor": "middle", text: `${len}${mark}` }));
  svg.append(g);
}

// ------------------------------------------------------------------ ruler and sight check
function infoDistance(a, b) { return Math.hypot(a[0] - b[0], a[1] - b[1]); }
function infoMark(n) { return `${n.toFixed(1)}${unitMark()}`; }

function infoToolMarks() {
  const svg = $("#table");
  const r = INFO.ruler;
  if (r && r.a) {
    const b = r.b || r.a;
    const g = el("g", { id: "ruler", class: "ruler" },
      el("line", { x1: sx(r.a[0]), y1: sy(r.a[1]), x2: sx(b[0]), y2: sy(b[1]) }),
      el("circle", { cx: sx(r.a[0]), cy: sy(r.a[1]), r: 0.3 }));
    if (r.b) {
      g.append(el("circle", { cx: sx(b[0]), cy: sy(b[1]), r: 0.3 }));
      g.append(el("text", { id: "ruler-length", x: sx((r.a[0] + b[0]) / 2), y: sy((r.a[1] + b[1]) / 2) - 0.6,
        "text-anchor": "middle", text: infoMark(infoDistance(r.a, b)) }));
    }
    svg.append(g);
  }
  const s = INFO.sight;
  const u = s && S.view.units.find((x) => x.id === s.unit);
  if (s && u && s.answer) {
    svg.append(el("g", { id: "sight-line", class: `sight ${s.answer.sees ? "yes" : "no"}` },
      el("line", { x1: sx(u.x), y1: sy(u.y), x2: sx(s.at[0]), y2: sy(s.at[1]) }),
      el("circle", { cx: sx(s.at[0]), cy: sy(s.at[1]), r: 0.5 })));
  }
  svg.classList.toggle("measuring", Boolean(INFO.tool));
}

function infoSetTool(tool) {
  INFO.tool = INFO.tool === tool ? null : tool;
  INFO.ruler = null;  // a tool turned on starts afresh; turned off, its marks go
  INFO.sight = null;
  renderAll();
}

// a click on the table while a tool is on belongs to the tool (captured before the table's
// own handlers, so it never moves a unit or fires)
function infoClick(ev) {
  if (!INFO.tool || S.dragged || !S.view) return;
  ev.stopImmediatePropagation();
  ev.preventDefault();
  const [x, y] = toTable($("#table"), ev.clientX, ev.clientY);
  const at = [round(x), round(y)];
  if (INFO.tool === "ruler") {
    INFO.ruler = !INFO.ruler || INFO.ruler.b ? { a: at, b: null } : { a: INFO.ruler.a, b: at };
    renderAll();
  } else if (INFO.tool === "sight") infoAskSight(at);
}

async function infoAskSight(at) {
  const unit = S.selected;
  if (!unit || !S.view.units.some((u) => u.id === unit)) { toast("Select one of your units first."); return; }
  try {
    const answer = await api("GET", seatPath(`sight?unit=${encodeURIComponent(unit)}&x=${at[0]}&y=${at[1]}`));
    INFO.sight = { unit, at, answer };
  } catch (e) { INFO.sight = null; toast(e.message); }
  renderAll();
}

function infoPanels() {
  let tools = document.getElementById("tools");
  if (!tools) {
    tools = el("section", { id: "tools", class: "panel" }, el("h2", { text: "Tools" }), el("div", { class: "body" }));
    $("#odds").after(tools);
  }
  const body = tools.querySelector(".body");
  body.replaceChildren();
  const side = S.view.sides.some((s) => s.id === S.seat);
  const row = el("div", { class: "tool-row" },
    el("button", { type: "button", id: "tool-ruler", class: INFO.tool === "ruler" ? "active" : null, text: "Ruler",
      title: "tap two points of the table to measure between them", onclick: () => infoSetTool("ruler") }));
  if (side) {
    row.append(el("button", { type: "button", id: "tool-sight", class: INFO.tool === "sight" ? "active" : null,
      text: "Can it see there?", title: "select one of your units, then tap a point of the table",
      onclick: () => infoSetTool("sight") }));
  }
  body.append(row);
  const say = el("div", { id: "tool-answer", class: "hint" });
  if (INFO.tool === "ruler") {
    const r = INFO.ruler;
    say.textContent = r && r.b ? `Distance: ${infoMark(infoDistance(r.a, r.b))}. Tap again to measure anew.`
      : r ? "Tap the second point." : "Tap the first point.";
  } else if (INFO.tool === "sight") {
    const s = INFO.sight;
    if (s && s.answer && s.unit === S.selected) {
      say.textContent = `${unitName(s.unit)} ${s.answer.sees ? "can" : "cannot"} see (${s.at[0]}, ${s.at[1]}), ` +
        `${infoMark(s.answer.distance)} away: ${s.answer.reason}.`;
    } else say.textContent = S.selected ? `Tap a point: can ${unitName(S.selected)} see there?` : "Select one of your units, then tap a point.";
  }
  body.append(say);
  infoLegend(tools);
}

// ------------------------------------------------------------------ legend
function infoLegend(after) {
  let box = document.getElementById("legend");
  if (!box) {
    box = el("details", { id: "legend", class: "panel" }, el("summary", { text: "Legend" }), el("div", { class: "body" }));
    after.after(box);
  }
  const body = box.querySelector(".body");
  const key = `${S.game}/${S.view.terrain.length}/${S.view.table.unit}`;
  if (body.dataset.key === key) return;
  body.dataset.key = key;
  body.replaceChildren();
  const swatch = (...shapes) => el("svg", { class: "swatch", viewBox: "0 0 4 2", width: 40, height: 20 }, ...shapes);
  const rows = [];
  const kinds = [...new Set(S.view.terrain.map((f) => f.kind))];
  for (const kind of kinds) {
    const f = S.view.terrain.find((x) => x.kind === kind);
    const shape = f.polygon ? el("rect", { class: `t-${kind}`, x: 0.2, y: 0.2, width: 3.6, height: 1.6 })
      : el("polyline", { class: `t-${kind}`, points: "0.2,1 3.8,1", "stroke-width": 0.8 });
    rows.push([swatch(shape), kind]);
  }
  rows.push([swatch(el("circle", { class: "legend-objective", cx: 2, cy: 1, r: 0.8 })), "objective (its radius)"]);
  rows.push([swatch(el("text", { x: 2, y: 1.6, "text-anchor": "middle", class: "legend-ghost", text: "?" })), "enemy last seen here"]);
  rows.push([swatch(el("line", { x1: 1.2, y1: 0.3, x2: 2.8, y2: 1.7, class: "legend-wreck" }),
    el("line", { x1: 1.2, y1: 1.7, x2: 2.8, y2: 0.3, class: "legend-wreck" })), "wreck of a vehicle"]);
  for (const [letter, name] of plugin().status_flags) rows.push([swatch(el("text", { x: 2, y: 1.6, "text-anchor": "middle", class: "legend-flag", text: letter })), name]);
  const dl = el("dl");
  for (const [icon, text] of rows) dl.append(el("dt", {}, icon), el("dd", { text }));
  body.append(dl, el("p", { class: "hint", text: `Distances are in ${S.view.table.unit === "cm" ? "centimetres" : "inches"}; the bar at the table's corner shows the scale.` }));
}

// ------------------------------------------------------------------ labels that do not overlap
// unit names are moved down, a line at a time, until they clear every name placed before;
// boxes are in table units (the labels' own size), so the spread holds at every zoom
function infoLabelBox(t) {
  const b = t.getBBox();
  const m = t.parentNode.transform.baseVal.consolidate();
  const [dx, dy] = m ? [m.matrix.e, m.matrix.f] : [0, 0];
  return { left: b.x + dx, right: b.x + dx + b.width, top: b.y + dy, bottom: b.y + dy + b.height };
}

function infoSpreadLabels() {
  const placed = [];
  const overlaps = (a) => placed.some((b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom);
  for (const t of document.querySelectorAll("#table g.unit > text.name, #table g.ghost > text:last-child")) {
    let r = infoLabelBox(t);
    if (!(r.right > r.left)) continue;
    for (let i = 0; i < 8 && overlaps(r); i++) {
      t.setAttribute("y", Number(t.getAttribute("y")) + (r.bottom - r.top));
      t.dataset.moved = String(i + 1);
      r = infoLabelBox(t);
    }
    placed.push(r);
  }
}

// ------------------------------------------------------------------ unit card
function infoCardKey(id) { return `${S.game}/${S.seat}/${id}/${S.view.game.events}`; }

function infoCard() {
  const u = S.selected && [...S.view.units, ...S.view.enemies].find((x) => x.id === S.selected);
  if (!u || !S.view.sides.some((s) => s.id === S.seat)) return;
  const key = infoCardKey(u.id);
  const card = INFO.cards.get(key);
  const body = $("#card .body");
  if (card === undefined) {
    INFO.cards.set(key, null);
    api("GET", seatPath(`units/${encodeURIComponent(u.id)}/card`))
      .then((c) => INFO.cards.set(key, c), (e) => INFO.cards.set(key, e))
      .then(() => { if (S.selected === u.id) infoCard(); });
    return;
  }
  if (!card) return;
  const old = body.querySelector(".info-card");
  if (old) old.remove();
  body.append(card instanceof Error ? el("div", { class: "info-card muted", text: card.message }) : infoCardBody(card));
}

function infoCardBody(c) {
  const d = c.data;
  const box = el("div", { class: "info-card", "data-card": c.unit });
  // a ruleset's card either lists its own lines (`rows`: [label, text]) or has the chart shape
  const rows = d.rows ? d.rows.map((r) => [...r]) : infoChartRows(d);
  if (c.now && c.now.move_allowance !== undefined) rows.push(["now", `moves up to ${infoMark(c.now.move_allowance)}, SA ${c.now.sa}`]);
  if (d.placeholders && d.placeholders.length) rows.push(["placeholder values", d.placeholders.join(", ")]);
  const dl = el("dl", { class: "card-data" });
  for (const [k, v] of rows) dl.append(el("dt", { text: k }), el("dd", { text: v }));
  box.append(dl);
  if (d.special && d.special.length) box.append(el("ul", { class: "special" }, ...d.special.map((s) => el("li", { text: s }))));
  if (c.reminders.length) box.append(el("ul", { class: "reminders" }, ...c.reminders.map((s) => el("li", { text: s }))));
  else box.append(el("p", { class: "hint", text: c.own ? "Ready: nothing holds it back." : "What your side sees of it; its state is not known." }));
  box.append(el("p", { class: "hint source", text: `data: ${d.source ? `${d.source.seed || ""} ${d.source.page || ""}`.trim() : "?"} (${d.provenance})` }));
  return box;
}

function infoChartRows(d) {
  const rows = [["chart row", `${d.record_name} (${d.category})`]];
  if (d.gun) rows.push(["gun", infoGun(d.gun)]);
  for (const [name, g] of Object.entries(d.alt_guns || {})) rows.push([name, infoGun(g)]);
  if (d.armour) rows.push(["armour", `front ${d.armour.front}, side and rear ${d.armour.side}`]);
  if (d.speed !== undefined && d.speed !== null) rows.push(["speed", infoMark(Number(d.speed))]);
  if (d.sa !== undefined && d.sa !== null) rows.push(["SA strength", String(d.sa) + (d.sa_ranges ? ` (ranges ${d.sa_ranges.map((r) => r + unitMark()).join(" / ")})` : "")]);
  if (d.assault !== undefined) rows.push(["assault", String(d.assault)]);
  return rows;
}

function infoGun(g) {
  const bands = g.bands.map((b) => `${b.band} ≤${b.up_to}${unitMark()}: hit ${b.to_hit ?? "—"}, pen ${b.pen ?? "—"}`).join("; ");
  return g.he ? `${bands}; HE ${g.he}` : bands;
}

// ------------------------------------------------------------------ briefing
async function infoBriefing() {
  let box = document.getElementById("briefing");
  if (!box) {
    box = el("details", { id: "briefing", class: "panel" }, el("summary", { text: "Briefing" }), el("div", { class: "body" }));
    (document.getElementById("legend") || $("#odds")).after(box);
  }
  const key = `${S.game}/${S.seat}`;
  if (INFO.briefingOf === key) return;
  INFO.briefingOf = key;
  INFO.sight = null;  // another seat: nothing of the last one's stays on the page
  const body = box.querySelector(".body");
  body.replaceChildren();
  let b;
  try { b = await api("GET", seatPath("briefing")); } catch (e) { INFO.briefingOf = null; return; }
  if (INFO.briefingOf !== key) return;  // the seat changed while it loaded
  INFO.briefing = b;
  body.replaceChildren(el("div", { class: "title", text: b.name }));
  if (b.description) body.append(el("p", { text: b.description }));
  if (b.briefing) body.append(el("p", { text: b.briefing }));
  for (const s of b.sides) {
    const you = s.id === S.seat ? " — you" : "";
    const p = el("div", { class: "side", "data-side": s.id }, el("b", { text: `${s.name} (${s.nation})${you}` }));
    if (s.forces) p.append(el("div", { class: "hint", text: s.forces.map((f) => (f.count > 1 ? `${f.count} × ${f.name}` : f.name)).join(", ") }));
    body.append(p);
  }
  const list = (title, items) => { if (items.length) body.append(el("h3", { text: title }), el("ul", {}, ...items.map((t) => el("li", { text: t })))); };
  list("Objectives", b.objectives.map((o) => `${o.name} at (${o.x}, ${o.y}), radius ${o.radius}${unitMark()}`));
  list(`Victory (turn limit ${b.turn_limit})`, b.victory);
  list("Special rules", b.special_rules);
  list("Terms", Object.entries(b.terms).map(([k, v]) => `${k}: ${v}`));
}

$("#table").addEventListener("click", infoClick, true);
document.addEventListener("keydown", (ev) => { if (ev.key === "Escape" && INFO.tool) infoSetTool(INFO.tool); });
