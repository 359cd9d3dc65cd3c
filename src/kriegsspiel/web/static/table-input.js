// Kriegsspiel browser table: order input (issue 15 items 8 and 10; issue 14 item 7). Plain
// functions called from app.js at a few hook points. Nothing here decides what is legal: the
// reach area, the cost of a path and whether an aim point is accepted all come from the server
// (GET .../reach/{unit}, POST .../preview), which runs the rules' own legality checks.
"use strict";

// the table's compass for an end facing (degrees clockwise from up the table)
const FACINGS = [["", "along the last leg"], ["0", "N ↑"], ["45", "NE ↗"], ["90", "E →"], ["135", "SE ↘"],
  ["180", "S ↓"], ["225", "SW ↙"], ["270", "W ←"], ["315", "NW ↖"]];


// ------------------------------------------------------------------ movement
// a move template was chosen: fetch where the unit can go by one straight leg (terrain and
// roads counted by the server), then collect waypoints and an end facing
// (the ruleset's plug-in `move_input` says which of reach, preview and waypoints it offers)
async function startMove(template) {
  const input = plugin().move_input || {};
  S.selected = template.unit;
  S.pending = { move: template, path: [], facing: "", preview: null, reach: null, input };
  renderAll();
  if (!input.reach) return;
  try {
    const reach = await api("GET", seatPath(`reach/${encodeURIComponent(template.unit)}`));
    if (S.pending && S.pending.move === template) S.pending.reach = reach;
  } catch (e) { toast(e.message); }
  renderAll();
}

function moveCommand(p) {
  const cmd = { type: "move", unit: p.move.unit, path: p.path.map((q) => [...q]) };
  if (p.facing !== "") cmd.facing = Number(p.facing);
  return cmd;
}

async function previewMove() {
  const p = S.pending;
  if (!p || !p.move) return;
  if (!p.path.length) { p.preview = null; return renderAll(); }
  const cmd = moveCommand(p);
  if (!p.input.preview) { p.preview = { ok: true, legs: [], unpriced: true, for: JSON.stringify(cmd) }; return renderAll(); }
  try {
    const out = await api("POST", seatPath("preview"), cmd);
    if (S.pending === p) p.preview = { ...out, for: JSON.stringify(cmd) };
  } catch (e) {
    if (S.pending === p) p.preview = { ok: false, reason: e.message, for: JSON.stringify(cmd) };
  }
  renderAll();
}

// the reach cell holding a table point, if any (its centre is the point offered)
function reachCell(x, y) {
  const r = S.pending && S.pending.reach;
  if (!r) return null;
  const h = r.cell / 2;
  return r.cells.find(([cx, cy]) => Math.abs(x - cx) <= h && Math.abs(y - cy) <= h) || null;
}

// a tap on the table while an order is being written: a waypoint or an aim point
function tapTable(x, y) {
  const p = S.pending;
  if (p && p.move) {
    if (!p.input.waypoints) p.path = [];
    if (!p.path.length && p.input.reach) {
      const cell = reachCell(x, y);
      if (!cell) {
        toast(`${unitName(p.move.unit)} cannot reach that point this step: tap inside the shaded area.`);
        return;
      }
      p.path.push(cell);
    } else {
      p.path.push([round(x), round(y)]);
    }
    p.preview = null;
    renderAll();
    previewMove();
    return;
  }
  if (p && p.arty) {
    p.arty.point = [round(x), round(y)];
    previewArty();
  }
}

// a tap on a piece: while calling for fire, a seen enemy is an aim point (its position)
function tapUnit(u) {
  const p = S.pending;
  if (!p || !p.arty || S.view.units.some((x) => x.id === u.id)) return false;
  p.arty.point = [u.x, u.y];
  p.arty.at = u.name;
  previewArty();
  return true;
}

function moveHint(move) {
  const p = S.pending;
  if (!p.path.length) return `Tap inside the shaded area where ${unitName(move.unit)} should go (first leg), or tap the unit again to cancel.`;
  return "Tap to add a waypoint; check the cost in the Orders panel, then commit.";
}

