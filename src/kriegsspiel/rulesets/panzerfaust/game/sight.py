"""Who observes whom (p8-9), per observer: an enemy element is spotted by one of a side's
elements when it is in that observer's arc of vision and direct line of sight and within the
Observation Table's range for the terrain it is in and its size, times every multiplier
(rules/observe.py); once spotted it stays spotted to that observer until it leaves the
observer's line of sight or changes terrain feature (p8). A side observes what any of its
elements observes. Muzzle flashes (p9) are handled where a shot is fired (orders_fire.py).

Sight is refreshed after events that move or remove elements (`look`). A refresh works out
again only the pairs that can have changed: those whose observer or target changed one of
the inputs of `sees` (`_observer_key`, `_target_key`; the game-wide ones in `_world_key`) or
whose observer's spotted set was changed by another rule (a muzzle flash), and those whose
line passes a vehicle that moved, came or went since (live vehicles screen sight, P285;
`screens.near`). Every other pair
keeps its answer, which `sees` would give again: a pair that saw keeps seeing while nothing
about it changed (it stays spotted), one that did not had its arc and range checked already.
A new input of `sees` must go into one of the three keys (tests/.../test_sight_incremental.py
compares the refresh with a full recompute along random games).
"""

from __future__ import annotations

import math
from fractions import Fraction

from ....geometry.footprint import in_arc
from ..rules import observe
from . import beaten_sight, fieldworks, floors, screens, smoke, wrecks
from .board import EYE
from .state import Element, State

MOVED_FAR = 5.0  # cm: an observer that moved more sees less (p8)


def arc(e: Element) -> float:
    """Half the arc of vision in degrees (p9)."""
    if e.kind == "afv":
        return observe.arc_of_vision("closed_afv" if e.has("closed_down") else "vehicle") / 2
    return observe.arc_of_vision("infantry" if e.kind == "infantry" else "vehicle") / 2


def reach(state: State, obs: Element, tgt: Element, bz: bool | None = None) -> float:
    """The range at which `obs` observes `tgt` (p8): table base times the multipliers; `bz`:
    whether the line passes through a battery's beaten zone (None: work it out, p8 note 5)."""
    if bz is None:
        bz = beaten_sight.through(state, (obs.x, obs.y), (tgt.x, tgt.y))
    row = state.board.sight_row(tgt.x, tgt.y)
    base, _ = observe.base_range(state.rules, row, tgt.size)
    s = observe.Sight(
        0.0,
        row,
        tgt.size,
        camouflaged_or_prone=tgt.has("camouflaged"),
        dug_in_or_hull_down=tgt.has("dug_in"),
        observer_closed_down=obs.has("closed_down"),
        observer_moved=obs.moved > MOVED_FAR,
        observer_high=floors.high(state, obs),
        target_moved_or_fired=tgt.moved > 0 or tgt.fired or fieldworks.working(state, tgt),
        through_battery_bz=bz,
        weather=weather(state),
    )
    r = Fraction(base)
    for _, f in observe.multipliers(state.rules, s):
        r *= f
    night = (state.pregame or {}).get("weather", {}).get("night_visibility")
    if night:  # the darkness rolled in the pre-game (p11)
        r *= Fraction(1, 10) if night == "tenth" else Fraction(1, 20)
    return float(r)


def weather(state: State) -> str:
    """The pre-game's worst weather for sight (p10), or clear."""
    conditions = (state.pregame or {}).get("weather", {}).get("conditions", [])
    known = [c for c in conditions if c in observe.WEATHER and c != "clear"]
    return min(known, key=lambda c: observe.WEATHER[c], default="clear")


def clear(state: State, a: tuple[float, float], b: tuple[float, float],
          size: str | None = None, skip: tuple[str, ...] = (),
          ha: float = EYE, hb: float = EYE) -> bool:  # fmt: skip
    """Direct line of sight a-b (p8): terrain (the board, from `ha` above the ground at a to
    `hb` at b: upper floors, P329), then smoke (p33, at every height), wrecks (p8) and live
    vehicles (p8, Q&A 3), these two screening a target of `size` by the size rule (P285;
    None: any target) on lines between two ground-level ends only (P329: a vehicle stands
    no higher than a man's eye, so a line from or to an upper floor passes over it); `skip`:
    elements that screen nothing here."""
    if not state.board.los(a, b, ha, hb) or smoke.blocks(state, a, b):
        return False
    if ha > EYE or hb > EYE:
        return True
    return not wrecks.blocks(state, a, b, size) and not screens.blocks(state, a, b, size, skip)


