"""Phase D (p6, p17): covering fire declared. Each side names the elements that give covering
fire and where (1 pip each from the company); a CF counter goes by the firer (its side's to
see) and the matching one on the target zone (everyone's); enemy infantry in the zone are
pinned until the turn ends and must pass a morale test before moving or firing. The zone is a
circle whose diameter is the firers' summed width in team bases (decision P144: the book
gives widths, no depth). A covering-fire element does nothing else this turn. A zone aimed at
one floor of a building (`floor`, p17: one floor a weapon) pins, in that building, only the
teams on that floor (floor_zone.py, P338-P339)."""

from __future__ import annotations

import math
import random
from typing import Any

from ....chance import sample
from ....engine.commands import IllegalCommand
from ....engine.events import Draft, Event
from ..rules import infantry_fire
from ..rules.infantry_fire import covering_fire_width
from . import arms, fieldworks, floor_zone, floors, turn
from .commands import Cover
from .state import Marker, State

COMMANDS = {"cover": Cover}
BASE = 4.0  # cm: a team's base width (40 mm, p11)


def enter(state: State) -> None:
    """A new turn's covering fire: last turn's zones and pins end."""
    for k in [k for k, m in state.markers.items() if m.kind == "cf"]:
        del state.markers[k]
    state.cf_by.clear()
    for e in state.elements.values():
        e.counters.pop("pinned", None)
        e.counters.pop("cf", None)


def _cover(state: State, d: dict, e: Event) -> None:
    el = state.elements[d["unit"]]
    el.counters["cf"] = 1
    state.cf_by[d["zone"]] = el.id
    state.companies[el.company].spent += 1


def _zone(state: State, d: dict, e: Event) -> None:
    data = {"aim": d["aim"]} if d.get("aim") else {}
    state.markers[d["id"]] = Marker(d["id"], "cf", None, d["x"], d["y"], d["radius"], data)


def _pinned(state: State, d: dict, e: Event) -> None:
    for uid in d["units"]:
        state.elements[uid].counters["pinned"] = 1


def actors(state: State) -> list[str]:
    return turn.waiting(state)


def _able(state: State, side: str, uid: Any) -> Any:
    e = turn.own(state, side, uid)
    if e.transport or e.counters.get("cf"):
        raise IllegalCommand(f"{e.name} cannot give covering fire now", "unit")
    if e.has("stunned") or e.has("pinned"):
        raise IllegalCommand(f"{e.name} is stunned or pinned", "unit")
    if fieldworks.working(state, e):
        raise IllegalCommand(
            f"{e.name} is at work on its position and may do nothing else (p9, p39)", "unit"
        )
    weapons = arms.cover_weapons(state, e)
    team = arms.small_arms(state, e)
    if not weapons or team is None:
        raise IllegalCommand(
            f"{e.name} has no weapon that gives covering fire (p17: SMG, assault rifle, LMG, "
            "MMG, HMG)", "unit")  # fmt: skip
    c = state.companies[e.company]
    if c.pips - c.spent < 1:
        raise IllegalCommand(f"{c.name} has no pip left for covering fire (p6)", "unit")
    return e, weapons, team


def legal(state: State, side: str) -> list[dict[str, Any]]:
    out = []
    for e in state.side_elements(side):
        if not e.active:
            continue
        try:
            e, _, team = _able(state, side, e.id)
        except IllegalCommand:
            continue
        far = arms.reach(state, team)
        for t in (state.elements[i] for i in state.seen.get(side, ())):
            if t.kind != "infantry" or math.dist((e.x, e.y), (t.x, t.y)) > far:
                continue
            cmd = {"type": "cover", "unit": e.id, "x": t.x, "y": t.y}
            if state.board.los((e.x, e.y), (t.x, t.y), floors.eye(state, e)):
                out.append(cmd)
            for f in floor_zone.choices(state, e, (t.x, t.y)):  # one floor it sees (p17)
                out.append(cmd | {"floor": f})
    return out


