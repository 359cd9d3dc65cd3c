"""Compulsory moves of bad morale (p24), made for the player at the start of phase F, free of
pips (p7, p24; decision P72):

- a Retreating element moves its full move straight toward its own table edge, or directly
  away from the enemy when an enemy stands in its way; off the table it is lost (p24). It
  surrenders where it comes within 20 cm of an enemy, or an enemy comes within 20 cm of it
  (p24). A Retreat result given during phase F is carried out at once (p24 notes).
- a Shaken platoon with an enemy AFV within 40 cm or enemy infantry within 20 cm of one of
  its elements must withdraw on its next turn (p24): each element moves away from the enemy
  (or toward its own edge, option `shaken_away`, decision P271) and stops at the first safe
  position, out of the enemy's line of sight (p24), else where its move runs out; off the
  table it is lost. A Shaken element's ordinary orders may not take it nearer to the enemy.

Infantry withdraw at the 10 cm charge/evade rate, which p12 allows for bad morale; heavy
weapons teams (mortars, MMG, HMG) walk. Mines on the way are swept like any move.

Only enemies the side observes now count (fog of war, P271-P272): a compulsory move never
runs from, stops for or surrenders to an enemy its side does not see, so it tells the side
nothing about the others.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ....engine.events import Draft, Event
from ..rules.passenger_fire import RESULT as PASSENGERS_LOST
from . import disengage, movement, sight
from .build import speeds
from .state import Element, Platoon, State

STEP = 1.0  # cm between the points a withdrawal is walked at
AFV_NEAR = 40.0  # cm: an enemy AFV this near makes a Shaken unit withdraw (p24)
INFANTRY_NEAR = 20.0  # cm: enemy infantry this near (p24)
SURRENDER = 20.0  # cm: a retreating element this near an enemy surrenders (p24)
FIRED_NEAR = 60.0  # cm: a retreating unit losing men to an enemy this near surrenders (p24)
AFV_KINDS = ("afv", "motorised_gun")
HEAVY = ("mortar", "mmg", "hmg")  # infantry heavy weapons: no charge/evade (p12)
TOWARDS = {"north": (0.0, 1.0), "south": (0.0, -1.0), "east": (1.0, 0.0), "west": (-1.0, 0.0)}


# ------------------------------------------------------------------ what the side knows
def threats(state: State, side: str) -> list[Element]:
    """The enemy elements `side` observes now: the only ones a compulsory move reacts to."""
    return [e for e in (state.elements[i] for i in state.seen.get(side, ())) if e.active]


def threatened(state: State, p: Platoon) -> bool:
    """A Shaken platoon must withdraw (p24): an observed enemy AFV within 40 cm or enemy
    infantry within 20 cm of one of its elements."""
    foes = threats(state, p.side)
    return any(
        _near(f, (m.x, m.y))
        for m in (state.elements[x] for x in p.members)
        if m.active
        for f in foes
    )


def approaches(state: State, e: Element, end: tuple[float, float]) -> bool:
    """Whether a Shaken element's move to `end` takes it nearer an enemy it observes (p24
    forbids it)."""
    if not e.has("shaken"):
        return False
    return any(
        math.dist(end, (f.x, f.y)) < math.dist((e.x, e.y), (f.x, f.y)) - 1e-6
        for f in threats(state, e.side)
    )


def edge_of(state: State, side: str) -> str:
    return next((s.edge for s in state.scenario.sides if s.id == side), None) or "south"


# ------------------------------------------------------------------ directions
def _away(e: Element, foes: list[Element]) -> tuple[float, float] | None:
    """Directly away from the enemy: the unit vectors from each foe, nearer ones weighing more."""
    vx = vy = 0.0
    for f in foes:
        dx, dy = e.x - f.x, e.y - f.y
        d2 = dx * dx + dy * dy
        if d2 < 1e-9:
            continue
        vx, vy = vx + dx / d2, vy + dy / d2
    n = math.hypot(vx, vy)
    return (vx / n, vy / n) if n > 1e-12 else None


def in_the_way(e: Element, foes: list[Element], u: tuple[float, float]) -> bool:
    """An enemy ahead on the way to the edge, within surrender range of the line (p24: the
    retreat goes to the rear edge "if no enemy forces intervening"; decision P272)."""
    for f in foes:
        dx, dy = f.x - e.x, f.y - e.y
        ahead = dx * u[0] + dy * u[1]
        if ahead > 0 and abs(dx * u[1] - dy * u[0]) <= SURRENDER:
            return True
    return False


def _rate(state: State, e: Element) -> float:
    """The distance of a compulsory move: infantry charge/evade (p12), else its full move."""
    rec = state.records[e.id]
    full = speeds(rec)[0]
    if e.kind == "infantry" and full > 0:
        name = f"{getattr(rec, 'weapon', '') or ''} {e.type}".casefold()
        if not any(h in name for h in HEAVY):
            return movement.CHARGE
    return full


# ------------------------------------------------------------------ the walk
def _edge_point(state: State, here: tuple[float, float], u: tuple[float, float]):
    """Where the ray from `here` along `u` leaves the table, and by which edge."""
    t = state.scenario.table
    best = (math.inf, "")
    for limit, comp, pos, edge in ((t.width, u[0], here[0], "east"), (0.0, u[0], here[0], "west"),
                                   (t.depth, u[1], here[1], "north"), (0.0, u[1], here[1], "south")):  # fmt: skip
        if abs(comp) > 1e-12:
            k = (limit - pos) / comp
            if k >= 0 and k < best[0]:
                best = (k, edge)
    k, edge = best
    return (here[0] + u[0] * k, here[1] + u[1] * k), edge


def walk(state: State, e: Element, u: tuple[float, float], budget: float, stop) -> dict[str, Any]:
    """Walk `e` along `u` in STEP cm steps while its move lasts (terrain slows it, p25), until
    `stop(point)` names a reason or it reaches the table edge. Returns the end point and why
    it ended there (`edge`, `spent` or the stop's reason)."""
    here, spent = (e.x, e.y), 0.0
    while True:
        nxt = (here[0] + u[0] * STEP, here[1] + u[1] * STEP)
        if not state.board.on_table(*nxt):
            at, edge = _edge_point(state, here, u)
            c = movement.cost(state, here, [at])
            if spent + c <= budget + 1e-6:
                return {"end": at, "why": "edge", "edge": edge}
            return {"end": here, "why": "spent"}
        c = movement.cost(state, here, [nxt], budget - spent)
        if spent + c > budget + 1e-6:
            return {"end": here, "why": "spent"}
        spent, here = spent + c, nxt
        why = stop(here)
        if why:
            return {"end": here, "why": why}


def _near(f: Element, p: tuple[float, float]) -> bool:
    """Whether enemy `f` is near enough point `p` to make a Shaken unit there withdraw (p24)."""
    d = math.dist(p, (f.x, f.y))
    return (f.kind in AFV_KINDS and d <= AFV_NEAR) or (f.kind == "infantry" and d <= INFANTRY_NEAR)


def _safe(state: State, foes: list[Element]):
    """A safe position (p24): no enemy the side observes is near it or has a line of sight
    to it."""

    def stop(p: tuple[float, float]) -> str | None:
        if any(_near(f, p) for f in foes):
            return None
        return None if any(sight.clear(state, (f.x, f.y), p) for f in foes) else "safe"

    return stop


def _surrender(foes: list[Element]):
    return lambda p: (
        "surrendered" if any(math.dist(p, (f.x, f.y)) <= SURRENDER for f in foes) else None
    )


def compulsory_move(state: State, e: Element, kind: str) -> dict[str, Any] | None:
    """One element's compulsory move (`retreat` or `withdraw`), or None if it cannot move."""
    budget = _rate(state, e)
    if budget <= 0 or e.has("hull_damaged"):
        return None
    foes = threats(state, e.side)
    edge = edge_of(state, e.side)
    toward = TOWARDS[edge]
    if kind == "retreat":
        u = (_away(e, foes) if in_the_way(e, foes, toward) else None) or toward
        how = "away from the enemy in its way" if u != toward else f"toward its {edge} edge"
        stop = _surrender(foes)  # (within 20 cm already, it surrendered: `surrendering`)
    else:
        away = state.rules.opts.shaken_away == "threats"
        u = (_away(e, foes) if away else None) or toward
        how = "away from the enemy it observes" if u != toward else f"toward its {edge} edge"
        stop = _safe(state, foes)
        if stop((e.x, e.y)):
            return None  # already in a safe position: nothing to evacuate
    r = walk(state, e, u, budget, stop)
    end = r["end"]
    d = math.dist((e.x, e.y), end)
    move: dict[str, Any] = {
        "unit": e.id,
        "kind": kind,
        "path": [[e.x, e.y, 0.0], [end[0], end[1], round(d, 3)]],
        "facing": math.degrees(math.atan2(u[0], u[1])) % 360,
    }
    verb = "retreats" if kind == "retreat" else "withdraws"
    note = f"{e.name} {verb} {d:.1f} cm {how} (p24)"
    if r["why"] == "edge":
        move["exited"] = r["edge"]
        note += f", leaves the table by the {r['edge']} edge and is lost (p24)"
    elif r["why"] == "surrendered":
        move["surrendered"] = True
        note += ", comes within 20 cm of the enemy and surrenders (p24)"
    elif r["why"] == "safe":
        note += ", stopping out of the enemy's sight (a safe position, p24)"
    move["note"] = note
    return move


def forced_disengage(e: Element) -> dict[str, Any]:
    """A base of a withdrawing platoon caught in a melee its side knows of disengages instead
    (p19: a disengagement forced by bad morale; decision P334): it stands, fights this turn's
    close combat with its enemy at +1, then steps back (disengage.py); the rest of the
    withdrawal waits for its next turn, if the platoon is still threatened then."""
    return {
        "unit": e.id,
        "kind": "disengage",
        "path": [[e.x, e.y, 0.0], [e.x, e.y, 0.0]],
        "facing": e.facing,
        "note": (
            f"{e.name} must withdraw but is in close combat: it disengages, fighting once "
            "more with its enemy at +1 before it steps back (p19, P334)"
        ),  # fmt: skip
    }


def compulsory(state: State, first: bool) -> dict[str, list[dict[str, Any]]]:
    """Each side's compulsory moves due now: at the start of phase F (`first`) Retreating
    elements and Shaken platoons under threat; later in the phase, elements that got a
    Retreat result since (p24 notes). An element makes one compulsory move a turn."""
    done = set(state.phase_data.get("withdrawn", ()))
    out: dict[str, list[dict[str, Any]]] = {s: [] for s in state.sides}
    shaken = set()
    if first:
        for p in state.platoons.values():
            members = [state.elements[m] for m in p.members]
            if any(m.active and m.has("shaken") for m in members) and threatened(state, p):
                shaken.update(m.id for m in members)
    for e in state.elements.values():
        if not e.active or e.id in done:
            continue
        if e.has("retreat"):
            kind = "retreat"
        elif e.id in shaken and e.has("shaken"):
            kind = "withdraw"
        else:
            continue
        if kind == "withdraw" and disengage.engaged_known(state, e):
            out[e.side].append(forced_disengage(e))
            continue
        m = compulsory_move(state, e, kind)
        if m is not None:
            out[e.side].append(m)
    return {s: m for s, m in out.items() if m}


def surrendering(state: State) -> list[Draft]:
    """Retreating elements an enemy they observe came within 20 cm of: they surrender at once
    (p24), each side told of its own."""
    out = []
    for side in state.sides:
        foes = threats(state, side)
        gone = [e for e in state.side_elements(side) if e.has("retreat") and e.active
                and any(math.dist((e.x, e.y), (f.x, f.y)) <= SURRENDER for f in foes)]  # fmt: skip
        if gone:
            lines = tuple(f"{e.name} is retreating and an enemy it observes is within 20 cm: "
                          "it surrenders (p24)" for e in gone)  # fmt: skip
            out.append(Draft("surrendered", {"units": [e.id for e in gone]}, (side,), lines))
    return out


# ------------------------------------------------------------------ losses from near (p24)
def retreating(state: State, pid: str) -> bool:
    """Whether platoon `pid` is under a Retreat result now (its counter on a live element)."""
    return any(
        state.elements[m].active and state.elements[m].has("retreat")
        for m in state.platoons[pid].members
    )


def _known_firer(state: State, side: str, firer: str) -> bool:
    """Whether `side` observes the element that fired (P310: only observed enemies count)."""
    return firer in state.seen.get(side, ()) or any(
        firer in tg for o, tg in state.spotted.items() if state.elements[o].side == side
    )


class RiderDeaths:
    """Which riders each landing result killed (orders_fire.land): `next(r)` before a result
    is folded, `close()` after the last. A rider dies with its vehicle, by small arms falling
    on a softskin's passengers (p17) or by fire at an AFV's passengers (P350); the result's
    target is the vehicle, so the dead are found by who was aboard before and lost after."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.rows: list[tuple[dict[str, Any], list[str]]] = []
        self._open: tuple[dict[str, Any], list[str]] | None = None

    def next(self, r: dict[str, Any]) -> None:
        self.close()
        els = self.state.elements
        self._open = (r, [p for p in els[r["target"]].carrying if not els[p].lost])

    def close(self) -> None:
        if self._open is not None:
            r, aboard = self._open
            dead = [p for p in aboard if self.state.elements[p].lost]
            if dead:
                self.rows.append((r, dead))
            self._open = None

    def with_vehicle(self) -> dict[str, int]:
        """The riders killed with their vehicle (destroyed by a result aimed at it, p28/p37),
        counted by their own platoon: losses it tests morale for as any other (p23, P363).
        Riders killed by fire falling on them (P350, p17) are counted where they fall."""
        lost: dict[str, int] = {}
        for r, dead in self.rows:
            if _aimed_at_riders(self.state, r):
                continue
            for p in dead:
                pl = self.state.elements[p].platoon
                lost[pl] = lost.get(pl, 0) + 1
        return lost


def _aimed_at_riders(state: State, r: dict[str, Any]) -> bool:
    """Whether result `r` was fire whose casualties fall on the riders first: small arms at
    an AFV's passengers (P350) or at a softskin (p17), not a vehicle destroyed with them."""
    name = r["result"]
    vehicle = state.elements[r["target"]]
    return name.startswith(PASSENGERS_LOST) or (
        vehicle.kind == "softskin" and name.startswith("lost_")
    )


def _queue_near(
    state: State, due: list, pid: str, side: str, src: str, xy: tuple[float, float]
) -> None:
    if any(q[0] == pid for q in due) or src not in state.elements:
        return
    f = state.elements[src]
    cm = math.dist((f.x, f.y), xy)
    if f.side != side and cm <= FIRED_NEAR and _known_firer(state, side, src):
        due.append([pid, src, round(cm, 1)])


def losses_near(
    state: State,
    results: list[dict[str, Any]],
    before: set[str],
    riders: Sequence[tuple[dict[str, Any], list[str]]] = (),
) -> None:
    """Fold helper: a platoon that was retreating (`before` the results landed) and lost an
    element to an enemy within 60 cm of it, an enemy its side observes, surrenders at once
    (p24; decision P310): queued on phase_data["surrender_due"] as [platoon, firer, cm].
    `riders` (RiderDeaths.rows): the teams killed aboard a vehicle by a result count for their
    own platoons, measured from where the fire found the vehicle (P360); with option
    `rider_losses_near=fired_at` only those killed by fire falling on the riders (P361)."""
    due = state.phase_data.setdefault("surrender_due", [])
    for r in results:
        src = r.get("src")
        t = state.elements[r["target"]]
        if src is None or not t.lost or t.platoon not in before:
            continue
        _queue_near(state, due, t.platoon, t.side, src, (t.x, t.y))
    every = state.rules.opts.rider_losses_near == "all"
    for r, dead in riders:
        src = r.get("src")
        if src is None or not (every or _aimed_at_riders(state, r)):
            continue
        v = state.elements[r["target"]]
        xy = tuple(r["at"]) if r.get("at") else (v.x, v.y)
        for p in dead:
            rider = state.elements[p]
            if rider.platoon in before:
                _queue_near(state, due, rider.platoon, rider.side, src, xy)
    if not due:
        state.phase_data.pop("surrender_due", None)


def surrender_due(state: State) -> list[Draft]:
    """The next retreating platoon that surrenders for losses taken from within 60 cm (p24):
    its live elements are taken prisoner, its teams riding a vehicle too (P362); its side is
    told why, the firer by its alias."""
    due = state.phase_data.get("surrender_due")
    if not due:
        return []
    pid, src, cm = due[0]
    p = state.platoons[pid]
    units = [m for m in p.members if state.elements[m].active or _aboard(state, m)]
    who = state.aliases.alias(p.side, src)
    line = (f"{p.name} is retreating and lost men to an enemy ({who}) {cm:g} cm away, within "
            f"60 cm: the whole unit surrenders (p24)")  # fmt: skip
    names = tuple(f"{state.elements[u].name} surrenders (p24)" for u in units)
    return [Draft("surrendered", {"units": units, "platoon": pid}, (p.side,), (line, *names))]


def _aboard(state: State, uid: str) -> bool:
    """Whether `uid` is a live infantry team riding a vehicle (a rider or passenger; a towed
    gun is not counted here)."""
    el = state.elements[uid]
    if el.kind != "infantry" or el.transport is None or el.lost:
        return False
    return uid in state.elements[el.transport].carrying


def _surrendered(state: State, d: dict, e: Event) -> None:
    pid = d.get("platoon")
    if pid is not None:  # a surrender for losses from near (p24): its morale test is moot,
        due = state.phase_data.get("surrender_due", [])  # the company HQ tests (p23)
        due[:] = [q for q in due if q[0] != pid]
        tests = state.phase_data.get("morale", [])
        tests[:] = [q for q in tests if q[0] != pid]
        queue = state.phase_data.setdefault("company_tests", [])
        company = state.platoons[pid].company
        if company not in queue:
            queue.append(company)
    for uid in d["units"]:
        el = state.elements[uid]
        el.lost = True
        for rider in el.carrying:
            state.elements[rider].lost = True
        if el.transport is not None and uid in state.elements[el.transport].carrying:
            state.elements[el.transport].carrying.remove(uid)  # taken off its vehicle (P362)


FOLDS = {"surrendered": _surrendered}


def fold(state: State, moves: list[dict[str, Any]], place) -> dict[str, Any]:
    """Fold compulsory moves: `place` puts an element on its path (orders_move) and says
    where along its turn's move it started; those starts, by element."""
    done = state.phase_data.setdefault("withdrawn", [])
    starts: dict[str, Any] = {}
    for m in moves:
        el = state.elements[m["unit"]]
        done.append(el.id)
        if m["kind"] == "disengage":
            el.counters[disengage.COUNTER] = 1  # P334: it steps back after the melee
            continue
        starts[el.id] = place(state, el, m["path"], m["facing"])
        if m.get("exited") or m.get("surrendered"):
            el.lost = True  # off the table or taken prisoner: lost as casualties (p24)
            if m.get("exited"):
                el.exited = m["exited"]
            for rider in el.carrying:
                state.elements[rider].lost = True
    return starts
