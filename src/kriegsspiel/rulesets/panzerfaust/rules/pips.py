"""Command radius and movement pips (p7): 1D6 pips per company HQ with the class re-roll
(veteran re-rolls 1-2, conscript 5-6), the cost of orders and their surcharges."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from ....chance import Note, Outcome, Roll
from ....data.errors import RuleError
from .tables import Rules

REROLL = {"veteran": frozenset({1, 2}), "regular": frozenset(), "conscript": frozenset({5, 6})}


def movement_pips(rules: Rules, troop_class: str = "regular"):
    """The company's pips this turn."""
    if troop_class not in REROLL:
        raise RuleError(f"troop class {troop_class!r}: expected veteran, regular or conscript")
    pips = yield Roll("1d6", f"movement pips ({troop_class})", "p7", reroll=REROLL[troop_class])
    yield Note(f"{pips} pip(s) for the company this turn", "p7")
    return Outcome(f"pips_{pips}")


@dataclass(frozen=True)
class Order:
    """One order: a single element or a group (a whole platoon or company) costs 1 pip (p7)."""

    retreating: bool = False
    out_of_radius: bool = False  # or own/parent HQ destroyed
    night_or_rain: bool = False
    compulsory: bool = False  # Retreat or Shaken withdrawal moves


def order_cost(rules: Rules, order: Order) -> int:
    if order.compulsory:
        return 0
    cost = 1
    if order.retreating and rules.opts.retreat_pip == "plus_one":
        cost += 1
    cost += 1 if order.out_of_radius else 0
    cost += 1 if order.night_or_rain else 0
    return cost


def orders_cost(rules: Rules, orders: list[Order]) -> int:
    """Pips for a turn's orders (p7 example: one AFV alone plus its platoon as a group = 2)."""
    return sum(order_cost(rules, o) for o in orders)


def company_finished(pips: int, spent: int, last_on_one_element: bool) -> bool:
    """Spending the company's last pip on one element ends its movement (p7 example)."""
    return spent >= pips and last_on_one_element


def command_radius(
    rules: Rules, radio: bool, nation: str, in_sight: bool = False, halved: bool = False
) -> int:
    """Command radius in cm (p7): 20 without radio, 30 with mutual DLOS; radio 100 for
    German/Allied, 60 for the rest; halved for infantry squads and closed-down AFVs."""
    if radio:
        allied = nation in ("germany", "britain", "usa_europe", "usa_pacific")
        key = "radio_german_allied" if allied else "radio_soviet_axis_others"
    else:
        key = "no_radio_in_sight" if in_sight else "no_radio_out_of_sight"
    value, _ = rules.cell("command-radius", key, "radius_cm")
    return int(value) // 2 if halved and radio else int(value)


def in_command(
    rules: Rules, units: Mapping[str, tuple[float, float]], hq: str, radius: float
) -> set[str]:
    """Units in command (p7): measured from the HQ, or from a subordinate already in radius
    (chains), so the set grows until no unit is within `radius` of one inside."""
    if hq not in units:
        raise RuleError(f"HQ {hq!r} is not among the units")
    inside, frontier = {hq}, [hq]
    while frontier:
        here = units[frontier.pop()]
        for name, at in units.items():
            if name not in inside and math.dist(here, at) <= radius:
                inside.add(name)
                frontier.append(name)
    return inside


def platoon_in_command(platoon_hq_in: bool, members: set[str], inside: set[str]) -> set[str]:
    """A platoon HQ out of radius puts its whole platoon out (p7)."""
    return members & inside if platoon_hq_in else set()
