"""Fieldworks made during the game, by phase F orders: digging in (p39; errata 4, p111) and
camouflaging a position (p9). Decisions P262-P265.

- `dig {platoon}`: the platoon's infantry teams on the table begin to dig themselves in, all
  together (the book asks a whole squad at once; the game knows platoons, P262): one group
  order, 1 pip (p7). A team needs 3 turns. AFVs and guns never dig during a game; no team digs
  on a road, in a building or in ruins (rubble).
- `camouflage {unit, helpers}`: the position of any element (p9 table: size A 3 team-moves and
  at least 1 turn, B 6 and 2, C 12 and 4, D 18 and 6; terrain refused by size, B and larger in
  the open only when dug in), worked by its own team or crew and by infantry teams of its
  platoon within 5 cm (P263): a single order, 1 pip (+1 out of command radius, p7). Not while
  the position is under enemy fire (p9).
A turn's work counts at the end of the turn (`works_progress`, told to the owner alone): one
turn for each work, one team-move for each worker; a camouflage under enemy fire that turn
(the element pinned, an enemy covering-fire zone or beaten zone on it) gains nothing (P263).
Done, the element carries the `dug_in` or `camouflaged` counter (p112) that sight (p8), fire
(p16, p30, p32, p37, p43), CQC (p18) and morale (p23) read.

While it works an element counts as moving for observation (x2, p8-9) and does nothing else:
it is passed over in phase G and gives no covering fire; a move order abandons the work
(P262). An element that moves (any distance, or boards a vehicle) leaves its position and
loses its dug-in and camouflage counters (p9, P265); with `camouflage_on_fire=lose` firing
loses the camouflage as well (P264).

The position it leaves stays on the table, empty (P318): p9 camouflages the position, not
whoever holds it, and a foxhole (p39) is a hole in the ground. An element of the same side
that ends a move with its centre within 2.5 cm of an empty position takes it and its counters
at once: any element no larger than the position's maker into a camouflaged position; into a
dug-in one, infantry into a team's foxhole and a gun or vehicle into a gun's or vehicle's
emplacement, again no larger. Empty positions are known to their own side only.
"""

from __future__ import annotations

import math
from typing import Any

from ....data.errors import RuleError
from ....engine.commands import IllegalCommand
from ....engine.events import Draft, Event
from ..rules import observe
from ..rules import works as works_rules
from . import floor_zone
from .state import Element, Platoon, State

POSITION = ("dug_in", "camouflaged")  # counters of a position, lost when the element leaves it
COUNTER = {"dig": "dug_in", "camouflage": "camouflaged"}
HELP_REACH = 5.0  # cm: a helper works beside the position it camouflages (P263)
SEAT = 2.5  # cm: a mover ending this near an empty position's point takes it (P318)
SIZES = "ABCD"
ROWS = {  # Observation Table row (p8) -> terrain of the p9 camouflage table (others: any)
    "inside_building": "buildings",
    "open_desert": "open",
    "low_brush_long_grass": "low_brush",
    "hedge_wall_ruins": "hedges_walls",
    "thin_treeline": "thin_treeline",
}
WHAT = {"dig": "digging in", "camouflage": "camouflaging its position"}


# ----------------------------------------------------------------------------- queries
def working(state: State, e: Element) -> bool:
    """Whether `e` is at work on a position this turn (it counts as moving, p8-9)."""
    return bool(state.works) and any(e.id in w["workers"] for w in state.works.values())


def _idle(state: State, e: Element) -> str | None:
    """Why `e` cannot begin work now, or None: it must stand on the table, unmoved, free."""
    if not e.active:
        return f"{e.name} is not on the ground on the table"
    if e.moved > 0:
        return f"{e.name} has moved this turn: work on a position is done standing (p9, p39)"
    if e.has("retreat"):
        return f"{e.name} is retreating: its move is compulsory (p24)"
    if "cf" in e.counters:
        return f"{e.name} is giving covering fire and may do nothing else (p17)"
    if working(state, e):
        return f"{e.name} is already at work on a position"
    return None


def why_no_dig(state: State, e: Element) -> str | None:
    """Why the team `e` cannot begin to dig itself in now, or None (p39)."""
    why = _idle(state, e)
    if why:
        return why
    ground = tuple(f.kind for f in state.board.at(e.x, e.y))
    try:
        works_rules.dig_in_turns(e.kind, ground)
    except RuleError as err:
        return f"{e.name}: {err}"
    return None


