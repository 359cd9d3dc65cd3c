"""How far an element may move and what a path costs (pp. 12, 25): cross-country speed
(road speed when the whole path is on a road), terrain slowing each centimetre (placeholder
P143: the p25 Vehicle Movement Restrictions Table was lost), infantry walking 5 cm and
charging 10 cm into close combat (p12)."""

from __future__ import annotations

import math

from . import rider_alarm, towing
from .build import speeds
from .state import Element, State

STEP = 1.0  # cm between the points a path's cost is sampled at
CHARGE = 10.0  # cm: infantry charging into CQC (p12)
CONTACT = 4.5  # cm between centres: bases in contact (40 mm bases, p11)


def allowance(state: State, e: Element, path: list[tuple[float, float]]) -> float:
    """Road speed when the whole path is on a road, else cross-country speed (times the p25
    towing factor while it tows a limbered gun, towing.py); a gun: its man-handling rate."""
    if e.kind == "gun":
        return towing.manhandle_rate(state, e) or 0.0
    cc, road = speeds(state.records[e.id])
    share = rider_alarm.share(state, e)  # standing half its move for its riders (p28, P358)
    cc, road = cc * share, road * share
    if road > cc and all(state.board.on_road(x, y) for x, y in path):
        return road
    if e.towing:
        return cc * towing.tow_factor(state, e)[0]
    return cc


def reach(state: State, e: Element) -> float:
    """The farthest an element goes in a turn over open ground: its cross-country speed
    (towing included), or a gun's man-handling rate (p33)."""
    if e.kind == "gun":
        return towing.manhandle_rate(state, e) or 0.0
    cc = speeds(state.records[e.id])[0] * rider_alarm.share(state, e)
    return cc * towing.tow_factor(state, e)[0] if e.towing else cc


def cost(
    state: State,
    start: tuple[float, float],
    path: list[tuple[float, float]],
    limit: float = math.inf,
) -> float:
    """The cross-country cm a path costs: each stretch divided by the share of movement the
    terrain under it keeps (roads keep all). Past `limit` the answer is only some number
    above it (work stops as soon as the cost is sure to exceed it)."""
    length, here = 0.0, start
    for p in path:
        length += math.dist(here, p)
        here = p
    floor = length / state.board.max_keep  # no ground is cheaper than this
    if floor - 1e-9 > limit:  # (the margin covers the rounding of the sum below)
        return floor
    total, here = 0.0, start
    for p in path:
        if total > limit:
            return total
        d = math.dist(here, p)
        if not state.board.crosses(here, p):  # open ground all the way: no sampling
            total += d
            here = p
            continue
        n = max(1, math.ceil(d / STEP))
        for i in range(n):
            t = (i + 0.5) / n
            x, y = here[0] + (p[0] - here[0]) * t, here[1] + (p[1] - here[1]) * t
            k = 1.0 if state.board.on_road(x, y) else state.board.slow(x, y)
            total += d / n / max(k, 1e-6)
        here = p
    return total


def trace(start: tuple[float, float], path: list[tuple[float, float]]) -> list[list[float]]:
    """[[x, y, cm from the start], ...] of the path, starting point included."""
    out, run, here = [[start[0], start[1], 0.0]], 0.0, start
    for p in path:
        run += math.dist(here, p)
        out.append([p[0], p[1], round(run, 3)])
        here = p
    return out


def point_at(path: list[list[float]], cm: float) -> tuple[float, float]:
    """The point `cm` along a traced path (backtracking, p6)."""
    for (x0, y0, d0), (x1, y1, d1) in zip(path, path[1:], strict=False):
        if cm <= d1:
            t = 0.0 if d1 == d0 else (cm - d0) / (d1 - d0)
            return x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
    return path[-1][0], path[-1][1]


def facing_of(start: tuple[float, float], path: list[tuple[float, float]], old: float) -> float:
    prev = start
    for p in path[:-1]:
        prev = p
    end = path[-1]
    if math.dist(prev, end) < 1e-9:
        return old
    return math.degrees(math.atan2(end[0] - prev[0], end[1] - prev[1])) % 360


def charges(state: State, e: Element, path: list[tuple[float, float]]) -> bool:
    """Infantry may charge (10 cm) only into close combat (p12): the path ends in contact with
    an enemy infantry element its side observes."""
    end = path[-1]
    return any(
        math.dist(end, (t.x, t.y)) <= CONTACT
        for t in (state.elements[i] for i in state.seen.get(e.side, ()))
        if t.kind == "infantry"
    )
