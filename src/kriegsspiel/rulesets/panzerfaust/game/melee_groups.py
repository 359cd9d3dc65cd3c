"""Who fights whom in close combat (pp. 17-18, P279-P281).

A melee is a connected group of opposing infantry bases in contact (p17), with the second
rank: a friendly base lined up behind one that touches the enemy fights too (p17). A melee
whose bases all share their variables is one combat; otherwise it is split into combats of
like variables where that is possible (p18 step 1: the fewest combats in which every base
fights an enemy it touches, a base that touches several going with its nearest), and where
it is not, it stays one combat in which each side takes its worst variables (p18 step 2,
rules/cqc.py `worst`). Units in a melee cannot be fired at directly (p17, `why_not_target`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from itertools import combinations

from ..models import InfantryTeam, InfantryWeapon
from ..rules import cqc, teams
from . import fieldworks, smoke
from .movement import CONTACT
from .state import Element, State

REAR = 135.0  # degrees: a second rank lies on the far side of its front base from the enemy
MAX_EDGES = 12  # pairs of variable classes a melee is split over at most (else one combat)


@dataclass(frozen=True)
class Combat:
    """One CQC roll of a melee: each side's elements, and whether they fight with their worst
    variables because the melee could not be split (p18 step 2)."""

    sides: tuple[tuple[str, tuple[str, ...]], ...]  # ((side, element ids), (side, ids))
    worst: bool = False


LOST_CQC = 3  # placeholder CQC factor of a team whose factor the seed lost (p18, P280)


def team_of(state: State, e: Element) -> tuple[InfantryTeam, bool]:
    """The CQC team an infantry element fights as (p17-18), and whether its factor is the
    placeholder: its own team; an AT weapon team as the AT Weapon Team row (its AT weapon
    is no use in CQC, p17); a mortar or gun crew as a Rifle Team (p17). A team whose factor
    was lost (the belt LMG, p18) fights with LOST_CQC, flagged."""
    memo = state.cache.setdefault("cqc_team", {})
    if e.type not in memo:
        rec, cat = state.records[e.id], state.rules.cat
        if isinstance(rec, InfantryTeam):
            t = teams.team(cat, rec.id)
        elif isinstance(rec, InfantryWeapon):
            t = teams.team(cat, "common/at-weapon-team")
        else:
            t = teams.team(cat, "common/rifle-team")
        lost = t.cqc is None
        memo[e.type] = (t.model_copy(update={"cqc": LOST_CQC}) if lost else t, lost)
    return memo[e.type]


def side_of(state: State, e: Element) -> cqc.Side:
    """An element's CQC variables (pp. 18-19): its cover (dug in counts as hard cover, p18;
    none in hard cover it moved into this turn, p18-19), whether it charged in this turn
    (moved, P280), pinned or in smoke, its troop class."""
    cover = fieldworks.small_arms_cover(state, e, (e.x, e.y))
    if cover == "hard" and e.moved > 0 and not e.has("dug_in"):
        cover = "none"  # fighting its way in (p19)
    return cqc.Side(
        ((team_of(state, e)[0], 1),), cover=cover, charged=e.moved > 0,  # type: ignore[arg-type]
        pinned=e.has("pinned") or smoke.covers(state, (e.x, e.y)), troop_class=e.troop_class,
    )  # fmt: skip


def _fighters(state: State) -> list[Element]:
    return [e for e in state.elements.values() if e.active and e.kind == "infantry"]


def _touch(a: Element, b: Element) -> bool:
    return math.dist((a.x, a.y), (b.x, b.y)) <= CONTACT


def _angle(at: Element, a: Element, b: Element) -> float:
    """The angle at `at` between the directions to `a` and to `b`, degrees."""
    u = (a.x - at.x, a.y - at.y)
    v = (b.x - at.x, b.y - at.y)
    nu, nv = math.hypot(*u), math.hypot(*v)
    if nu < 1e-9 or nv < 1e-9:
        return 0.0
    c = (u[0] * v[0] + u[1] * v[1]) / (nu * nv)
    return math.degrees(math.acos(max(-1.0, min(1.0, c))))


def _direct(state: State, e: Element) -> list[Element]:
    """The enemy infantry elements `e` touches."""
    return [o for o in _fighters(state) if o.side != e.side and _touch(e, o)]


def foes(state: State, e: Element) -> list[Element]:
    """The enemy elements an infantry element fights in close combat now: those it touches,
    or, for a second rank (p17: a friendly base lined up behind one that touches the enemy),
    those its front base touches. Empty when it is in no melee."""
    if e.kind != "infantry" or not e.active:
        return []
    direct = _direct(state, e)
    if direct:
        return direct
    for f in _fighters(state):
        if f.side != e.side or f.id == e.id or not _touch(e, f):
            continue
        ahead = _direct(state, f)
        if ahead and all(_angle(f, e, t) >= REAR for t in ahead):  # lined up behind it
            return ahead
    return []


def contacts(state: State) -> dict[str, set[str]]:
    """Each infantry element in a melee -> the enemy elements it fights (both ways)."""
    out: dict[str, set[str]] = {}
    for e in _fighters(state):
        for t in foes(state, e):
            out.setdefault(e.id, set()).add(t.id)
            out.setdefault(t.id, set()).add(e.id)
    return out


def melees(state: State, touching: dict[str, set[str]] | None = None) -> list[list[str]]:
    """The melees: connected groups of elements in contact, each sorted by id."""
    touching = contacts(state) if touching is None else touching
    out, done = [], set()
    for start in sorted(touching):
        if start in done:
            continue
        group, todo = set(), [start]
        while todo:
            i = todo.pop()
            if i not in group:
                group.add(i)
                todo.extend(touching[i] - group)
        done |= group
        out.append(sorted(group))
    return out


def _split(state: State, ids: list[str], touching: dict[str, set[str]]) -> list[Combat]:
    """One melee's combats (p18 steps 1-2)."""
    els = [state.elements[i] for i in ids]
    key = {e.id: replace(side_of(state, e), teams=()) for e in els}
    sides = sorted({e.side for e in els})
    whole = _combat(state, sides, ids)
    cls = {i: (state.elements[i].side, key[i]) for i in ids}
    if len(set(cls.values())) == len(sides):  # like variables on each side: one combat
        return [whole]

    # a pair of classes (one per side) that touch is a possible combat
    def edge(a: str, b: str) -> tuple:
        return tuple(sorted((cls[a], cls[b]), key=lambda c: c[0]))

    options = {i: {edge(i, j) for j in touching[i]} for i in ids}
    edges = sorted({x for o in options.values() for x in o}, key=repr)
    if len(edges) <= MAX_EDGES:
        for size in range(2, len(edges) + 1):
            for chosen in combinations(edges, size):
                plan = _assign(state, ids, touching, cls, set(chosen), edge)
                if plan is not None:
                    return [_combat(state, sides, members) for members in plan]
    return [replace(whole, worst=True)]