def diggers(state: State, p: Platoon) -> list[Element]:
    """The teams of `p` a dig order sets to work: its infantry on the table not yet dug in;
    refused (IllegalCommand) when one of them cannot dig, a whole squad digging at once (p39)."""
    members = [state.elements[m] for m in p.members]
    teams = [m for m in members if m.active and m.kind == "infantry" and not m.has("dug_in")]
    if not teams:
        if not any(m.active and m.kind == "infantry" for m in members):
            raise IllegalCommand(
                f"{p.name} has no infantry team on the ground: AFVs and guns are dug in only "
                "as defences bought before the game (p39)", "platoon")  # fmt: skip
        raise IllegalCommand(f"every team of {p.name} is dug in already", "platoon")
    for t in teams:
        why = why_no_dig(state, t)
        if why:
            raise IllegalCommand(f"{why}; a whole squad digs in at once (p39)", "platoon")
    return teams


def under_fire(state: State, e: Element, side: str | None = None) -> bool:
    """Whether `e`'s position is under enemy fire (p9): pinned, or inside an enemy covering-fire
    zone or beaten zone; `side`: only the markers that side may see (refusals)."""
    if e.has("pinned"):
        return True
    for m in state.markers.values():
        if m.kind not in ("cf", "bz"):
            continue
        if side is not None and not (m.visible_to is None or side in m.visible_to):
            continue
        if m.kind == "cf":
            firer = state.elements.get(state.cf_by.get(m.id, ""))
            enemy = firer is None or firer.side != e.side
        else:
            enemy = m.side != e.side
        if enemy and floor_zone.inside(state, (m.x, m.y), m.radius, m.data.get("aim"), e):
            return True  # a zone aimed at another floor of its building misses it (P338)
    return False


def camouflage_need(state: State, e: Element) -> tuple[int, int]:
    """(team-moves, minimum turns) to camouflage `e`'s position where it stands (p9)."""
    terrain = ROWS.get(state.board.sight_row(e.x, e.y), "cover")
    try:
        return observe.camouflage(e.size, terrain, e.has("dug_in"))
    except RuleError as err:
        unless = "; in the open only dug in" if terrain == "open" and e.size != "A" else ""
        raise IllegalCommand(f"{e.name}: {err}{unless}", "unit") from None


def why_no_camouflage(state: State, side: str, e: Element) -> str | None:
    """Why `e`'s position cannot be camouflaged now, or None (p9)."""
    why = _idle(state, e)
    if why:
        return why
    if e.has("camouflaged"):
        return f"{e.name} is camouflaged already"
    if e.id in state.works:
        return f"{e.name}'s position is already being worked on"
    if under_fire(state, e, side):
        return f"{e.name} is under enemy fire: a position is camouflaged only free of it (p9)"
    try:
        camouflage_need(state, e)
    except IllegalCommand as err:
        return err.reason
    return None


def helpers_of(state: State, side: str, e: Element, raw: list[Any]) -> list[Element]:
    """The helpers named for camouflaging `e`'s position, checked (P263)."""
    out: list[Element] = []
    for h in raw:
        he = state.elements.get(h) if isinstance(h, str) else None
        if he is None or he.side != side or not he.on_table:
            raise IllegalCommand(f"{h!r} is not an element of yours on the table", "helpers")
        if he.id == e.id or he in out:
            raise IllegalCommand(f"{he.name} is named twice", "helpers")
        if he.platoon != e.platoon or he.kind != "infantry":
            raise IllegalCommand(
                f"{he.name} cannot help: helpers are infantry teams of {e.name}'s platoon (P263)",
                "helpers",
            )
        why = _idle(state, he)
        if why:
            raise IllegalCommand(why, "helpers")
        if math.dist((he.x, he.y), (e.x, e.y)) > HELP_REACH:
            raise IllegalCommand(
                f"{he.name} is more than {HELP_REACH:g} cm from {e.name}'s position", "helpers"
            )
        out.append(he)
    return out


def small_arms_cover(state: State, t: Element, xy: tuple[float, float]) -> str:
    """The cover of `t` at `xy` against small arms and in CQC: dug in where it stands, hard
    cover (p16, p18, p39); else the ground's."""
    ground = state.board.cover(*xy)
    if t.has("dug_in") and xy == (t.x, t.y):
        return "hard"
    return ground


def leaving(state: State, e: Element) -> tuple[str, ...]:
    """Log lines for a move of `e` that takes it out of its position or off its work."""
    out = []
    if working(state, e):
        out.append(f"{e.name} stops work on its position: the work is lost (p9, p39)")
    lost = [k.replace("_", " ") for k in POSITION if e.has(k)]
    if lost:
        out.append(f"{e.name} leaves its position and is no longer {' or '.join(lost)} (p9)")
    return tuple(out)