// what the table shows of an order being written: the reach cells, the path, the aim point
function drawInput(svg) {
  const p = S.pending;
  const sel = S.selected && S.view.units.find((u) => u.id === S.selected);
  if (p && p.move && sel) {
    const g = el("g", { id: "reach", class: "reach", "data-unit": null });
    g.setAttribute("data-for", p.move.unit);
    if (p.reach) {
      const c = p.reach.cell;
      for (const [x, y] of p.reach.cells) {
        g.append(el("rect", { class: "reach-cell", x: sx(x - c / 2), y: sy(y + c / 2), width: c, height: c }));
      }
    }
    svg.append(g);
    if (p.path.length) {
      const pts = [[sel.x, sel.y], ...p.path];
      const ok = p.preview && p.preview.ok;
      svg.append(el("polyline", { id: "move-path", class: `move-path${ok ? " ok" : ""}`,
        points: pts.map(([x, y]) => `${sx(x)},${sy(y)}`).join(" ") }));
      p.path.forEach(([x, y], i) => svg.append(el("circle", { class: "waypoint", "data-waypoint": i, cx: sx(x), cy: sy(y), r: 0.4 })));
    }
  }
  if (p && p.arty && p.arty.point) {
    const [x, y] = p.arty.point;
    svg.append(el("circle", { id: "aim", class: "aim", cx: sx(x), cy: sy(y), r: 1.2 }));
  }
}

// ------------------------------------------------------------------ artillery
function artillery() {
  const q = S.view.quickref || S.view[S.view.ruleset] || {};
  return q.artillery || null;
}

function startArty(observer) {
  const art = artillery();
  S.selected = observer;
  S.pending = { arty: { observer, battery: art.batteries.find((b) => b.left !== 0).battery, point: null, preview: null } };
  renderAll();
}

async function previewArty() {
  const p = S.pending;
  if (!p || !p.arty || !p.arty.point) return renderAll();
  const a = p.arty;
  const cmd = { type: "call_fire", observer: a.observer, battery: a.battery, x: a.point[0], y: a.point[1] };
  try {
    a.preview = await api("POST", seatPath("preview"), cmd);
  } catch (e) { a.preview = { ok: false, reason: e.message }; }
  a.cmd = cmd;
  renderAll();
}

