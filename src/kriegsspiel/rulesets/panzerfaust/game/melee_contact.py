"""Who touches whom in close combat, and from where (pp. 17-19, P305-P308).

- Bases touch when their centres are within 4.5 cm (40 mm bases, P146); a vehicle reaches
  as far as its model's half-length (P192) and a quarter centimetre: a passenger fights from
  its vehicle, whose model must touch the enemy base (p19, P308), and an AFV open at the top,
  sides or rear can be touched by infantry (p19; Q&A 1 and 9, p111). One of the two is always
  an infantry base on foot: vehicles do not fight vehicles.
- A wall or hedge drawn as a line between them: both must touch it instead (p17); a wall
  with `attributes.blank: true` (over figure height, no doors or windows) stops CQC (P306).
- A building: every infantry base inside it on the same floor fights every enemy there,
  whatever the distance (p17, p19); bases on different floors never touch (P307). A building
  with `attributes.sections` (lines cutting it) fights section by section: bases in different
  sections never touch (p19, P328).
- The +4 from the rear (pp. 18-19, P305): the attacker moved this turn and its base lies
  wholly behind the line of the target's rear edge; never at a target in a building."""

from __future__ import annotations

import math
from typing import Any

from shapely import LineString, Point

from ..models import AFV
from .board import LINEAR_WIDTH
from .screens import RADIUS
from .state import Element, State

BASE = 4.0  # cm: an infantry base (40 mm, p11)
REACH = 2.25  # cm: half the 4.5 cm between the centres of touching bases (P146)
GAP = REACH - BASE / 2  # cm: what a model reaches past its own edge
LINEAR = {"wall": "hard", "hedge": "soft", "bocage": "hard"}  # p17-18: linear obstacles
EPS = 1e-6
WIDEST = 2.0  # cm: half the widest wall or hedge whose two sides may touch across it


def body(state: State, e: Element) -> Element:
    """The model that touches for `e`: its vehicle when it is a passenger (p19)."""
    return state.elements[e.transport] if e.transport else e


def half_depth(state: State, e: Element) -> float:
    """Half the length of `e`'s model along its facing: a base (2 cm) or a vehicle (P192)."""
    b = body(state, e)
    return BASE / 2 if b.kind == "infantry" else RADIUS.get(b.size, RADIUS["A"])


def reach(state: State, e: Element) -> float:
    return half_depth(state, e) + GAP


def open_afv(state: State, e: Element) -> bool:
    """An AFV open at the top, sides or rear: its crew can be fought (p19, Q&A 9 p111)."""
    rec = state.records.get(e.id)
    return e.kind == "afv" and isinstance(rec, AFV) and bool(rec.open)


def building(state: State, x: float, y: float) -> Any:
    """The building feature at (x, y), or None."""
    for f in state.board.at(x, y):
        if state.board.kinds[f.id].sight == "inside_building":
            return f
    return None


def section(state: State, f: Any, x: float, y: float) -> int:
    """The section of building `f` that (x, y) lies in (p19 "if desired", P328): the
    building's polygon cut by its `attributes.sections` lines, pieces numbered from 0 in the
    order of their lowest corner (x, then y); a point on a line takes the nearest piece."""
    parts = sections(state, f)
    if len(parts) < 2:
        return 0
    p = Point(x, y)
    return min(range(len(parts)), key=lambda i: (parts[i].distance(p), i))


def sections(state: State, f: Any) -> list[Any]:
    """The pieces of building `f` cut by its section lines (memoised per game)."""
    memo = state.cache.setdefault("sections", {})
    if f.id not in memo:
        memo[f.id] = cut(f.geometry, (f.attributes or {}).get("sections") or [])
    return memo[f.id]


def cut(shape: Any, lines: list) -> list[Any]:
    """A building's polygon cut by section lines (each a list of two or more points), its
    pieces in order of their lowest corner; ValueError when a line divides nothing."""
    from shapely.ops import split

    parts = [shape]
    for n, ln in enumerate(lines):
        if not isinstance(ln, list) or len(ln) < 2:
            raise ValueError(f"sections[{n}]: a line needs at least 2 points [x, y]")
        line = LineString(ln)
        nxt = []
        for p in parts:
            nxt += list(split(p, line).geoms)
        if len(nxt) == len(parts):
            raise ValueError(f"sections[{n}]: the line does not divide the building (p19)")
        parts = nxt
    return sorted(parts, key=lambda g: (g.bounds[0], g.bounds[1]))


def same_room(state: State, a: Element, b: Element) -> bool:
    """Whether two bases on foot stand in the same building and the same section of it."""
    pa, pb = body(state, a), body(state, b)
    ba = building(state, pa.x, pa.y)
    if ba is None or ba is not building(state, pb.x, pb.y):
        return False
    return section(state, ba, pa.x, pa.y) == section(state, ba, pb.x, pb.y)


