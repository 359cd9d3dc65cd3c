"""What a player reads about an element and a point of the table, from its side's knowledge
(GameRules hooks `unit_card` and `sight_check`).

- `unit_card`: the element's data (main gun by range band, armour face by face, speeds, size,
  small-arms team, provenance and the fields that are placeholders) and its state with a short
  reminder of what each counter means (p112). An enemy's card exists only while the side
  observes it, is asked for by the alias the side knows it by, and shows only what can be seen
  of it (its type, the counters visible on a model, how many teams are seen riding it); an
  unknown name and an unobserved enemy get the same refusal.
- `sight_check`: could this own element see a piece at (x, y)? Line of sight, arc of vision and
  the observation range for each target size there (p8-9), from terrain and the element alone:
  no enemy piece is consulted.
"""

from __future__ import annotations

import math
from typing import Any

from ....engine.commands import IllegalCommand
from ....geometry.footprint import in_arc
from ..models import AFV
from . import arms, floors, mortar_sights, passenger_fire, sight
from .build import speeds
from .state import Element, State
from .view import VISIBLE_COUNTERS

ARMOUR_FACES = {"hf": "hull front", "hs": "hull side", "hr": "hull rear",
                "tf": "turret front", "ts": "turret side", "tr": "turret rear"}  # fmt: skip

# a counter (p112) -> what it means at the table, in the project's own words
REMINDERS = {
    "pinned": "Pinned: it may not move or give covering fire until it recovers (p16).",
    "shaken": "Shaken: its platoon failed a morale test; it may not move nearer the enemy, "
    "fires only back, and withdraws to cover, free, when enemy tanks come within 40 cm or "
    "infantry within 20 cm (p24).",
    "retreat": "Retreat: its platoon broke; each turn it moves its full move toward its own "
    "edge (lost off the table), away from any enemy in its way, and surrenders within 20 cm "
    "of one (p24).",
    "stunned": "Stunned: the crew is dazed; a second stun in the same turn damages the hull "
    "or gun (p31).",
    "hull_damaged": "Hull damaged: it may not move (p31).",
    "gun_damaged": "Gun damaged: its main gun may not fire (p31).",
    "brewed_up": "Brewed up: a burning wreck (p31).",
    "camouflaged": "Camouflaged: harder to observe, its muzzle flash seen at half range; lost "
    "when it moves (p9), or fires with the option camouflage_on_fire=lose (P264).",
    "dug_in": "Dug in: harder to observe and to hit (p8, p39); lost when it moves.",
    "closed_down": "Closed down: the crew sees a narrower arc, half as far (p8-9); small arms "
    "cannot reach the crew of a fully enclosed AFV (p17).",
    "commander_killed": "Commander killed: closed down for the rest of the game, -2 to its AT "
    "fire (p28) and to its platoon's morale tests (p23).",
    "cf": "Giving covering fire this turn (p17).",
}
SIZES = ("A", "B", "C", "D")


def _gun(state: State, e: Element) -> dict[str, Any] | None:
    w = arms.main_gun(state, e)
    if w is None:
        return None
    edges = state.rules.bands(w.bands).edges_cm
    bands = [
        {
            "band": i + 1,
            "up_to": edges[i] if i < len(edges) else None,
            "to_hit": w.to_hit[i] if i < len(w.to_hit) else None,
            "pen": w.penetration[i] if i < len(w.penetration) else None,
        }
        for i in range(max(len(w.to_hit), len(w.penetration)))
    ]
    return {"name": w.name, "bands": bands, "placeholders": w.record.placeholders(*w.paths)}


def _rows(state: State, e: Element, gun: dict[str, Any] | None) -> list[list[str]]:
    """The card's lines as (label, text), for any face to print as they are."""
    rec = state.records[e.id]
    rows = [["data record", f"{rec.name} ({e.kind})"], ["observation size", e.size]]
    if gun:
        bands = "; ".join(
            f"≤{b['up_to'] if b['up_to'] is not None else '?'} cm: hit "
            f"{b['to_hit'] if b['to_hit'] is not None else '—'}, pen "
            f"{b['pen'] if b['pen'] is not None else '—'}"
            for b in gun["bands"]
        )
        rows.append(["main gun", f"{gun['name']}: {bands}"])
    if isinstance(rec, AFV):
        faces = ", ".join(
            f"{label} {getattr(rec.armour, k) if getattr(rec.armour, k) is not None else '?'}"
            for k, label in ARMOUR_FACES.items()
        )
        rows.append(["armour (cm)", faces])
    cc, road = speeds(rec)
    if cc or road:
        rows.append(["speed", f"{cc:g} cm cross-country, {road:g} cm on roads"])
    team = arms.small_arms(state, e)
    if team is not None:
        rows.append(["small arms", f"fires as {team.name}"])
    return rows