// ------------------------------------------------------------------ undo
async function undoLast() {
  try {
    const key = self.crypto && crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`;
    const ack = await api("POST", seatPath("undo"), null, { "Idempotency-Key": key });
    const asked = ack.events.some((e) => e.type === "undo_request");
    toast(asked ? "Undo asked: the other side answers." : "Your last order was undone.", true);
    const view = await api("GET", seatPath("view"));
    if (newer(view)) take(view);
    S.pending = null;
    render();
  } catch (e) { toast(e.message); }
}

// ------------------------------------------------------------------ panels
// the action panel's order-input entries: undo (and its answer), calls for fire by observer
function inputActions(body) {
  const v = S.view;
  const side = (v.sides || []).some((s) => s.id === S.seat);
  const req = v.game && v.game.undo_request;
  if (req && req.yours_to_answer) {
    body.append(el("div", { class: "notice", id: "undo-asked", text: `${sideName(req.by)} asks to undo its last order.` }));
    body.append(el("div", { class: "buttons" },
      el("button", { type: "button", id: "undo-accept", class: "primary", text: "Accept the undo", onclick: () => send({ type: "undo_accept" }) }),
      el("button", { type: "button", id: "undo-decline", text: "Decline", onclick: () => send({ type: "undo_decline" }) })));
  } else if (req && req.by === S.seat) {
    body.append(el("div", { class: "muted", id: "undo-waiting", text: "Your undo request awaits the other side's answer." }));
  }
  const policy = v.game && v.game.options && v.game.options.undo;
  const mine = v.game && v.game.undo_mine;
  if ((side || S.seat === "umpire") && mine && !v.outcome && (policy !== "off" || S.seat === "umpire") && !(req && req.by === S.seat)) {
    const how = S.seat === "umpire" ? "undo the last order" : policy === "free" ? "undo my last order" : "undo my last order (asks consent if dice were rolled)";
    body.append(el("button", { type: "button", id: "undo", text: how, onclick: undoLast }));
  }
  const art = artillery();
  // the server lists observers only in the plot step, while this seat may call
  if (art && art.observers.length && art.batteries.some((b) => b.left !== 0)) {
    body.append(el("div", { class: "group", "data-group": "artillery", text: "Artillery: call for fire" }));
    for (const o of art.observers) {
      body.append(el("button", { type: "button", "data-cmd": "call_fire", "data-observer": o,
        text: `call fire: observer ${unitName(o)}`, onclick: () => startArty(o) }));
    }
  }
}

// the Orders panel: a move's legs and cost, or a call for fire's battery and aim point
function renderInput() {
  const panel = $("#orders");
  if (!panel) return;
  const p = S.pending;
  const body = panel.querySelector(".body");
  body.replaceChildren();
  const fire = p && p.cmd && p.cmd.type === "fire";
  if (!p || !(p.move || p.arty || fire)) { panel.hidden = true; return; }
  panel.hidden = false;
  if (p.move) return renderMovePanel(body, p);
  if (fire) return renderFirePanel(body, p);
  return renderArtyPanel(body, p.arty);
}

function renderMovePanel(body, p) {
  const mark = unitMark();
  body.append(el("div", { class: "title", text: `Move ${unitName(p.move.unit)}` }));
  if (!p.reach && p.input.reach) body.append(el("p", { class: "muted", text: "Finding where it can go…" }));
  else if (p.reach && !p.reach.cells.length) body.append(el("p", { class: "muted", id: "no-reach", text: "No reachable point this step." }));
  const pv = p.preview;
  if (pv && pv.unpriced) {
    body.append(el("p", { class: "muted", text: "This ruleset prices the move when it is given." }));
  } else if (pv && pv.ok) {
    const legs = el("ol", { id: "move-legs" });
    pv.legs.forEach((l, i) => legs.append(el("li", { "data-leg": i,
      text: `leg ${i + 1}: ${l.length.toFixed(1)}${mark}${l.terrain.length ? ` through ${l.terrain.join(", ")}` : ", open ground"}` })));
    body.append(legs);
    body.append(el("p", { id: "move-cost", text: `uses ${pv.distance.toFixed(1)}${mark} of ${pv.cap.toFixed(1)}${mark} (${pv.why.join("; ")})` }));
    if (pv.pivots === "free") body.append(el("p", { class: "muted", text: "Facing changes cost nothing in these rules." }));
  } else if (pv) {
    body.append(el("p", { id: "move-refused", class: "refused", text: `not possible: ${pv.reason}` }));
  }
  const face = el("select", { id: "move-facing" });
  for (const [val, text] of FACINGS) face.append(el("option", { value: val, text }));
  face.value = p.facing;
  face.addEventListener("change", () => { p.facing = face.value; previewMove(); });
  body.append(el("label", { text: "End facing " }, face));
  const ready = pv && pv.ok && pv.for === JSON.stringify(moveCommand(p));
  body.append(el("div", { class: "buttons" },
    el("button", { type: "button", class: "danger", id: "move-commit", text: "Commit move", disabled: !ready,
      onclick: () => send(moveCommand(p)) }),
    el("button", { type: "button", id: "move-undo-point", text: "Remove last waypoint", disabled: !p.path.length,
      onclick: () => { p.path.pop(); p.preview = null; previewMove(); } }),
    el("button", { type: "button", id: "move-cancel", text: "Cancel", onclick: () => { S.pending = null; renderAll(); } })));
}

function renderArtyPanel(body, a) {
  const art = artillery();
  body.append(el("div", { class: "title", text: `Call for fire: ${unitName(a.observer)}` }));
  const sel = el("select", { id: "arty-battery" });
  for (const b of art.batteries) {
    sel.append(el("option", { value: b.battery, disabled: b.left === 0,
      text: `${b.name}${b.left === null ? "" : ` (${b.left} mission${b.left === 1 ? "" : "s"} left)`}` }));
  }
  sel.value = a.battery;
  sel.addEventListener("change", () => { a.battery = sel.value; a.preview = null; previewArty(); });
  body.append(el("label", { text: "Battery " }, sel));
  body.append(el("p", { id: "arty-point", text: a.point ? `aim point (${a.point[0].toFixed(1)}, ${a.point[1].toFixed(1)})${a.at ? `: ${a.at}` : ""}` : "Tap the aim point on the table, or a seen enemy." }));
  if (a.preview && !a.preview.ok) body.append(el("p", { id: "arty-refused", class: "refused", text: `not possible: ${a.preview.reason}` }));
  const ready = a.preview && a.preview.ok && a.cmd && a.cmd.battery === a.battery;
  body.append(el("div", { class: "buttons" },
    el("button", { type: "button", class: "danger", id: "arty-commit", text: "Call the fire", disabled: !ready, onclick: () => send(a.cmd) }),
    el("button", { type: "button", id: "arty-cancel", text: "Cancel", onclick: () => { S.pending = null; renderAll(); } })));
}

// ------------------------------------------------------------------ fire: weapon and group
// what a fire order may also be (the server's dry runs of the order): the firer's weapons and
// the units that may join it; each change is priced again by the odds preview before Commit
const fireKey = (cmd) => JSON.stringify([cmd.units || [cmd.unit], cmd.target, Boolean(cmd.suppressive)]);

async function fireChoices(cmd) {
  const key = fireKey(cmd);
  if (S.fireChoices && S.fireChoices.key === key) return;
  S.fireChoices = { key, loading: true };
  try {
    const out = await api("POST", seatPath("preview"), cmd);
    S.fireChoices = { key, ...out };
  } catch (e) { S.fireChoices = { key, weapons: [], group: [], reason: e.message }; }
  renderInput();
}

function fireOrder(cmd, changes) {
  const units = changes.units || cmd.units || [cmd.unit];
  const out = { type: "fire", target: cmd.target };
  if (units.length > 1) out.units = units; else out.unit = units[0];
  if (cmd.suppressive) out.suppressive = true;
  const weapon = "weapon" in changes ? changes.weapon : cmd.weapon;
  if (weapon && units.length === 1) out.weapon = weapon;
  return out;
}

function renderFirePanel(body, p) {
  const cmd = p.cmd;
  const c = S.fireChoices;
  if (!c || c.key !== fireKey(cmd)) { fireChoices(cmd); body.append(el("p", { class: "muted", text: "Finding the choices…" })); return; }
  if (c.loading) { body.append(el("p", { class: "muted", text: "Finding the choices…" })); return; }
  const units = cmd.units || [cmd.unit];
  body.append(el("div", { class: "title", text: `Fire at ${unitName(cmd.target)}${cmd.suppressive ? " (suppressive)" : ""}` }));
  if (c.weapons && c.weapons.length > 1 && units.length === 1) {
    const sel = el("select", { id: "fire-weapon" });
    sel.append(el("option", { value: "", text: "the rules' choice" }));
    const words = { main: "main gun", he: "HE", mg: "MG", flame: "flamethrower" };
    for (const w of c.weapons) sel.append(el("option", { value: w, text: words[w] || w }));
    sel.value = cmd.weapon || "";
    sel.addEventListener("change", () => preview(fireOrder(cmd, { weapon: sel.value })));
    body.append(el("label", { text: "Weapon " }, sel));
  }
  const partners = [...units.slice(1), ...(c.group || [])];
  if (partners.length) {
    const box = el("div", { id: "fire-group" }, el("div", { class: "muted", text: "Fire together with:" }));
    for (const id of partners) {
      const tick = el("input", { type: "checkbox", "data-partner": id, checked: units.includes(id) });
      tick.addEventListener("change", () => {
        const next = tick.checked ? [...units, id] : units.filter((u) => u !== id);
        preview(fireOrder(cmd, { units: next }));
      });
      box.append(el("label", { class: "tick" }, tick, ` ${unitName(id)}`));
    }
    body.append(box);
  }
  if (!(c.weapons && c.weapons.length > 1) && !partners.length) {
    body.append(el("p", { class: "muted", text: "No other weapon or fire group for this shot." }));
  }
}
