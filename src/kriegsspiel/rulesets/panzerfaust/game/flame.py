"""Man-pack flamethrowers against AFVs (p21) in phase G: a flamethrower team (its record's
weapon) that moved at most half its move flames one AFV within 5 cm and its 30 degree arc; the
rules core's flame roll (rules/flame.py: 1D6 +2 open-topped or +1 light tank, 5 immobilised,
6+ destroyed). Against soft targets the team fires by its fire factors like any other
(orders_fire). Vehicle flamethrowers, Molotovs and "flamed before" are not played yet
(decision P193)."""

from __future__ import annotations

import math
from typing import Any

from ....geometry.footprint import in_arc
from ..rules import flame
from .build import speeds
from .state import Element, State

HALF_ARC = 15.0  # degrees either side of the team's front (p21: a 30 degree arc)


def is_flamethrower(state: State, e: Element) -> bool:
    return e.kind == "infantry" and getattr(state.records[e.id], "weapon", None) == "flamethrower"


def why_not(state: State, e: Element, t: Element, xy: tuple[float, float]) -> str | None:
    """Why the flamethrower team `e` cannot flame the AFV `t` at `xy`, or None (p21)."""
    reach = flame.RANGE["man_pack"]
    if math.dist((e.x, e.y), xy) > reach:
        return f"{e.name}: the target is beyond the flamethrower's {reach} cm (p21)"
    if not in_arc((e.x, e.y), e.facing, xy, HALF_ARC):
        return f"{e.name}: the target is outside the flamethrower's 30 degree arc (p21)"
    if e.moved > speeds(state.records[e.id])[0] / 2:
        return f"{e.name} moved over half its move: it cannot use its flamethrower (p21)"
    return None


def attack(state: State, e: Element, t: Element, xy: tuple[float, float]) -> Any:
    """The rules core's situation of this flame attack (P193: light tank = size A or B)."""
    rec = state.records[t.id]
    return flame.FlameAttack(
        "man_pack", math.dist((e.x, e.y), xy), open_topped="top" in getattr(rec, "open", []),
        light_tank=t.size in ("A", "B"),
    )  # fmt: skip