def _element(state: State, side: str, name: Any) -> tuple[Element, bool]:
    """The element `side` means by `name` (its own id, or the alias of an enemy it observes
    now) and whether it is its own; one refusal for every name it may not ask about."""
    refuse = IllegalCommand(f"no element {name!r} that {side} knows of", "unit")
    if not isinstance(name, str):
        raise refuse
    e = state.elements.get(name)
    if e is not None and e.side == side and e.on_table:
        return e, True
    real = state.aliases.resolve(side, name)
    if real is None or real not in state.seen.get(side, ()):
        raise refuse
    return state.elements[real], False


def unit_card(state: State, side: str, name: str) -> dict[str, Any]:
    e, own = _element(state, side, name)
    rec = state.records[e.id]
    counters = sorted(k for k, v in e.counters.items() if v and (own or k in VISIBLE_COUNTERS))
    gun = _gun(state, e)
    card: dict[str, Any] = {
        "unit": name,
        "name": rec.name,
        "side": e.side,
        "own": own,
        "data": {
            "record": rec.id,
            "rows": _rows(state, e, gun),
            "gun": gun,
            "provenance": str(rec.provenance),
            "source": rec.source.model_dump(mode="json"),
            "placeholders": sorted(
                p for p, fp in rec.field_provenance.items() if str(fp.provenance) == "placeholder"
            ),
        },
        "state": counters,
        "reminders": [REMINDERS[k] for k in counters if k in REMINDERS],
    }
    if own:
        card["now"] = {
            "moved_cm": round(e.moved, 1),
            "fired": e.fired,
            "limbered": e.limbered,
            "tower": e.tower,
            "towing": e.towing,
            "portee": e.portee,
            "crew_in": e.crew_in,
            "transport": e.transport,
            "platoon": e.platoon,
            "troop_class": e.troop_class,
            "morale": e.morale,
        }
        now = [f"moved {e.moved:g} cm this turn", "has fired" if e.fired else "has not fired"]
        if e.limbered:
            now.append("limbered")
        if e.transport:
            now.append(f"carried by {e.transport}")
        if e.kind == "gun" and e.tower:
            if e.portee:
                now.append(f"carried en portee on {e.tower}")
            else:
                now.append(f"towed by {e.tower}" if e.limbered else f"limbering to {e.tower}")
        if e.crew_in:
            now.append(f"its crew rides apart, in {e.crew_in}")
        if e.towing:
            now.append(f"towing {e.towing}")
        if e.job:
            now.append(f"{e.job['kind'].replace('_', ' ')} until turn {e.job['done']}")
        now += _mortar_now(state, e)
        card["data"]["rows"].append(["now", ", ".join(now)])
        card["data"]["rows"].append(["class and morale", f"{e.troop_class}, {e.morale}"])
    else:
        aboard = passenger_fire.seen(state, e)  # the teams seen riding it (P350), not who
        if aboard:
            card["data"]["rows"].append(["riders", f"{len(aboard)} team(s) seen aboard"])
    return card


def _mortar_now(state: State, e: Element) -> list[str]:
    """A carrier's mortar off the vehicle, or its team's work in hand (P346-P348)."""
    off = mortar_sights.ashore(state, e)
    if off is not None:
        return [f"its mortar is off the vehicle: {state.elements[off['team']].name}"]
    why = mortar_sights.unready(state, e)
    return [why] if why and e.transport is None else []


def sight_check(state: State, side: str, unit: str, x: float, y: float) -> dict[str, Any]:
    e = state.elements.get(unit) if isinstance(unit, str) else None
    if e is None or e.side != side or not e.on_table:
        raise IllegalCommand(f"no element {unit!r} of {side} on the table", "unit")
    if not (math.isfinite(x) and math.isfinite(y)):
        raise IllegalCommand("x and y must be finite numbers", "x")
    board = state.board
    if not (0 <= x <= board.width and 0 <= y <= board.depth):
        raise IllegalCommand(f"({x:g}, {y:g}) is off the table", "x")
    a, b = (e.x, e.y), (x, y)
    dist = math.dist(a, b)
    out: dict[str, Any] = {"distance": round(dist, 1)}
    if e.transport:
        return {**out, "sees": False, "clear_line": False, "reason": "it is carried (p26)"}
    clear = board.los(a, b, floors.eye(state, e))  # from its floor (P329)
    facing = e.turret if e.turret is not None else e.facing
    inside = in_arc(a, facing, b, sight.arc(e))
    ghost = Element("?", "", "", "", "", "", "", x, y)
    ghost.feature = board.feature(x, y)
    ranges = {}
    for size in SIZES:
        ghost.size = size
        ranges[size] = round(sight.reach(state, e, ghost), 1)
    if not clear:
        reason = "terrain blocks the line of sight"
    elif not inside:
        reason = f"outside its {2 * sight.arc(e):g}° arc of vision (p9)"
    else:
        seen = [s for s in SIZES if dist <= ranges[s]]
        reason = (
            f"clear line; at {dist:.0f} cm it observes a piece of size {', '.join(seen)} there"
            if seen
            else "clear line, but beyond its observation range for any size there (p8)"
        )
    return {
        **out,
        "sees": clear and inside and dist <= max(ranges.values()),
        "clear_line": clear,
        "in_arc": inside,
        "ranges": ranges,
        "reason": reason,
    }