def ends(state: State, obs: Element, tgt: Element) -> tuple[float, float]:
    """The heights of a sight line's ends above the ground: each piece's floor (P329)."""
    return floors.eye(state, obs), floors.eye(state, tgt)


def sees(state: State, obs: Element, tgt: Element, before: dict[str, str | None]) -> bool:
    """Whether `obs` observes `tgt` now; `before` is what it spotted until now."""
    if not (obs.active and tgt.on_table) or tgt.transport:
        return False
    if tgt.hidden and state.phase == "setup":  # on the map, not yet on the table (p5)
        return False
    a, b = (obs.x, obs.y), (tgt.x, tgt.y)
    if not clear(state, a, b, tgt.size, (), *ends(state, obs, tgt)):
        return False
    if tgt.id in before and before[tgt.id] == tgt.feature:
        return True  # stays spotted (p8)
    if not in_arc(a, obs.turret if obs.turret is not None else obs.facing, b, arc(obs)):
        return False
    return math.dist(a, b) <= reach(state, obs, tgt)


def _observer_key(e: Element) -> tuple:
    """What `sees` reads of an observer."""
    closed = e.has("closed_down")
    return (e.active, e.x, e.y, e.facing, e.turret, e.kind, closed, e.moved > MOVED_FAR, e.floor)


def _target_key(state: State, e: Element) -> tuple:
    """What `sees` reads of a target (with the spotted set it is given); at work on its
    position it counts as moving (fieldworks.py)."""
    return (
        e.on_table, e.transport, e.hidden, e.x, e.y, e.feature, e.size, e.floor,
        e.has("camouflaged"), e.has("dug_in"), e.moved > 0 or e.fired or fieldworks.working(state, e),
    )  # fmt: skip


def _world_key(state: State) -> tuple:
    """What `sees` reads of the whole game: the phase, the weather, the night, what blocks
    sight besides terrain: smoke clouds (their shape grows with the turn) and wrecks, and the
    beaten zones that halve it (p8)."""
    night = (state.pregame or {}).get("weather", {}).get("night_visibility")
    clouds = tuple(sorted((m.id, m.x, m.y, m.radius) for m in smoke.clouds(state)))
    hulks = tuple(
        sorted((m.id, m.x, m.y, m.radius) for m in state.markers.values() if m.kind == "wreck")
    )
    return (
        state.phase == "setup",
        weather(state),
        night,
        state.turn if clouds else 0,
        clouds,
        hulks,
        beaten_sight.zones(state),
    )