# ----------------------------------------------------------------------------- orders
def templates(state: State, side: str, p: Platoon) -> list[dict[str, Any]]:
    """The dig and camouflage orders `side` may give `p` now (pips checked by the caller)."""
    out: list[dict[str, Any]] = []
    try:
        diggers(state, p)
        out.append({"type": "dig", "platoon": p.id})
    except IllegalCommand:
        pass
    for m in p.members:
        e = state.elements[m]
        if e.active and why_no_camouflage(state, side, e) is None:
            out.append({"type": "camouflage", "unit": e.id})
    return out


def dig(state: State, p: Platoon, base: dict[str, Any]) -> list[Draft]:
    """The `dig` order of `p` (checked, paid by the caller)."""
    teams = diggers(state, p)
    turns = works_rules.DIG_IN_TURNS
    data = base | {"units": [t.id for t in teams], "turns": turns}
    why = (
        f"{', '.join(t.name for t in teams)} begin to dig in: {turns} turns standing, doing "
        "nothing else, counting as moving for observation (p39; errata 4, p111)",
    )
    return [Draft("dig_begun", data, (p.side,), why)]


def camouflage(state: State, side: str, e: Element, raw: list[Any], base: dict) -> list[Draft]:
    """The `camouflage` order of `e` (paid by the caller)."""
    why = why_no_camouflage(state, side, e)
    if why:
        raise IllegalCommand(why, "unit")
    moves, turns = camouflage_need(state, e)
    helpers = helpers_of(state, side, e, raw)
    data = base | {"unit": e.id, "helpers": [h.id for h in helpers], "need_moves": moves,
                   "need_turns": turns}  # fmt: skip
    workers = 1 + len(helpers)
    why_lines = (
        f"camouflaging {e.name} (size {e.size}): {moves} team-moves and at least {turns} "
        f"turn(s) (p9); {workers} team(s) at work, counting as moving for observation and "
        "not firing",
    )
    return [Draft("camouflage_begun", data, (side,), why_lines)]


# ----------------------------------------------------------------------------- folds
def _dig(state: State, d: dict, e: Event) -> None:
    for u in d["units"]:
        state.works[u] = {"kind": "dig", "workers": [u], "turns": 0, "need_turns": d["turns"],
                          "moves": 0, "need_moves": d["turns"]}  # fmt: skip


def _camouflage(state: State, d: dict, e: Event) -> None:
    state.works[d["unit"]] = {
        "kind": "camouflage", "workers": [d["unit"], *d["helpers"]], "turns": 0,
        "need_turns": d["need_turns"], "moves": 0, "need_moves": d["need_moves"],
    }  # fmt: skip


def _progress(state: State, d: dict, e: Event) -> None:
    for u in [*d["works"], *d["done"]]:
        state.works.pop(u, None)
    state.works.update({u: dict(w) for u, w in d["works"].items()})
    for u, counter in d["done"].items():
        state.elements[u].counters[counter] = 1
    state.phase_data["works_counted"] = True


BEGIN = {"dig_begun": _dig, "camouflage_begun": _camouflage}  # orders: the caller pays the pip
FOLDS = {"works_progress": _progress}


def leave_position(state: State, e: Element, where: list[float] | None = None) -> None:
    """`e` leaves its position (p9, P265): its counters go, the position stays empty where it
    was (`where`; default where `e` stands) for its side to reoccupy (P318)."""
    kept = [k for k in POSITION if e.has(k)]
    for k in kept:
        e.counters.pop(k, None)
    seat = state.seats.pop(e.id, None)
    if not kept:
        return
    x, y = (seat[2:] if seat else where or [e.x, e.y])[:2]
    pid = f"pos-{e.side}-{x:.2f}-{y:.2f}"
    group = "infantry" if e.kind == "infantry" else "vehicle"
    state.positions[pid] = {"x": x, "y": y, "side": e.side, "size": e.size, "group": group,
                            "counters": kept, "left": [e.id, state.turn]}  # fmt: skip


def fits(state: State, e: Element, pos: dict[str, Any]) -> bool:
    """Whether `e` may take the empty position `pos` (P318)."""
    if e.side != pos["side"] or SIZES.index(e.size) > SIZES.index(pos["size"]):
        return False
    if pos["left"] == [e.id, state.turn]:
        return False  # moving loses the position (p9): not regained by a shuffle in it
    group = "infantry" if e.kind == "infantry" else "vehicle"
    return "dug_in" not in pos["counters"] or group == pos["group"]


