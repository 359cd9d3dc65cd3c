"""Small arms at AFV crews in phase G (p17; decisions P342-P345): `fire {unit, target, crew:
true}` turns an element's small arms (an infantry team's fire factors, an AFV's or vehicle's
machine guns as an LMG team, arms.py) on the crew of an enemy AFV it observes, within its small
arms' reach. The rules core (rules/crew_fire.py) gives the crew's cover from the record's
`open` list, the hull arc the firer stands in (front and rear 90 degrees, the rest the sides,
as for AT fire) and whether the fire comes from above (option `crew_from_above`, P343).

A fully enclosed AFV closed down (`close_down`, hatches.py) is refused; one head-up offers its
commander. What the result does (a fold, `land`): an open AFV's crew lost abandons it
(`crew_lost`, P308/P344); a commander killed leaves the AFV closed down for good
(`commander_killed`: -2 to its AT fire, p28, and to its platoon's morale tests, p23); with a
one-man turret the crew bails out and the AFV counts as destroyed (`bailed_out`)."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from ....geometry.footprint import relative_bearing
from ..rules import crew_fire as rules
from . import arms, flame, floors, mortar_debark, riders, wrecks
from .board import STOREY
from .state import Element, State

RESULTS = ("crew_lost", "commander_killed", "bailed_out")  # what `land` folds


def open_parts(state: State, t: Element) -> tuple[str, ...]:
    """How the AFV `t` is open (its record's `open`: top, sides, rear)."""
    return tuple(getattr(state.records[t.id], "open", None) or ())


def hull_arc(t: Element, xy: tuple[float, float], firer: Element) -> rules.Arc:
    """The arc of `t`'s hull (standing at `xy`) the firer stands in: front and rear 90
    degrees, the rest the sides (p29)."""
    rb = abs(relative_bearing(xy, t.facing, (firer.x, firer.y)))
    return "front" if rb <= 45 else "rear" if rb >= 135 else "side"


def from_above(state: State, e: Element, xy: tuple[float, float]) -> bool:
    """Whether `e` fires down into an AFV at `xy` (p17: within 45 degrees above, the book's
    example a building's second storey or higher; P343): from an upper floor; with option
    `crew_from_above=floors_hills` also from ground at least a storey higher than the AFV's."""
    if e.floor >= 1:
        return True
    if state.rules.opts.crew_from_above != "floors_hills":
        return False
    board = state.board
    return board.ground(e.x, e.y) + floors.eye(state, e) >= (
        board.ground(*xy) + floors.EYE + STOREY - 1e-9
    )


def why_not(state: State, e: Element, t: Element, xy: tuple[float, float]) -> str | None:
    """Why `e` cannot fire its small arms at the crew of `t` at `xy`, or None (p17)."""
    if t.kind != "afv":
        return f"{t.name} is not an AFV: only an AFV's crew is fired at apart from its vehicle"
    return reach_why_not(state, e, xy, "crew (p17)") or rules.why_safe(
        open_parts(state, t), t.has("closed_down")
    )


def reach_why_not(state: State, e: Element, xy: tuple[float, float], whom: str) -> str | None:
    """Why `e`'s small arms cannot reach men in an AFV at `xy` (its `whom`), or None: a
    flamethrower uses its own attack (p21), and the firer needs small arms in range."""
    if flame.is_flamethrower(state, e):
        return f"{e.name}: a flamethrower attacks an AFV with the flame command (p21)"
    team = arms.small_arms(state, e)
    if team is None:
        return f"{e.name} has no small arms to fire at an AFV's {whom}"
    if math.dist((e.x, e.y), xy) > arms.reach(state, team):
        return f"the AFV is out of small-arms range ({arms.reach(state, team):g} cm)"
    return None


def shot(state: State, e: Element, t: Element, xy: tuple[float, float]) -> rules.CrewShot:
    """The rules core's situation of `e`'s small arms at `t`'s crew at `xy` (p15-17)."""
    team = arms.small_arms(state, e)
    assert team is not None
    parts = open_parts(state, t)
    fire = arms.small_arms_fire(state, e, t, xy, team)
    cover = rules.crew_cover(parts, hull_arc(t, xy, e), from_above(state, e, xy))
    rec: Any = state.records[t.id]
    return rules.CrewShot(
        replace(fire, cover=cover, afv_crew=True), parts, bool(getattr(rec, "one_man_turret", 0))
    )


def land(state: State, t: Element, result: str) -> bool:
    """A crew result on `t` (a fold, orders_fire.land): True when the AFV is out of action."""
    if result == "commander_killed":
        t.counters["commander_killed"] = 1
        t.counters["closed_down"] = 1  # for the rest of the game (p17)
        return False
    t.lost = True
    t.counters[result] = 1  # crew_lost: abandoned; bailed_out: counts destroyed (P344)
    wrecks.leave(state, t)
    return True


def get_down(state: State, t: Element) -> None:
    """The living passengers of an abandoned AFV get down beside it (P308); a carrier's mortar
    team among them keeps its mortar, not set up (P351)."""
    if not t.carrying:
        return
    x, y = riders.dismount_spot(state, t)
    for r in list(t.carrying):
        rider = state.elements[r]
        if not rider.lost:
            rider.transport, rider.x, rider.y = None, x, y
            rider.feature = state.board.feature(x, y)
            mortar_debark.dropped(state, t, rider)
    t.carrying.clear()