def resolve(state: State, side: str, cmd: dict[str, Any], rng: random.Random) -> list[Draft]:
    e, weapons, team = _able(state, side, cmd.get("unit"))
    x, y = float(cmd["x"]), float(cmd["y"])
    if not state.board.on_table(x, y):
        raise IllegalCommand(f"({x:g}, {y:g}) is off the table", "x")
    far = arms.reach(state, team)
    if math.dist((e.x, e.y), (x, y)) > far:
        raise IllegalCommand(f"the zone is beyond {e.name}'s small-arms range ({far:g} cm)", "x")
    floor = cmd.get("floor")
    if floor is not None:  # the line to that floor's height (P338)
        why = floor_zone.why_not(state, e, (x, y), floor)
        if why:
            raise IllegalCommand(why, "floor")
    elif not state.board.los((e.x, e.y), (x, y), floors.eye(state, e)):  # its floor (P329)
        raise IllegalCommand(f"{e.name} has no line of sight to ({x:g}, {y:g})", "x")
    aimed = floor_zone.aim(state, (x, y), floor)
    radius = covering_fire_width(weapons) * BASE / 2
    n = sum(1 for m in state.markers.values() if m.kind == "cf")
    zone = {"id": f"cf-{state.turn}-{n + 1}", "x": x, "y": y, "radius": radius}
    if aimed:
        zone["aim"] = aimed
    enemy = state.enemy(side)
    pinned = [
        o.id
        for o in state.side_elements(enemy)
        if o.active and o.kind == "infantry" and floor_zone.inside(state, (x, y), radius, aimed, o)
    ]
    lines = (f"covering fire {covering_fire_width(weapons):g} base widths wide (p17)",
             *floor_zone.note(aimed))  # fmt: skip
    drafts = [
        Draft("cover", {"unit": e.id, "zone": zone["id"]}, (side,), lines),
        Draft("cf_zone", zone, None),
    ]
    if pinned:
        drafts.append(Draft("pinned", {"units": pinned, "zone": zone["id"]}, (enemy,)))
    return drafts


def automatic(state: State, rng: random.Random) -> list[Draft]:
    return []


def fire_on(state: State, e: Any, rng: random.Random) -> list[Draft]:
    """A pinned element that moves or fires takes the covering fire of every zone it is in, at
    -5 (p17): the firers' own small arms, rolled now; its owner learns the losses, not who."""
    results, lines = [], []
    for zone, firer_id in sorted(state.cf_by.items()):
        m, firer = state.markers.get(zone), state.elements[firer_id]
        if m is None or not firer.active or not covers(state, m, e):
            continue
        team = arms.small_arms(state, firer)
        dist = math.dist((firer.x, firer.y), (e.x, e.y))
        if team is None or dist > arms.reach(state, team):
            continue
        f = infantry_fire.Fire(((team, 1),), dist, cover=state.board.cover(e.x, e.y),  # type: ignore[arg-type]
                               speculative=True, troop_class=firer.troop_class)  # fmt: skip
        res = sample(infantry_fire.infantry_fire, state.rules, f, rng=rng)
        results.append({"target": e.id, "result": res.result.name, "src": firer_id})
        lines += ["covering fire on the pinned element (p17):", *res.lines()]
    if not results:
        return []
    worst = max(results, key=lambda r: int(r["result"].split("_")[1]))
    return [
        Draft("cf_hits", {"results": results}, ()),
        Draft("shot_at", {"unit": e.id, "result": worst["result"], "at_xy": None, "by": None,
                          "covering_fire": True}, (e.side,), tuple(lines)),
    ]  # fmt: skip


def covers(state: State, m: Marker, e: Any) -> bool:
    """Whether the covering-fire zone `m` reaches `e` (on its floor, when aimed at one)."""
    return floor_zone.inside(state, (m.x, m.y), m.radius, m.data.get("aim"), e)


def killed(drafts: list[Draft]) -> bool:
    """Whether the covering fire drafted here destroys the element (it then does not act)."""
    return any(
        r["result"] != "lost_0" for d in drafts if d.type == "cf_hits" for r in d.data["results"]
    )


def _cf_hits(state: State, d: dict, e: Event) -> None:
    from .orders_fire import land

    land(state, d["results"])


FOLDS = {
    "cover": _cover,
    "cf_zone": _zone,
    "pinned": _pinned,
    "cf_hits": _cf_hits,
}
