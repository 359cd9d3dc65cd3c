"""Spotting along a move (p8 observation, p6 backtracking; decisions P283-P284, P286).

Spotting is refreshed where elements stop (sight.py), but a mover can be seen on the way:
when an element moves, each enemy element that stands where it stands then looks at the new
stretch of the mover's path, sampled every `STEP` cm, by the rules of `sight.sees` (direct
line of sight past terrain, smoke, wrecks and other vehicles; its arc of vision; the
Observation Table's range for the terrain at that point and the mover's size, times every
multiplier, the mover counting as moving: p8-9). A mover it had spotted before the move stays
spotted along the path while the line stays clear and the mover keeps to the same terrain
feature (p8), as at a stop.

What each observer saw is kept for the turn in `state.glimpses` (mover -> observer ->
[[from cm, to cm], ...] along the mover's move this turn): the firer of a backtracking shot
(p6: it must have been able to observe the target at that part of the turn) may pick only a
point it glimpsed itself (orders_fire.py). A side that glimpsed a mover has turned over its
counter and keeps a last-known mark where it last saw it, even if it ends hidden; its view's
`tracks` are the stretches its elements saw (`tracks`), and nothing else of the path."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import numpy as np

from . import beaten_sight, floors, movement, sight
from .state import Element, State

STEP = 2.5  # cm between the points of a move that are looked at (P283)
NEAR = 1e-6


def samples(path: list[list[float]], start: float, end: float) -> list[tuple[float, float, float]]:
    """(cm, x, y) every STEP cm or less from `start` to `end` cm along a traced path."""
    n = max(1, math.ceil((end - start) / STEP - NEAR))
    out = []
    for i in range(n + 1):
        cm = start + (end - start) * i / n
        x, y = movement.point_at(path, cm)
        out.append((round(cm, 2), x, y))
    return out


def glimpse(state: State, mover: Element, start: float) -> None:
    """(A fold.) `mover` has just moved from `start` cm to `mover.moved` cm of its path this
    turn: each enemy observer records the stretches of it that it observed (module doc)."""
    if not mover.active or mover.moved - start <= NEAR or len(mover.path) < 2:
        return
    points = samples(mover.path, start, mover.moved)
    board = state.board
    features = [board.feature(x, y) for _, x, y in points]
    ghosts: dict[str | None, Element] = {}  # one stand-in per terrain feature (its range)
    for (_, x, y), f in zip(points, features, strict=True):
        if f not in ghosts:
            ghosts[f] = replace(mover, x=x, y=y, feature=f)
    observers = [o for o in state.elements.values() if o.side != mover.side and o.active]
    if not observers:
        return
    # arc and range of every observer at every point at once (the rules of sight.sees); the
    # range depends on an observer only through its being closed down and having moved far
    obs_xy = np.array([(o.x, o.y) for o in observers], float)
    pts = np.array([(x, y) for _, x, y in points], float)
    d = pts[None, :, :] - obs_xy[:, None, :]
    dist = np.hypot(d[..., 0], d[..., 1])
    facing = np.array([o.turret if o.turret is not None else o.facing for o in observers])
    rel = (np.degrees(np.arctan2(d[..., 0], d[..., 1])) - facing[:, None]) % 360.0
    rel = np.where(rel > 180.0, rel - 360.0, rel)
    half = np.array([sight.arc(o) for o in observers])
    kinds = list(ghosts)
    col = np.array([kinds.index(f) for f in features])
    hows = [
        (o.has("closed_down"), o.moved > sight.MOVED_FAR, floors.high(state, o)) for o in observers
    ]
    table = {}  # (closed down, moved far, high) -> the range at each terrain feature of the path
    for i, how in enumerate(hows):
        if how not in table:
            table[how] = [sight.reach(state, observers[i], ghosts[f], False) for f in kinds]
    reach = np.array([table[how] for how in hows])[:, col]
    halved = beaten_sight.through_many(state, obs_xy, pts)  # a battery's beaten zone (p8)
    if halved is not None:
        reach = np.where(halved, reach / 2, reach)
    spots = (np.abs(rel) <= half[:, None] + 1e-9) & (dist <= reach)
    watchers = []
    for i, o in enumerate(observers):
        kept = state.spotted.get(o.id, {}).get(mover.id, False)  # the feature, or False
        if kept is not False or spots[i].any():
            watchers.append((o, (o.x, o.y), kept, spots[i].tolist()))
    if not watchers:
        return
    high = [floors.eye_at(state, mover, x, y) for _, x, y in points]  # on its floor (P329)
    lines = [  # the points it could spot; those it keeps in sight are asked one by one
        (a, (x, y), floors.eye(state, o), h)
        for o, a, _, spot in watchers
        for (_, x, y), s, h in zip(points, spot, high, strict=True)
        if s
    ]
    board.los_many(lines)
    skip = (mover.id,)  # it stands at its end now: it does not hide its own path
    seen_by: dict[str, float] = {}
    for obs, a, kept, spot in watchers:
        stretches: list[list[float]] = []
        held = kept  # the feature it is spotted in, or False
        ha = floors.eye(state, obs)
        for (cm, x, y), f, s, hb in zip(points, features, spot, high, strict=True):
            ok = (s or (held is not False and held == f)) and sight.clear(
                state, a, (x, y), mover.size, skip, ha, hb
            )
            if ok and held is not False and stretches:
                stretches[-1][1] = cm  # seen at the last point too: the stretch goes on
            elif ok:
                stretches.append([cm, cm])
            held = f if ok else False
        if stretches:
            state.glimpses.setdefault(mover.id, {}).setdefault(obs.id, []).extend(stretches)
            seen_by[obs.side] = max(seen_by.get(obs.side, -1.0), stretches[-1][1])
    for side, cm in seen_by.items():
        x, y = movement.point_at(mover.path, cm)
        state.last_seen.setdefault(side, {})[mover.id] = [x, y]
        if state.phase != "setup":
            mover.hidden = False  # its counter is turned over (p5)


def cut(state: State, mover: str, cm: float) -> None:
    """(A fold.) `mover` was stopped at `cm` of its move: what lies beyond was
    never driven, so no one saw it there (p38 mines); a side's last-known mark goes back to the last point
    it still saw, or away if it saw none (look() marks it again where it stands, if seen)."""
    by = state.glimpses.get(mover)
    if not by:
        return
    e = state.elements[mover]
    latest: dict[str, float] = {}
    sides = {state.elements[o].side for o in by}
    for o in list(by):
        kept = [[a, min(b, cm)] for a, b in by[o] if a <= cm + NEAR]
        if kept:
            by[o] = kept
            side = state.elements[o].side
            latest[side] = max(latest.get(side, -1.0), kept[-1][1])
        else:
            del by[o]
    for side in sides:
        marks = state.last_seen.setdefault(side, {})
        if side in latest:
            x, y = movement.point_at(e.path, latest[side])
            marks[mover] = [x, y]
        else:
            marks.pop(mover, None)


def stretches(state: State, observer: str, mover: str) -> list[list[float]]:
    """The stretches of `mover`'s move this turn (cm) that `observer` saw."""
    return state.glimpses.get(mover, {}).get(observer, [])