def _spotting(state: State, side: str, enemies: list[Element]) -> set[str]:
    """Refresh what each element of `side` spots (state.spotted); the enemies seen.

    Per side, the memo (state.cache["sight"]) holds each enemy's `_target_key` and, per
    observer, its `_observer_key` and a copy of the spotted set it was left with."""
    world = _world_key(state)
    memo = state.cache.get("sight")
    if memo is None or memo["world"] != world:
        memo = state.cache["sight"] = {"world": world}
    mine = memo.setdefault(side, {"targets": {}, "observers": {}})
    keys = {t.id: _target_key(state, t) for t in enemies}
    old = mine["targets"]
    changed = [t for t in enemies if old.get(t.id) != keys[t.id]]
    gone = {i for i in old if i not in keys}
    fresh = {t.id for t in changed} | gone
    mine["targets"] = keys
    discs = screens.live(state) if screens.mode(state) != "wrecks" else []
    shifted = list(set(mine.get("screens", ())) ^ set(discs))
    mine["screens"] = discs
    order = {t.id: n for n, t in enumerate(enemies)}
    # per observer: (observer, its spotted set, its key, the targets to work out again or
    # None when nothing changed, the ids whose answers are replaced or None for all)
    plan = []
    steady = []  # observers whose own answers may stand
    for obs in state.elements.values():
        if obs.side != side:
            continue
        before = state.spotted.get(obs.id, {})
        key = _observer_key(obs)
        last = mine["observers"].get(obs.id)
        if last is not None and last[0] == key and last[1] == before:
            if obs.active:
                steady.append(len(plan))
            plan.append((obs, before, key, changed if fresh else None, fresh))
        else:
            plan.append((obs, before, key, enemies, None))
    if shifted and steady:  # lines a moved vehicle crosses (or crossed) are worked out again
        others = [t for t in enemies if t.id not in fresh]
        hit = screens.near([(plan[i][0].x, plan[i][0].y) for i in steady],
                           [(t.x, t.y) for t in others], shifted)  # fmt: skip
        for row, i in zip(hit, steady, strict=True):
            extra = [t for t, h in zip(others, row, strict=True) if h]
            if extra:
                obs, before, key, _, _ = plan[i]
                redo = fresh | {t.id for t in extra}
                plan[i] = (obs, before, key, changed + extra, redo)
    _sight_lines(state, [(o, ts) for o, _, _, ts, _ in plan if ts])
    seen: set[str] = set()
    for obs, before, key, targets, redo in plan:
        if targets is None:
            seen.update(before)
            continue
        if redo is None:  # every target worked out again
            now = {t.id: t.feature for t in targets if sees(state, obs, t, before)}
        else:
            kept = [(i, f) for i, f in before.items() if i not in redo]
            kept += [(t.id, t.feature) for t in targets if sees(state, obs, t, before)]
            now = dict(sorted(kept, key=lambda item: order[item[0]]))
        mine["observers"][obs.id] = (key, dict(now))
        if now:
            state.spotted[obs.id] = now
            seen.update(now)
        else:
            state.spotted.pop(obs.id, None)
    return seen


def _sight_lines(state: State, rows: list[tuple[Element, list[Element]]]) -> None:
    """Work out at once the lines of sight `sees` will ask for: each observer's to its
    targets (a target's own conditions, those `sees` checks first, asked once)."""
    setup = state.phase == "setup"
    ok: dict[str, bool] = {}
    lines = []
    for o, targets in rows:
        if not o.active:
            continue
        a = (o.x, o.y)
        for t in targets:
            good = ok.get(t.id)
            if good is None:
                good = ok[t.id] = t.on_table and not t.transport and not (t.hidden and setup)
            if good:
                lines.append((a, (t.x, t.y), *ends(state, o, t)))
    state.board.los_many(lines)


def look(state: State) -> None:
    """Refresh every observer's spotting, each side's observed set and last-seen markers."""
    state.cache.pop("screens", None)  # vehicles may have moved since the last event
    for side in state.sides:
        enemies = [e for e in state.elements.values() if e.side != side and e.on_table]
        seen = _spotting(state, side, enemies)
        if state.phase != "setup":  # observation begins with turn 1
            for i in seen:
                state.elements[i].hidden = False  # its counter is turned over (p5)
        _dummies(state, side)
        wrecks.spot(state, side)
        marks = state.last_seen.setdefault(side, {})
        for i in seen:
            marks[i] = [state.elements[i].x, state.elements[i].y]
        for i in list(marks):
            if not state.elements[i].on_table:
                del marks[i]
        state.seen[side] = sorted(seen)


def observers(state: State, side: str, target: str) -> list[str]:
    """The elements of `side` that observe `target` now."""
    return [o for o, tg in state.spotted.items() if target in tg and state.elements[o].side == side]


def _dummies(state: State, side: str) -> None:
    """An enemy dummy counter that one of `side`'s elements would observe, were it real, is
    turned over and removed (p5); from turn 1 on (the set-up places them unseen)."""
    if state.phase == "setup":
        return
    for m in [m for m in state.markers.values() if m.kind == "dummy" and m.side != side]:
        ghost = Element(m.id, m.side or "", "", "dummy", "", "", "", m.x, m.y,
                        size=m.data.get("size", "A"))  # fmt: skip
        ghost.feature = state.board.feature(m.x, m.y)
        if any(sees(state, o, ghost, {}) for o in state.elements.values() if o.side == side):
            del state.markers[m.id]
