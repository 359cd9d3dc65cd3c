"""Who fights whom in close combat (pp. 17-18, P279-P281).

A melee is a connected group of opposing infantry bases in contact (p17), with the second
rank: a friendly base lined up behind one that touches the enemy fights too (p17). A melee
whose bases all share their variables is one combat; otherwise it is split into combats of
like variables where that is possible (p18 step 1: the fewest combats in which every base
fights an enemy it touches, a base that touches several going with its nearest), and where
it is not, it stays one combat in which each side takes its worst variables (p18 step 2,
rules/cqc.py `worst`). Units in a melee cannot be fired at directly (p17, `why_not_target`).
Contact itself (walls and hedges, buildings and floors, passengers, open AFVs, the rear) is
melee_contact.py's; a base disengaging fights on once more (disengage.py, P309).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from itertools import combinations

from ....geometry.footprint import relative_bearing
from ..models import InfantryTeam, InfantryWeapon
from ..rules import cqc, teams
from . import fieldworks, melee_contact, smoke
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
    """The CQC team an element fights as (p17-18), and whether its factor is the
    placeholder: its own team; an AT weapon team as the AT Weapon Team row (its AT weapon
    is no use in CQC, p17); a mortar or gun crew as a Rifle Team (p17); the crew of an AFV
    open at the top, sides or rear as the Open Topped AFV Crew row (p18-19, P308). A team
    whose factor was lost (the belt LMG, p18) fights with LOST_CQC, flagged."""
    memo = state.cache.setdefault("cqc_team", {})
    if e.type not in memo:
        rec, cat = state.records[e.id], state.rules.cat
        if isinstance(rec, InfantryTeam):
            t = teams.team(cat, rec.id)
        elif isinstance(rec, InfantryWeapon):
            t = teams.team(cat, "common/at-weapon-team")
        elif e.kind == "afv":
            t = teams.team(cat, "common/open-topped-afv-crew")
        else:
            t = teams.team(cat, "common/rifle-team")
        lost = t.cqc is None
        memo[e.type] = (t.model_copy(update={"cqc": LOST_CQC}) if lost else t, lost)
    return memo[e.type]


def _crew_cover(state: State, e: Element, enemies: list[Element]) -> str:
    """An open AFV's crew (p19): hard cover, none when an enemy touches it on a flank or at
    the rear that is open (P308; front 90 degrees, rear 90 degrees, as for AT fire)."""
    opened = set(getattr(state.records[e.id], "open", ()) or ())
    for t in enemies:
        rb = abs(relative_bearing((e.x, e.y), e.facing, (t.x, t.y)))
        face = "front" if rb <= 45 else "rear" if rb >= 135 else "sides"
        if face in opened:
            return "none"
    return "hard"


def _passenger_cover(state: State, e: Element) -> str:
    """A passenger's cover (p19): hard in an armoured personnel carrier, else none."""
    v = state.elements[e.transport]  # type: ignore[index]
    return "hard" if getattr(state.records[v.id], "chart", None) == "apc_recon" else "none"


def side_of(state: State, e: Element) -> cqc.Side:
    """An element's CQC variables (pp. 18-19): its cover (dug in counts as hard cover, p18;
    none in hard cover it moved into this turn, p18-19; behind a wall or hedge between it and
    its enemies, p17; a passenger's or an open AFV crew's, p19), whether it charged in this
    turn (moved, P280), from the enemy's rear (P305), pinned or in smoke, riding (p19),
    disengaging (P309), its troop class."""
    enemies = _direct(state, e)
    if e.transport:
        cover = _passenger_cover(state, e)
    elif e.kind == "afv":
        cover = _crew_cover(state, e, enemies)
    else:
        cover = fieldworks.small_arms_cover(state, e, (e.x, e.y))
        if cover == "hard" and e.moved > 0 and not e.has("dug_in"):
            cover = "none"  # fighting its way in (p19)
        wall = melee_contact.across(state, e, enemies)
        if RANK.index(wall) > RANK.index(cover):
            cover = wall
    me = melee_contact.body(state, e)
    return cqc.Side(
        ((team_of(state, e)[0], 1),), cover=cover, charged=me.moved > 0,  # type: ignore[arg-type]
        pinned=e.has("pinned") or smoke.covers(state, (me.x, me.y)), troop_class=e.troop_class,
        from_rear=melee_contact.from_rear(state, e, enemies), riding=e.transport is not None,
        disengaging=e.has("disengaging"),
    )  # fmt: skip


RANK = ["none", "soft", "hard"]


def _memo(state: State) -> dict:
    """What close combat worked out since the last event folded (rules.py drops it at each
    event: contact changes only with events)."""
    return state.cache.setdefault("cqc", {})


def _fighters(state: State) -> list[Element]:
    """Infantry on foot, passengers (they fight from their vehicle, p19) and AFVs open at the
    top, sides or rear (their crews, p19)."""
    memo = _memo(state)
    if "fighters" not in memo:
        out = []
        for e in state.elements.values():
            if _can_fight(state, e):
                out.append(e)
        memo["fighters"], memo["ids"] = out, {e.id for e in out}
    return memo["fighters"]


def _can_fight(state: State, e: Element) -> bool:
    if e.active:
        return e.kind == "infantry" or melee_contact.open_afv(state, e)
    riding = e.on_table and e.transport is not None and e.kind == "infantry"
    return riding and state.elements[e.transport].active  # type: ignore[index]


