"""Small arms at the passengers riding an enemy AFV in phase G (p16-17, p28; decisions
P349-P350): `fire {unit, target, passengers: true}` turns an element's small arms (as for its
crew, crew_fire.py) on the teams riding an AFV it observes, within its small arms' reach.

Who is seen riding (the fog, P350): an observing side sees the teams on an AFV's hull (tank
riders, p28) and those inside an armoured carrier (chart APC/recon, p27), the number of teams
shown on the AFV in its view; with option `apc_passengers=open_only` a carrier the data calls
fully enclosed hides its passengers and shields them (P349). The cover is the rules core's
(rules/passenger_fire.py): tank riders soft, a carrier's passengers hard, less through its open
parts by the firer's arc and from above as its crew's (p17), or what its notes say.

What the result does (a fold, `land`): the teams lost die in the order they boarded, each a loss
to its own platoon, which tests morale (p23); the vehicle is not harmed. Tank riders fired on get down
the next turn (rider_alarm.py, p28, P354-P359)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..rules import passenger_fire as rules
from . import arms, crew_fire
from .state import Element, State

RESULT = rules.RESULT


def riding(state: State, t: Element) -> list[Element]:
    """The living teams aboard `t`, in the order they boarded."""
    return [state.elements[r] for r in t.carrying if not state.elements[r].lost]


def inside(state: State, t: Element) -> bool:
    """Whether `t`'s riders sit inside an armoured carrier (chart APC/recon, p27) rather than
    on its hull as tank riders (p28)."""
    return getattr(state.records[t.id], "chart", None) == "apc_recon"


def _enclosed_safe(state: State, t: Element) -> str | None:
    open_only = state.rules.opts.apc_passengers == "open_only"
    return rules.why_safe(crew_fire.open_parts(state, t), inside(state, t), open_only)


def seen(state: State, t: Element) -> list[Element]:
    """The teams riding the AFV `t` that a side observing it sees (P350): none inside a carrier
    that hides them (option `apc_passengers=open_only`, P349)."""
    if t.kind != "afv" or _enclosed_safe(state, t):
        return []
    return riding(state, t)


def why_not(state: State, e: Element, t: Element, xy: tuple[float, float]) -> str | None:
    """Why `e` cannot fire its small arms at the teams riding `t` at `xy`, or None (p16-17).
    Each reason is one the firer's side can see for itself (P350)."""
    if t.kind == "softskin":
        return (
            f"{t.name} is a softskin: small arms at it fall on its passengers first, so fire "
            "at the vehicle (p17)"
        )
    if t.kind != "afv":
        return f"{t.name} is not an AFV: only an AFV's riders are fired at apart from it"
    reach = crew_fire.reach_why_not(state, e, xy, "passengers (p16)")
    if reach:
        return reach
    safe = _enclosed_safe(state, t)
    if safe:
        return f"{t.name}: {safe}"
    if not riding(state, t):
        return f"no passengers are seen aboard {t.name}"
    return None


def cover(state: State, e: Element, t: Element, xy: tuple[float, float]) -> Any:
    """The riders' cover against `e`'s fire at `t` at `xy` (p16-17, P349)."""
    return rules.passenger_cover(
        crew_fire.open_parts(state, t),
        crew_fire.hull_arc(t, xy, e),
        crew_fire.from_above(state, e, xy),
        inside(state, t),
        getattr(state.records[t.id], "passenger_cover", None),
    )


def shot(state: State, e: Element, t: Element, xy: tuple[float, float]) -> rules.PassengerShot:
    """The rules core's situation of `e`'s small arms at the teams riding `t` at `xy` (p15-17)."""
    team = arms.small_arms(state, e)
    assert team is not None
    fire = arms.small_arms_fire(state, e, t, xy, team)
    fire = replace(fire, cover=cover(state, e, t, xy), aboard=True)
    return rules.PassengerShot(fire, len(riding(state, t)))


def land(state: State, t: Element, result: str) -> dict[str, int]:
    """A passenger result on `t` (a fold, orders_fire.land): the first `n` teams aboard are
    lost and leave the vehicle; the losses by platoon (for a retreating platoon also losses
    to a near enemy, p24: withdrawal.RiderDeaths, P360)."""
    n = int(result[len(RESULT) :])
    lost: dict[str, int] = {}
    for rider in riding(state, t)[:n]:
        rider.lost = True
        t.carrying.remove(rider.id)
        lost[rider.platoon] = lost.get(rider.platoon, 0) + 1
    return lost