def _combat(state: State, sides: list[str], members: list[str]) -> Combat:
    return Combat(
        tuple((s, tuple(i for i in members if state.elements[i].side == s)) for s in sides)
    )


def _assign(state, ids, touching, cls, chosen, edge) -> list[list[str]] | None:
    """Every element to one chosen combat, each combat with an element of each side that
    touches the other class (a matching per side, nearest first), the rest with their
    nearest enemy's combat; None when the chosen combats cannot be formed so."""
    usable = {i: sorted({edge(i, j) for j in touching[i]} & chosen, key=repr) for i in ids}
    if any(not u for u in usable.values()):
        return None
    home: dict[str, tuple] = {}
    for side in sorted({state.elements[i].side for i in ids}):
        mine = [i for i in ids if state.elements[i].side == side]

        def fill(c: tuple, tried: set, mine=mine) -> bool:  # an augmenting path (Kuhn)
            for i in sorted(mine, key=lambda i: _nearest(state, i, touching, c, cls)):
                if c in usable[i] and i not in tried:
                    tried.add(i)
                    if i not in home or fill(home[i], tried):
                        home[i] = c
                        return True
            return False

        for c in sorted(chosen, key=repr):
            if not fill(c, set()):
                return None
    for i in ids:
        if i not in home:
            home[i] = min(usable[i], key=lambda c: _nearest(state, i, touching, c, cls))
    return [sorted(i for i in ids if home[i] == c) for c in sorted(chosen, key=repr)]


def _nearest(state: State, i: str, touching, c: tuple, cls) -> float:
    """How far `i` is from the nearest enemy it fights that belongs to combat class pair `c`."""
    e = state.elements[i]
    d = [math.dist((e.x, e.y), (state.elements[j].x, state.elements[j].y))
         for j in touching[i] if cls[j] in c]  # fmt: skip
    return min(d, default=math.inf)


def combats(state: State) -> list[Combat]:
    """Every CQC roll due now, melee by melee."""
    touching = contacts(state)
    return [c for ids in melees(state, touching) for c in _split(state, ids, touching)]


def engaged(state: State, e: Element) -> bool:
    """Whether an element is in a melee now (p17)."""
    return bool(foes(state, e))


def why_not_target(state: State, side: str, t: Element, xy: tuple[float, float]) -> str | None:
    """Why `side` may not fire directly at `t` at `xy` (p17: units in CQC cannot be fired at,
    except by indirect fire; before they entered it they can). Only a melee `side` can tell
    from what it knows refuses (P281): `t` there touches one of `side`'s elements, or stands
    behind an element `side` observes that does."""
    fighting = foes(state, t)
    if not fighting:
        return None
    here = Element(**{**t.__dict__, "x": xy[0], "y": xy[1]})
    seen = (state.elements[i] for i in state.seen.get(side, ()))
    evident = any(_touch(here, m) for m in fighting) or any(
        f.id != t.id and _touch(here, f) and any(_touch(f, m) for m in fighting) for f in seen
    )
    if not evident:
        return None
    return "that target is in close combat with your elements: only indirect fire reaches it (p17)"


def why_not_firer(state: State, e: Element) -> str | None:
    """Why `e` may not fire directly now: it is in a melee with an enemy its side observes,
    and its weapons fight there (p17: only before entering CQC may a unit fire)."""
    seen = set(state.seen.get(e.side, ()))
    if any(t.id in seen for t in foes(state, e)):
        return f"{e.name} is in close combat: its weapons fight there, not by direct fire (p17)"
    return None