def fights(state: State, e: Element) -> bool:
    """Whether `e` is of those that can fight in close combat now."""
    _fighters(state)
    return e.id in _memo(state)["ids"]


def _touch(state: State, a: Element, b: Element) -> bool:
    return melee_contact.touch(state, a, b)


def _angle(at: Element, a: Element, b: Element) -> float:
    """The angle at `at` between the directions to `a` and to `b`, degrees."""
    u = (a.x - at.x, a.y - at.y)
    v = (b.x - at.x, b.y - at.y)
    nu, nv = math.hypot(*u), math.hypot(*v)
    if nu < 1e-9 or nv < 1e-9:
        return 0.0
    c = (u[0] * v[0] + u[1] * v[1]) / (nu * nv)
    return math.degrees(math.acos(max(-1.0, min(1.0, c))))


def _touching(state: State) -> dict[str, list[Element]]:
    """Each fighter -> the enemy fighters it touches: pairs near enough along x (sorted), and
    pairs on foot in the same building, each asked of melee_contact.touch once."""
    memo = _memo(state)
    if "direct" in memo:
        return memo["direct"]
    fighters = _fighters(state)
    out: dict[str, list[Element]] = {e.id: [] for e in fighters}
    pos = []
    for e in fighters:
        b = melee_contact.body(state, e)
        pos.append((b.x, b.y, e.id, e))
    pos.sort()
    far = 2 * (max(melee_contact.RADIUS.values()) + melee_contact.GAP + melee_contact.WIDEST)
    pairs = set()
    for i, (xa, ya, _, a) in enumerate(pos):
        for xb, yb, _, b in pos[i + 1 :]:
            if xb - xa > far:
                break
            if a.side != b.side and abs(yb - ya) <= far:
                pairs.add((a.id, b.id) if a.id < b.id else (b.id, a.id))
    rooms: dict[str, list[Element]] = {}
    for e in fighters:
        if e.kind == "infantry" and not e.transport:
            f = melee_contact.building(state, e.x, e.y)
            if f is not None:
                rooms.setdefault(f.id, []).append(e)
    for inside in rooms.values():
        for a, b in combinations(inside, 2):
            if a.side != b.side:
                pairs.add((a.id, b.id) if a.id < b.id else (b.id, a.id))
    els = state.elements
    for i, j in sorted(pairs):
        if _touch(state, els[i], els[j]):
            out[i].append(els[j])
            out[j].append(els[i])
    memo["direct"] = out
    return out


def _direct(state: State, e: Element) -> list[Element]:
    """The enemy elements `e` touches."""
    if fights(state, e):
        return _touching(state)[e.id]
    return [o for o in _fighters(state) if o.side != e.side and _touch(state, e, o)]


def foes(state: State, e: Element) -> list[Element]:
    """The enemy elements an element fights in close combat now: those it touches, or, for a
    second rank (p17: a friendly base lined up behind one that touches the enemy), those its
    front base touches. Empty when it is in no melee."""
    if not fights(state, e):
        return []
    memo = _memo(state).setdefault("foes", {})
    if e.id not in memo:
        memo[e.id] = _foes(state, e)
    return memo[e.id]


def _engaged(state: State) -> list[Element]:
    """The fighters that touch an enemy, in `_fighters` order (memoised until the next event)."""
    memo = _memo(state)
    if "engaged" not in memo:
        touching = _touching(state)
        memo["engaged"] = [f for f in _fighters(state) if touching[f.id]]
    return memo["engaged"]


def _foes(state: State, e: Element) -> list[Element]:
    direct = _direct(state, e)
    if direct or e.kind == "afv":
        return direct
    me = melee_contact.body(state, e)
    near = melee_contact.reach(state, e) + melee_contact.REACH
    for f in _engaged(state):  # a friend touching no enemy has no front base to back
        if f.side != e.side or f.id == e.id or f.kind != "infantry" or f.transport:
            continue
        if math.dist((me.x, me.y), (f.x, f.y)) > near:
            continue
        if melee_contact.floor(state, f) != melee_contact.floor(state, e):
            continue
        ahead = _direct(state, f)
        if ahead and all(_angle(f, me, t) >= REAR for t in ahead):  # lined up behind it
            return ahead
    return []


def contacts(state: State) -> dict[str, set[str]]:
    """Each element in a melee -> the enemy elements it fights (both ways)."""
    memo = _memo(state)
    if "contacts" not in memo:
        out: dict[str, set[str]] = {}
        for e in _fighters(state):
            for t in foes(state, e):
                out.setdefault(e.id, set()).add(t.id)
                out.setdefault(t.id, set()).add(e.id)
        memo["contacts"] = out
    return {k: set(v) for k, v in memo["contacts"].items()}


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
    evident = any(_touch(state, here, m) for m in fighting) or any(
        f.id != t.id and _touch(state, here, f) and any(_touch(state, f, m) for m in fighting)
        for f in seen
    )
    if not evident:
        return None
    return "that target is in close combat with your elements: only indirect fire reaches it (p17)"


def why_not_firer(state: State, e: Element) -> str | None:
    """Why `e` may not fire directly now: it is in a melee with an enemy its side observes,
    and its weapons fight there (p17: only before entering CQC may a unit fire). An AFV's own
    weapons fire as usual (p17)."""
    if e.kind != "infantry":
        return None
    seen = set(state.seen.get(e.side, ()))
    if seen and any(t.id in seen for t in foes(state, e)):
        return f"{e.name} is in close combat: its weapons fight there, not by direct fire (p17)"
    return None
