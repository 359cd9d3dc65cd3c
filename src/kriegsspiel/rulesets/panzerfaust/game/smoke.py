"""Smoke and WP laid by direct fire (pp. 32-33) in phase G: the element whose turn it is to fire
puts a point of aim in its line of sight and range and rolls the rules core's smoke roll
(rules/area_fire.smoke: the to-hit at that range with the firer's variations only). On a
success its beaten zone is smoked from the start of the next turn ("move"), for as long as the
wind allows (rules/area_fire.smoke_duration), drifting downwind from its second turn on
(decision P191). WP also rolls against every enemy soft element in the zone, -2 (p33 step 8).
A round may name a `floor` of the building at its point (p32-33, P367, checked as HE's P338):
the cloud is the same (P368), and WP rolls there only for the teams on that floor (option
`wp_floor`, P369).

A smoke cloud is a public marker (everyone sees smoke), 5 cm high: a line of sight that
touches it is blocked, and muzzle flashes behind it are hidden (p33 step 7; decision P190).
Until it forms, the marker is its firer's side's alone."""

from __future__ import annotations

import math
import random
from typing import Any

from shapely import LineString, Point
from shapely.geometry.base import BaseGeometry

from ....chance import sample
from ....engine.commands import IllegalCommand
from ....engine.events import Draft, Event
from ..rules import area_fire
from . import area, floor_zone
from .state import Element, Marker, State

HEADINGS = {"N": 0.0, "E": 90.0, "S": 180.0, "W": 270.0}  # compass bearing of the named wind


# ----------------------------------------------------------------------------- wind
def wind(state: State) -> tuple[str, float | None]:
    """The wind (strength, bearing the smoke drifts towards) from the pre-game (p10), else
    none (decision P191)."""
    w = (state.pregame or {}).get("weather", {})
    strength, named = w.get("wind") or "none", w.get("wind_direction")
    if strength == "none" or named not in HEADINGS:
        return strength, None
    heading = HEADINGS[named]
    if state.rules.opts.wind_named == "from":  # a north wind blows from the north
        heading = (heading + 180.0) % 360.0
    return strength, heading


# ----------------------------------------------------------------------------- clouds
def clouds(state: State) -> list[Marker]:
    """The smoke clouds on the table this turn (laid, not yet gone)."""
    return [
        m
        for m in state.markers.values()
        if m.kind == "smoke" and m.data["from_turn"] <= state.turn <= m.data["until"]
    ]


def spread(m: Marker, turn: int) -> tuple[float, float]:
    """Where the downwind end of a cloud's spread is on `turn` (p33: from its second turn)."""
    heading, drift = m.data.get("heading"), m.data.get("drift", 0)
    n = max(0, turn - m.data["from_turn"])
    if heading is None or not drift or not n:
        return m.x, m.y
    rad = math.radians(heading)
    return m.x + math.sin(rad) * drift * n, m.y + math.cos(rad) * drift * n


def shape(m: Marker, turn: int) -> BaseGeometry:
    """The cloud's outline on `turn`: its circle, elongated downwind as it spreads (p33)."""
    end = spread(m, turn)
    if end == (m.x, m.y):
        return Point(m.x, m.y).buffer(m.radius)
    return LineString([(m.x, m.y), end]).buffer(m.radius)


def _shapes(state: State) -> list[BaseGeometry]:
    key = (state.turn, tuple(sorted(m.id for m in clouds(state))))
    memo = state.cache.get("smoke")
    if memo is None or memo[0] != key:
        memo = state.cache["smoke"] = (key, [shape(m, state.turn) for m in clouds(state)])
    return memo[1]


def blocks(state: State, a: tuple[float, float], b: tuple[float, float]) -> bool:
    """Whether smoke lies across the line of sight a-b (p33 step 7; decision P190)."""
    shapes = _shapes(state)
    if not shapes:
        return False
    line = LineString([a, b]) if a != b else Point(a)
    return any(s.intersects(line) for s in shapes)


def covers(state: State, xy: tuple[float, float]) -> bool:
    """Whether the point is inside smoke this turn."""
    return any(s.intersects(Point(xy)) for s in _shapes(state))


def new_turn(state: State) -> None:
    """At a turn's start, smoke fired last turn forms (public from now) and spent smoke goes."""
    for k, m in list(state.markers.items()):
        if m.kind != "smoke":
            continue
        if state.turn > m.data["until"]:
            del state.markers[k]
        elif state.turn >= m.data["from_turn"]:
            m.visible_to = None
            end = spread(m, state.turn)
            if end != (m.x, m.y):  # the drawn outline: a circle swept to here
                m.data["to"] = [round(end[0], 2), round(end[1], 2)]


# ----------------------------------------------------------------------------- firing
def disperses(state: State, wp: bool) -> str | None:
    """Why smoke (or WP) laid now would have no effect: a wind that scatters it (p33)."""
    strength, _ = wind(state)
    moves, _ = area_fire.smoke_duration(strength, wp)
    if moves <= 0:
        return f"in a {strength} wind {'WP' if wp else 'smoke'} disperses at once (p33)"
    return None