def floors(f: Any) -> int:
    """The floors of a building feature (`attributes.floors`, default 1: the ground floor)."""
    return int((f.attributes or {}).get("floors", 1))


def floor(state: State, e: Element) -> int:
    """The floor `e` fights on: its own inside a building, else the ground (0)."""
    b = body(state, e)
    return e.floor if e.floor and building(state, b.x, b.y) is not None else 0


def _linear(state: State) -> list[tuple[str, str, Any, float, bool]]:
    """The scenario's walls and hedges drawn as lines: (id, cover, line, half width, blank)."""
    memo = state.cache.get("cqc_linear")
    if memo is None:
        memo = []
        for f in state.scenario.terrain:
            kind = f.kind.casefold()
            if f.line is not None and kind in LINEAR:
                blank = kind == "wall" and bool((f.attributes or {}).get("blank"))
                half = (f.width or LINEAR_WIDTH) / 2
                memo.append((f.id, LINEAR[kind], LineString(f.line), half, blank))
        state.cache["cqc_linear"] = memo
    return memo


def between(state: State, a: Element, b: Element) -> list[tuple[str, str, Any, float, bool]]:
    """The walls and hedges lying between two models (the line joining their centres
    crosses them)."""
    pa, pb = body(state, a), body(state, b)
    feats = _linear(state)
    if not feats or (pa.x, pa.y) == (pb.x, pb.y):
        return []
    seg = LineString([(pa.x, pa.y), (pb.x, pb.y)])
    return [f for f in feats if f[2].intersects(seg)]


def touch(state: State, a: Element, b: Element) -> bool:
    """Whether two elements of opposing sides are in close combat contact (p17, p19)."""
    foot = [e for e in (a, b) if e.kind == "infantry" and e.transport is None]
    if not foot:
        return False  # vehicles and their passengers fight only infantry on foot
    if floor(state, a) != floor(state, b):
        return False
    pa, pb = body(state, a), body(state, b)
    d = math.dist((pa.x, pa.y), (pb.x, pb.y))
    ra, rb = reach(state, a), reach(state, b)
    if d > ra + rb + 2 * WIDEST:  # too far apart but for a building they share
        return len(foot) == 2 and same_room(state, a, b)
    if len(foot) == 2:
        pa_b, pb_b = building(state, pa.x, pa.y), building(state, pb.x, pb.y)
        if pa_b is not None and pa_b is pb_b:
            # the same building: in CQC whatever the distance (p17), section by section (P328)
            return same_room(state, a, b)
    walls = between(state, a, b)
    if not walls:
        return d <= ra + rb + EPS
    if any(w[4] for w in walls):
        return False  # a blank wall over figure height (p17)
    if d > ra + rb + 2 * min(WIDEST, max(w[3] for w in walls)) + EPS:
        return False
    # both must touch every wall or hedge between them (p17)
    return all(
        w[2].distance(Point(p)) <= r + w[3] + EPS
        for w in walls
        for p, r in (((pa.x, pa.y), ra), ((pb.x, pb.y), rb))
    )


def across(state: State, e: Element, enemies: list[Element]) -> str:
    """The cover `e` has from the wall or hedge between it and every enemy it touches
    (pp. 17-18: a hedge soft, moving or not; a wall or bocage hard, but none for a base that
    moved into the fight this turn, p18, P306): none, soft or hard."""
    if not enemies:
        return "none"
    kinds = []
    for t in enemies:
        walls = between(state, e, t)
        if not walls:
            return "none"
        kinds.append("hard" if any(w[1] == "hard" for w in walls) else "soft")
    if "soft" in kinds:
        return "soft"  # p18: soft cover counts moving or stationary
    return "none" if moved(state, e) else "hard"  # p18: not for units that move into CQC


def moved(state: State, e: Element) -> bool:
    """Whether `e` (or its vehicle, for a passenger) moved this turn: it charged in (P280)."""
    return body(state, e).moved > 0


def behind(state: State, a: Element, t: Element) -> bool:
    """Whether `a`'s model lies wholly behind the line of `t`'s rear edge (pp. 18-19), or,
    with option `cqc_rear=half`, anywhere behind the line across `t`'s middle (P305)."""
    pa, pt = body(state, a), body(state, t)
    f = math.radians(pt.facing)
    along = (pa.x - pt.x) * math.sin(f) + (pa.y - pt.y) * math.cos(f)
    if state.rules.opts.cqc_rear == "half":
        return along < -EPS
    return along <= -(half_depth(state, t) + half_depth(state, a)) + EPS


def from_rear(state: State, e: Element, enemies: list[Element]) -> bool:
    """The +4 (pp. 18-19): `e` moved into CQC this turn behind the rear edge of every enemy it
    touches, none of them in a building (where facing is irrelevant, p17)."""
    if not enemies or not moved(state, e):
        return False
    for t in enemies:
        tb = body(state, t)
        if building(state, tb.x, tb.y) is not None or not behind(state, e, t):
            return False
    return True
