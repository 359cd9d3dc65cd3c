"""Direct area fire (p32) and covering fire (p17) aimed at one floor of a building (P338-P339).

p32 has HE fired at a building declare the floor it is aimed at; p17 lets a covering-fire
weapon cover one floor of a building a turn. A `fire` order that will be HE area fire and a
`cover` order may therefore name a `floor` of the multi-floor building at their point of
aim (the target's place, or the zone's centre). The firer must see that floor: the line from
its own eye (its floor, P329) to the point at the named floor's height, over the terrain's
heights and through no smoke (vehicles and wrecks do not hide a building's floor). The zone
then reaches, in that building, only the teams on that floor; what it covers outside the
building is decided by the option `floor_zone_outside` (P339: `hit`, as before, by default).
Without a floor the zone reaches every floor, as before.

Nothing here reads who stands on a floor before the fire lands: a refusal depends on the
terrain, the smoke and the firer alone, so it reveals no unseen enemy."""

from __future__ import annotations

import math
from typing import Any

from . import floors, melee_contact
from .state import Element, State

Aim = dict[str, Any]  # {"building": feature id, "floor": n}: a zone aimed at one floor


def sees(state: State, e: Element, xy: tuple[float, float], floor: int) -> bool:
    """Whether `e` sees the point `xy` at the height of `floor` (P329's line, P338)."""
    from . import smoke  # smoke -> area -> this module

    a = (e.x, e.y)
    high = floors.eye(state, e)
    return state.board.los(a, xy, high, floors.level(floor)) and not smoke.blocks(state, a, xy)


def why_not(state: State, e: Element, xy: tuple[float, float], floor: int) -> str | None:
    """Why `e` may not aim its area or covering fire at `floor` of the building at `xy`."""
    b = melee_contact.building(state, *xy)
    if b is None:
        return (f"({xy[0]:g}, {xy[1]:g}) is not in a building: a floor is named only for fire "
                "at a building (p17, p32)")  # fmt: skip
    n = melee_contact.floors(b)
    if n < 2:
        return f"the building {b.id} has one floor only: there is no floor to name (p32)"
    if not 0 <= floor < n:
        return f"the building {b.id} has floors 0 to {n - 1}"
    if not sees(state, e, xy, floor):
        return f"{e.name} cannot see floor {floor} of the building {b.id} (P330)"
    return None


def choices(state: State, e: Element, xy: tuple[float, float]) -> list[int]:
    """The floors `e` may name for fire at `xy` (legal templates): those of a multi-floor
    building there that it sees; none elsewhere."""
    b = melee_contact.building(state, *xy)
    if b is None or melee_contact.floors(b) < 2:
        return []
    return [f for f in range(melee_contact.floors(b)) if sees(state, e, xy, f)]


def aim(state: State, xy: tuple[float, float], floor: int | None) -> Aim | None:
    """The record of a zone aimed at `floor` of the building at `xy` (None: every floor)."""
    if floor is None:
        return None
    b = melee_contact.building(state, *xy)
    assert b is not None, xy  # why_not has refused a point outside a building
    return {"building": b.id, "floor": floor}


def spares(state: State, aimed: Aim | None, t: Element) -> bool:
    """Whether a zone aimed at one floor leaves `t` alone although it lies in the zone: in
    the aimed building, a team on another floor; elsewhere as `floor_zone_outside` says."""
    if aimed is None:
        return False
    b = melee_contact.building(state, t.x, t.y)
    if b is None or b.id != aimed["building"]:
        return state.rules.opts.floor_zone_outside == "spared"
    return melee_contact.floor(state, t) != aimed["floor"]


def inside(
    state: State, centre: tuple[float, float], radius: float, aimed: Aim | None, t: Element
) -> bool:
    """Whether the zone of `radius` round `centre` (aimed at a floor or not) reaches `t`."""
    return math.dist(centre, (t.x, t.y)) <= radius and not spares(state, aimed, t)


def note(aimed: Aim | None) -> tuple[str, ...]:
    """The explanation line of a zone aimed at one floor."""
    if aimed is None:
        return ()
    return (f"aimed at floor {aimed['floor']} of the building {aimed['building']}: there only "
            "the teams on that floor are under it (p17, p32; P338)",)  # fmt: skip