def why_not(state: State, e: Element, xy: tuple[float, float], wp: bool) -> str | None:
    """Why `e` cannot fire smoke (or WP) at `xy` now, or None (p32-33)."""
    w = area.he_weapon(state, e)
    rec = getattr(w, "record", None)
    if w is None or not getattr(rec, "wp" if wp else "smoke", False):
        return f"{e.name} has no {'WP' if wp else 'smoke'} rounds (gun chart, p32)"
    why = disperses(state, wp)
    if why:
        return why
    if not state.board.on_table(*xy):
        return f"({xy[0]:g}, {xy[1]:g}) is off the table"
    from . import sight  # sight imports this module

    if not sight.clear(state, (e.x, e.y), xy, None, (), sight.floors.eye(state, e)):
        return f"{e.name} has no line of sight to ({xy[0]:g}, {xy[1]:g}) (p32)"
    return area.why_not(state, e, xy)


def templates(state: State, e: Element) -> list[dict[str, Any]]:
    """Smoke commands offered to `e`: on each enemy element its side observes (screening it)."""
    if area.he_weapon(state, e) is None:
        return []
    out = []
    for tid in state.seen.get(e.side, ()):
        t = state.elements[tid]
        for wp in (False, True):
            if why_not(state, e, (t.x, t.y), wp) is None:
                out.append({"type": "smoke", "unit": e.id, "x": t.x, "y": t.y, "wp": wp})
    return out


def resolve(
    state: State, side: str, e: Element, cmd: dict[str, Any], rng: random.Random
) -> tuple[list[Draft], list[tuple[Element, str, Any]]]:
    """The smoke roll; on a success the cloud's marker and, for WP, each soft target's roll."""
    xy = (float(cmd["x"]), float(cmd["y"]))
    wp = bool(cmd.get("wp"))
    why = why_not(state, e, xy, wp)
    if why:
        raise IllegalCommand(why, "x")
    aimed = _floor(state, e, xy, cmd)
    w = area.he_weapon(state, e)
    assert w is not None
    shot = area_fire.AreaShot(
        w, math.dist((e.x, e.y), xy), troop_class=e.troop_class, firer_moved=e.moved > 5
    )
    res = sample(area_fire.smoke, state.rules, shot, rng=rng)
    placed = res.result.name == "placed"
    lines = list(res.lines())
    lines += [f"placeholder used: {p}" for p in sorted(res.placeholders)]
    data: dict[str, Any] = {"unit": e.id, "x": xy[0], "y": xy[1], "wp": wp, "placed": placed}
    if aimed:
        data["floor"] = aimed["floor"]
    hits: list[tuple[Element, str, Any]] = []
    if placed:
        data["marker"], more = cloud(state, area_fire.radius(w), wp)
        lines += more
        if aimed:
            lines.append("the cloud fills the zone on every floor of the building, as without a "
                         "floor: the floor named narrows only WP's rolls (P368)")  # fmt: skip
        if wp:
            if state.rules.opts.wp_floor == "every":
                aimed = None  # the burst's rolls reach every floor (P369 option)
            lines += floor_zone.note(aimed)
            hits = area.fire(state, e, xy, rng, wp=True, aimed=aimed)
    else:
        lines.append("the smoke misses: no cloud (p33)")
    return [Draft("smoke_fired", data, (side,), tuple(lines))], hits


def _floor(
    state: State, e: Element, xy: tuple[float, float], cmd: dict[str, Any]
) -> floor_zone.Aim | None:
    """The floor a smoke or WP round is aimed at (p32-33, P367), checked as HE's (P338)
    before any die is rolled: a building of several floors at the point, one of its floors,
    seen by the firer; None when the command names none."""
    floor = cmd.get("floor")
    if floor is None:
        return None
    why = floor_zone.why_not(state, e, xy, floor)
    if why:
        raise IllegalCommand(why, "floor")
    return floor_zone.aim(state, xy, floor)


def fold(state: State, d: dict, e: Event) -> None:
    """The cloud's marker, its firer's side's until it forms next turn."""
    mk = d.get("marker")
    if mk:
        add_cloud(state, mk, (d["x"], d["y"]), state.elements[d["unit"]].side)


def cloud(state: State, radius: float, wp: bool) -> tuple[dict[str, Any], list[str]]:
    """The marker data of a cloud laid this turn at a zone of `radius` (it forms next turn and
    lasts as the wind allows, p33) and the line that says so; direct and indirect smoke alike."""
    strength, heading = wind(state)
    moves, drift = area_fire.smoke_duration(strength, wp)
    n = sum(1 for m in state.markers.values() if m.kind == "smoke")
    mk = {
        "id": f"smoke-{state.turn}-{n + 1}", "radius": radius,
        "from_turn": state.turn + 1, "until": state.turn + moves,
        "drift": drift, "heading": heading, "wp": wp,
    }  # fmt: skip
    line = (
        f"{'WP' if wp else 'smoke'} covers {radius:g} cm round the point from "
        f"turn {state.turn + 1} to {state.turn + moves} in a {strength} wind"
        + (f", spreading {drift} cm a turn downwind from its second turn" if drift else "")
        + " (p33)"
    )
    return mk, [line]


def add_cloud(state: State, mk: dict[str, Any], xy: tuple[float, float], side: str) -> None:
    """Fold a cloud's marker: its firer's side's until it forms next turn (then public)."""
    data = {k: mk[k] for k in ("from_turn", "until", "drift", "heading", "wp")}
    state.markers[mk["id"]] = Marker(
        mk["id"], "smoke", None, xy[0], xy[1], mk["radius"], data, visible_to=[side]
    )
    state.cache.pop("smoke", None)
