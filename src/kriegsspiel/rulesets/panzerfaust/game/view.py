"""What one side may know (the engine envelope plus a `panzerfaust` section): its own
elements in full; enemy elements it observes now, by their alias for this side, with what can
be seen of them (type, facing, visible counters, the teams seen riding it); markers where it
last saw the others; its companies' pips and platoons; the markers it may see. The umpire sees
everything."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from ....engine import victory
from ....engine.envelope import scenario_keys
from ....engine.events import SPECTATOR, UMPIRE
from ....geometry.terrain import clip_lines
from . import (
    along_move,
    counter_battery,
    fieldworks,
    flame,
    indirect_smoke,
    passenger_fire,
    phases,
    regroup,
    support,
)
from .state import Element, State

VISIBLE_COUNTERS = ("brewed_up", "camouflaged", "dug_in", "closed_down")  # seen on a model


def own_piece(state: State, e: Element) -> dict[str, Any]:
    w = flame.weapon(state, e)
    return {
        "id": e.id, "side": e.side, "x": e.x, "y": e.y, "facing": e.facing, "kind": e.kind,
        "name": e.name, "type": e.type, "turret": e.turret, "company": e.company,
        "platoon": e.platoon, "hq": e.hq, "radio": e.radio, "size": e.size,
        "troop_class": e.troop_class, "morale": e.morale, "counters": dict(e.counters),
        "transport": e.transport, "carrying": list(e.carrying), "limbered": e.limbered,
        "tower": e.tower, "towing": e.towing, "job": dict(e.job) if e.job else None,
        "fires_from": e.fires_from, "moved": e.moved, "fired": e.fired, "hidden": e.hidden,
        "portee": e.portee, "crew_in": e.crew_in, "floor": e.floor,
        # its flame weapon and reach (p21), for the table's `flame` order
        "flame": {"weapon": w, "reach": flame.reach(w)} if w else None,
    }  # fmt: skip


def enemy_piece(state: State, side: str, e: Element) -> dict[str, Any]:
    out = {
        "id": state.aliases.alias(side, e.id), "side": e.side, "x": e.x, "y": e.y,
        "facing": e.facing, "kind": e.kind, "name": state.records[e.id].name, "type": e.type,
        "turret": e.turret, "size": e.size, "floor": e.floor,
        "counters": {k: v for k, v in e.counters.items() if k in VISIBLE_COUNTERS},
    }  # fmt: skip
    aboard = passenger_fire.seen(state, e)  # teams seen riding it (P350)
    if aboard:
        out["passengers"] = len(aboard)
    # a gun seen hooked up shows it; the link is named only when this side observes both
    gun = e if e.kind == "gun" else state.elements.get(e.towing) if e.towing else None
    if gun is not None and gun.limbered:
        if e is gun:
            out["limbered"] = True
            if gun.portee:  # seen riding on a truck's back (p34)
                out["portee"] = True
        other = gun.tower if e is gun else gun.id
        if other in state.seen.get(side, ()):
            out["tow_link"] = state.aliases.alias(side, other)
    return out


def counters(state: State, side: str) -> list[dict[str, Any]]:
    """The enemy's hidden-deployment counters `side` sees (p5): its real elements that side has
    not yet observed and its dummies, alike: an alias, a place and a size letter."""
    seen = set(state.seen.get(side, ()))
    out = [
        {"id": state.aliases.alias(side, e.id), "x": e.x, "y": e.y, "size": e.size}
        for e in state.elements.values()
        if e.side != side and e.hidden and e.active and e.id not in seen
    ]
    out += [
        {"id": state.aliases.alias(side, m.id), "x": m.x, "y": m.y, "size": m.data.get("size", "A")}
        for m in state.markers.values()
        if m.kind == "dummy" and m.side != side
    ]
    return sorted(out, key=lambda c: c["id"])


def _to_fire(state: State, side: str) -> str | None:
    """Phase G: the own element whose turn it is to fire, if any."""
    if state.phase != "G" or state.fire_step >= len(state.fire_order):
        return None
    e = state.elements[state.fire_order[state.fire_step]]
    return e.id if e.side == side else None


def view(game: Any, state: State, side: str) -> dict[str, Any]:
    sc = state.scenario
    section: dict[str, Any] = {}
    if side == UMPIRE:
        own = [own_piece(state, e) for e in state.elements.values() if e.on_table]
        enemies: list[dict[str, Any]] = []
        last: list[dict[str, Any]] = []
        markers = [asdict(m) for m in state.markers.values()]
    elif side == SPECTATOR:
        # no live piece, not even an observed one: a watcher could tell its owner that it
        # is observed (engine/spectate.py shows everything after the game or delayed)
        own, enemies, last = [], [], []
        markers = [asdict(m) for m in state.markers.values() if m.visible_to is None]
    else:
        own = [
            own_piece(state, e) for e in state.elements.values() if e.side == side and e.on_table
        ]
        seen = state.seen.get(side, [])
        # a piece destroyed in the step that ended the game is never re-sighted: skip it
        enemies = [
            enemy_piece(state, side, state.elements[i]) for i in seen if state.elements[i].on_table
        ]
        last = [
            {"id": state.aliases.alias(side, i), "x": round(xy[0], 2), "y": round(xy[1], 2)}
            for i, xy in state.last_seen.get(side, {}).items()
            if i not in seen
        ]
        markers = [
            asdict(m)
            for m in state.markers.values()
            if m.visible_to is None or side in m.visible_to
        ]
        section = {
            "companies": [
                {"id": c.id, "name": c.name, "hq": c.hq, "pips": c.pips, "spent": c.spent,
                 "finished": c.finished, "troop_class": c.troop_class, "morale": c.morale,
                 "status": c.status, "platoons": list(c.platoons)}
                for c in state.companies.values() if c.side == side
            ],
            "platoons": [
                {"id": p.id, "name": p.name, "company": p.company, "hq": p.hq,
                 "members": list(p.members), "moved": p.moved, "order": p.order,
                 "status": p.status}
                for p in state.platoons.values() if p.side == side
            ],
            "to_deploy": [e.id for e in state.elements.values() if e.side == side and e.x is None],
            "flashes": dict(state.flashes.get(side, {})),
            "tracks": along_move.tracks(state, side),  # enemy moves seen this turn (P286)
            "pips": "; ".join(
                f"{c.name} {c.pips - c.spent} of {c.pips}" + (" (finished)" if c.finished else "")
                for c in state.companies.values() if c.side == side
            ),
            "platoon_moving": state.phase_data.get("platoon") if state.phase == "F" else None,
            "to_fire": _to_fire(state, side),
            "support": _support(state, side),  # own batteries and aircraft (phase A sheet)
            "regroups": regroup.view(state, side),  # own regroups under way (p24)
            "works": fieldworks.view(state, side),  # own positions being dug or camouflaged
            "positions": fieldworks.empty_positions(state, side),  # own empty positions (P318)
        }  # fmt: skip
    section["markers"] = markers
    section["sections"] = section_lines(state)  # public: the table's own drawing
    # exit goals: a side's own progress in full, the enemy's goal only (decision P258)
    section["exit"] = victory.exit_counters(sc, game.statuses(state), side)
    if side not in (UMPIRE, SPECTATOR):
        section["counters"] = counters(state, side)
    queue = state.queue
    section["moving"] = queue.to_act() if queue else None
    phase = phases.phase(state.phase)
    return {
        "ruleset": "panzerfaust",
        "you": side,
        "turn": state.turn,
        "phase": state.phase,
        "phase_title": phase.title,
        "active": game.active_sides(state),
        **scenario_keys(sc),
        "options": {},
        "legal": game.legal_commands(state, side),
        "result": state.result,
        "prompt": None,
        "units": own,
        "enemies": enemies,
        "last_known": last,
        "panzerfaust": section,
    }


def section_lines(state: State) -> list[dict[str, Any]]:
    """Each building's section lines (p19, P328) as the table draws them: clipped to the
    building's walls, so that a line the scenario drew past them stops there (P340)."""
    memo = state.cache.get("section_lines")
    if memo is None:
        memo = state.cache["section_lines"] = [
            {"feature": f.id, "line": [list(p) for p in line]}
            for f in state.scenario.terrain
            if f.polygon and (f.attributes or {}).get("sections")
            for line in clip_lines(f.polygon, f.attributes["sections"])
        ]
    return memo


def _support(state: State, side: str) -> dict[str, Any]:
    """The phase A sheet: own batteries (with the rounds each may fire, p37) and aircraft, and
    the listening post's report of located enemy batteries (p37, P269)."""
    out = support.view(state, side)
    for row, (_, b) in zip(out["batteries"], support.batteries(state, side), strict=True):
        row["ammo"] = [a for a in indirect_smoke.AMMO
                       if indirect_smoke.battery_refused(state, side, b, a) is None]  # fmt: skip
    out["listening_post"] = counter_battery.report(state, side)
    return out
