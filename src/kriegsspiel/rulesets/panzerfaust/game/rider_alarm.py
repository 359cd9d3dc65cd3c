"""Tank riders made to get down after fire (p28; decisions P354-P359).

Riders on the hull of an AFV (not the passengers inside an APC, p27) are fired upon in phase G
by small arms aimed at them (`fire {…, passengers: true}`, any result), or their AFV is hit by
AT fire (any result but a miss), or the AFV stands in the beaten zone of HE direct area fire
(P354; with option `rider_alarm_crew=crew_too` small arms at the AFV's crew count as well,
P355). Each such shot notes the AFV (`note`, a fold of the shot); when the volley has landed
the AFV is marked (`COUNTER`) if tank riders other than a Soviet SMG section are still aboard
(`mark`, P356).

In the next turn's phase F, before any platoon moves, those riders get down behind the AFV,
free of pips, as the compulsory moves of bad morale are made (p24, P72): an engine step
(`due`, event `riders_down`, P357). Each spends half its move getting down (p12, p28). The
marked AFV stands still while they do: only half its move is left to it this turn, or none
with option `rider_alarm_stop=turn` (P358); it may not move while such riders are still aboard
and no team may board it this turn (refusals naming p28). The mark goes at the start of the
turn after (P359). The enemy is not shown the mark.
"""

from __future__ import annotations

import math
from typing import Any

from ....engine.events import Draft, Event
from ..rules import area_fire
from . import area, passenger_fire, riders
from .state import Element, State

COUNTER = "riders_off"  # 2 when set in phase G, 1 in the next turn (rules.py counts it down)
NOTED = "riders_fired"  # phase_data: AFVs whose riders were fired on this volley
# p87: the Soviet lists' SMG sections, and the platoons made of them
SMG_ORGS = ("ussr/smg-section", "ussr/smg-section-1941", "ussr/smg-platoon")


def _organisations(state: State) -> dict[str, str]:
    """Platoon id -> the organisation it was bought as (the scenario's forces), memoised."""
    memo = state.cache.get("platoon_orgs")
    if memo is None:
        memo = {}
        sc = state.scenario
        blocks = [sc.forces_of(s) for s in sc.side_ids]
        blocks += [sc.arrival_forces(i) for i in range(len(sc.reinforcements))]
        for forces in blocks:
            for c in getattr(forces, "companies", None) or ():
                for p in c.platoons:
                    org = getattr(p, "organisation", None) or ""
                    memo[p.id] = org.split(":", 1)[-1]
        state.cache["platoon_orgs"] = memo
    return memo


def exempt(state: State, rider: Element) -> bool:
    """Whether `rider` is a Soviet SMG section's team (p28: they ride on regardless; P356)."""
    return _organisations(state).get(rider.platoon, "") in SMG_ORGS


def tank_riders(state: State, v: Element) -> list[Element]:
    """The living teams on the hull of AFV `v` that p28 makes get down (not a carrier's
    passengers, not Soviet SMG sections)."""
    if v.kind != "afv" or v.lost or passenger_fire.inside(state, v):
        return []
    return [r for r in passenger_fire.riding(state, v) if not exempt(state, r)]


def stopped(v: Element) -> bool:
    """Whether `v` must stand for its riders this turn (marked in the turn before)."""
    return v.counters.get(COUNTER) == 1


def note(state: State, d: dict, firer: Element, target: Element) -> None:
    """A `shot` fold: note the AFVs whose tank riders this shot fires upon (P354-P355)."""
    out: list[str] = []
    if d.get("flame"):
        return  # a flamethrower or Molotov is neither infantry weapons' fire nor AT fire
    if d.get("he"):
        if d.get("floor") is None:
            out = _in_zone(state, firer, target, d.get("at_xy"))
    elif target.kind == "afv":
        crew = d.get("crew") and state.rules.opts.rider_alarm_crew == "crew_too"
        if d.get("passengers") or crew or (not d.get("crew") and d["result"] != "miss"):
            out = [target.id]
    out = [v for v in out if tank_riders(state, state.elements[v])]
    if out:
        noted = state.phase_data.setdefault(NOTED, [])
        noted += [v for v in out if v not in noted]


def _in_zone(state: State, firer: Element, target: Element, at_xy: Any) -> list[str]:
    """The enemy AFVs in the beaten zone of `firer`'s HE aimed at `target` (p32)."""
    w = area.he_weapon(state, firer)
    if w is None:
        return []
    xy = tuple(at_xy) if at_xy else (target.x, target.y)
    r = area_fire.radius(w, building=area.in_building(state, xy))
    return [
        v.id
        for v in state.elements.values()
        if v.side != firer.side and v.kind == "afv" and v.active
        and math.dist((v.x, v.y), xy) <= r
    ]  # fmt: skip


def mark(state: State) -> None:
    """After a volley lands: the noted AFVs that still carry such riders are marked."""
    for vid in state.phase_data.pop(NOTED, ()):
        v = state.elements[vid]
        if tank_riders(state, v):
            v.counters[COUNTER] = 2


def due(state: State) -> list[Draft]:
    """Phase F's engine step: the riders of each marked AFV get down, one event a side."""
    by_side: dict[str, list[dict]] = {}
    for v in state.elements.values():
        if not stopped(v) or not v.active:
            continue
        for r in tank_riders(state, v):
            x, y = riders.dismount_spot(state, v)
            by_side.setdefault(v.side, []).append({"unit": r.id, "vehicle": v.id, "x": x, "y": y})
    return [
        Draft("riders_down", {"moves": moves}, (side,), (
            "p28: tank riders fired upon last turn, or whose AFV was hit, get down; "
            "the AFV stands while they do",
        ))
        for side, moves in by_side.items()
    ]  # fmt: skip


def fold(state: State, d: dict, e: Event) -> None:
    for m in d["moves"]:  # each as a `dismount` order gets down (riders.py), free
        riders.FOLDS["dismount"](state, m, e)


def share(state: State, v: Element) -> float:
    """The share of its move the AFV `v` has this turn (P358)."""
    if not stopped(v):
        return 1.0
    return 0.0 if state.rules.opts.rider_alarm_stop == "turn" else 0.5


def why_not_move(state: State, v: Element) -> str | None:
    """Why the AFV `v` may not move now (p28), or None."""
    if not stopped(v):
        return None
    if tank_riders(state, v):
        return f"{v.name} must stand until its tank riders are down: they were fired upon (p28)"
    if share(state, v) == 0:
        return (
            f"{v.name} stands this turn while its tank riders get down (p28, option "
            "rider_alarm_stop=turn)"
        )
    return None


def why_not_board(state: State, v: Element) -> str | None:
    """Why no team may board `v` this turn (p28), or None."""
    if stopped(v):
        return f"{v.name} stands for its tank riders to get down this turn: no one boards it (p28)"
    return None


FOLDS = {"riders_down": fold}