def reoccupy(state: State) -> None:
    """Movers that ended on an empty position of their side take it (p9, p39, P318)."""
    for e in state.elements.values():
        if e.moved <= 0 or not e.active or e.id in state.seats or any(map(e.has, POSITION)):
            continue
        for pid, pos in sorted(state.positions.items()):
            if fits(state, e, pos) and math.dist((e.x, e.y), (pos["x"], pos["y"])) <= SEAT + 1e-9:
                for k in pos["counters"]:
                    e.counters[k] = 1
                state.seats[e.id] = [e.x, e.y, pos["x"], pos["y"]]
                del state.positions[pid]
                break


def taking(state: State, e: Element, xy: tuple[float, float]) -> tuple[str, ...]:
    """The log line of a move of `e` ending at `xy` on an empty position of its side (P318)."""
    for _, pos in sorted(state.positions.items()):
        if fits(state, e, pos) and math.dist(xy, (pos["x"], pos["y"])) <= SEAT + 1e-9:
            what = " and ".join(k.replace("_", " ") for k in pos["counters"])
            return (f"{e.name} takes the empty {what} position at ({pos['x']:g}, {pos['y']:g}) "
                    "(p9, p39, P318)",)  # fmt: skip
    return ()


def empty_positions(state: State, side: str) -> list[dict[str, Any]]:
    """`side`'s own empty positions (the enemy is told nothing of them, P318)."""
    return [
        {"id": k, "x": p["x"], "y": p["y"], "size": p["size"], "counters": list(p["counters"])}
        for k, p in sorted(state.positions.items()) if p["side"] == side
    ]  # fmt: skip


def vacate(state: State) -> None:
    """After an event that moves, carries or fires: an element that moved this turn (or is
    aboard a vehicle) has left its position and its work (p9, p39, P265), unless it took that
    position this turn (P318); one that fired stops work, and loses its camouflage if
    `camouflage_on_fire=lose` (P264). Movers then take the empty positions they ended on."""
    lose = state.rules.opts.camouflage_on_fire == "lose"
    for e in state.elements.values():
        if not e.counters:
            continue
        if e.moved > 0 or e.transport is not None:
            seat = state.seats.get(e.id)
            if seat and e.transport is None and [e.x, e.y] == seat[:2]:
                continue  # it took this position this turn and stands in it
            if any(map(e.has, POSITION)):
                leave_position(state, e, e.path[0][:2] if e.path else None)
        elif e.fired and lose:
            e.counters.pop("camouflaged", None)
    if state.positions:
        reoccupy(state)
    if not state.works:
        return

    def gone(uid: str) -> bool:
        x = state.elements[uid]
        return not x.on_table or x.moved > 0 or x.transport is not None or x.fired

    for u, w in list(state.works.items()):
        if gone(u):
            del state.works[u]
        elif any(gone(h) for h in w["workers"]):
            w["workers"] = [h for h in w["workers"] if not gone(h)]


# ----------------------------------------------------------------------------- turn end
def turn_end(state: State) -> list[Draft]:
    """Each side's work of the turn counted (once, as the turn ends), told to its owner."""
    if not state.works or state.phase_data.get("works_counted"):
        return []
    out = []
    for side in state.sides:
        mine = sorted(u for u in state.works if state.elements[u].side == side)
        if not mine:
            continue
        going: dict[str, Any] = {}
        done: dict[str, str] = {}
        lines = []
        for u in mine:
            e, w = state.elements[u], dict(state.works[u])
            if w["kind"] == "camouflage" and under_fire(state, e, side):  # as its side sees
                going[u] = w
                lines.append(f"{e.name}: under enemy fire this turn, no camouflage work (p9)")
                continue
            w["turns"] += 1
            w["moves"] += len(w["workers"])
            page = "p39" if w["kind"] == "dig" else "p9"
            if w["turns"] >= w["need_turns"] and w["moves"] >= w["need_moves"]:
                done[u] = COUNTER[w["kind"]]
                lines.append(f"{e.name} is {COUNTER[w['kind']].replace('_', ' ')} ({page})")
            else:
                going[u] = w
                lines.append(
                    f"{e.name} {WHAT[w['kind']]}: turn {w['turns']} (at least {w['need_turns']}"
                    f"), {w['moves']} of {w['need_moves']} team-moves ({page})"
                )
        out.append(Draft("works_progress", {"side": side, "works": going, "done": done},
                         (side,), tuple(lines)))  # fmt: skip
    return out


def view(state: State, side: str) -> list[dict[str, Any]]:
    """`side`'s own positions at work (the enemy sees only finished counters it observes)."""
    return [
        {"unit": u, **w} for u, w in sorted(state.works.items()) if state.elements[u].side == side
    ]