def saw(state: State, observer: str, mover: str, cm: float) -> bool:
    """Whether `observer` saw `mover` at `cm` of its move this turn."""
    return any(a - NEAR <= cm <= b + NEAR for a, b in stretches(state, observer, mover))


def tracks(state: State, side: str) -> list[dict[str, Any]]:
    """What `side` saw of enemy moves this turn: per mover (its alias for `side`), the seen
    stretches of its path as lists of points (the path's corners inside each stretch)."""
    out = []
    for mid, by in state.glimpses.items():
        mover = state.elements[mid]
        if mover.side == side:
            continue
        spans = sorted(s for o, ss in by.items() if state.elements[o].side == side for s in ss)
        merged: list[list[float]] = []
        for a, b in spans:
            if merged and a <= merged[-1][1] + NEAR:
                merged[-1][1] = max(merged[-1][1], b)
            else:
                merged.append([a, b])
        if not merged:
            continue
        lines = []
        for a, b in merged:
            pts = [movement.point_at(mover.path, a)]
            pts += [(x, y) for x, y, c in mover.path if a < c < b]
            if b > a:
                pts.append(movement.point_at(mover.path, b))
            lines.append([[round(x, 2), round(y, 2)] for x, y in pts])
        out.append({"id": state.aliases.alias(side, mid), "lines": lines})
    return sorted(out, key=lambda t: t["id"])
