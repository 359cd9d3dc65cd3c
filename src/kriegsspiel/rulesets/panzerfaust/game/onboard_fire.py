"""An on-board mortar platoon with Battery Fire Control, directed by an FAO (p36).

The scenario declares the platoon's Fire Control as a battery of its side with `on_board: <platoon
id>` (forces.<side>.batteries); the whole platoon then fires as that battery through the
off-table machinery (game/written_orders.py, game/orders_indirect.py): its POA is written in
phase A, an FAO that stands still and sees the point calls it down in phase E with the p36 3D6
roll, and the zone keeps falling each turn until it is stopped (p36). What differs from an
off-table battery (decision P325):

- the platoon fires at one point as a whole (p36): every mortar of it on the table must be in its
  p35 range band of the point (measured from each mortar), must not have fired this turn over open
  sights and must not have moved; a mortar that is carried, lost or retreating does not fire;
- the zone is the mortars' own (p35 BZR by calibre) with +1/+2/+3 for 2/3/4+ mortars (p37);
- only an FAO directs it (p36 names FAOs; the company commander's call is for off-table fire);
- no map fire and no counter-battery fire (both are written for off-table batteries, p37);
- each mortar that fires counts as having fired and shows a mortar's muzzle flash (p36: a quarter
  of a gun's of its calibre), so the enemy learns of it only what the flash rules reveal."""

from __future__ import annotations

import math
from typing import Any

from ..forces import Battery
from . import mortar_sights, orders_fire
from .state import Element, State


def mortars(state: State, b: Battery) -> list[Element]:
    """The platoon's mortar teams on the table, able to fire (not carried, lost, retreating,
    nor a carrier's team still setting up, P346)."""
    p = state.platoons.get(str(b.on_board))
    if p is None:
        return []
    out = []
    for mid in p.members:
        e = state.elements[mid]
        if (
            e.active
            and not e.has("retreat")
            and mortar_sights.record(state, e) is not None
            and mortar_sights.unready(state, e) is None
        ):
            out.append(e)
    return out


def check(state: State, side: str, b: Battery, where: str) -> None:
    """Set-up: the platoon exists, is the side's and its mortars are of the battery's calibre."""
    p = state.platoons.get(str(b.on_board))
    if p is None or p.side != side:
        raise ValueError(f"{where}: on_board {b.on_board!r} is not a platoon of {side}")
    tubes = [state.elements[m] for m in p.members if mortar_sights.record(state, state.elements[m])]
    if not tubes:
        raise ValueError(f"{where}: platoon {b.on_board} has no mortar teams (p36)")
    for e in tubes:
        mm = mortar_sights.bore(state, e)
        if mm is not None and abs(mm - b.calibre_mm) > 0.5:
            raise ValueError(f"{where}: calibre_mm {b.calibre_mm:g} is not the {mm:g} mm of {e.id}")
    if b.plan:
        raise ValueError(f"{where}: an on-board platoon fires no map fire (P325)")
    if b.counter_battery:
        raise ValueError(f"{where}: mortars fire no counter-battery fire (p37)")


def range_refused(state: State, b: Battery, xy: tuple[float, float]) -> str | None:
    """Why the platoon cannot reach `xy` (p35 range band from each of its mortars), or None."""
    tubes = mortars(state, b)
    if not tubes:
        return f"battery {b.id}: platoon {b.on_board} has no mortar able to fire (p36)"
    for e in tubes:
        mm = mortar_sights.bore(state, e)
        if mm is None:
            return f"not implemented: {e.name} lost its calibre (p35)"
        lo, hi, _ = mortar_sights.reach(state, mm)
        d = math.dist((e.x, e.y), xy)
        if not lo <= d <= hi:
            return (f"({xy[0]:g}, {xy[1]:g}) is {d:.0f} cm from {e.name}, outside the {mm:g} mm "
                    f"mortar's range {lo:g}-{hi:g} cm (p35); the whole platoon fires at one "
                    "point (p36)")  # fmt: skip
    return None


def refused(state: State, b: Battery, xy: tuple[float, float]) -> str | None:
    """Why the platoon cannot fire at `xy` now (phase E), or None."""
    for e in mortars(state, b):
        if e.fired:
            return (f"{e.name} has fired this turn: platoon {b.on_board} fires as a whole at one "
                    "point (p36)")  # fmt: skip
        if e.moved > 0:
            return f"{e.name} has moved this turn: its platoon cannot fire as a battery (p36)"
    return range_refused(state, b, xy)


def data(state: State, b: Battery) -> dict[str, Any]:
    """What the barrage event adds for an on-board platoon: the mortars that fire."""
    return {"mortars": [e.id for e in mortars(state, b)]}


def fired(state: State, d: dict[str, Any]) -> None:
    """Fold: each mortar of the platoon has fired and shows a mortar's flash (p36, p9)."""
    for mid in d.get("mortars", []):
        e = state.elements[mid]
        e.fired = True
        orders_fire.flash(state, e, "mortar", d["calibre"])
