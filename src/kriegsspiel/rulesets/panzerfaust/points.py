"""Point values under the compulsory troop class / morale multipliers (seed 000 pp. 22-23, 44).

Army-list PVs are base values (p44). A force's units are bought at base PV and the sum is scaled by
the nation's multiplier for that unit group (p22: e.g. 188 x 0.75 = 141 for a Soviet
Reliable-Conscript T-34/76 m1940). Offboard artillery has its own row; aircraft are never scaled
(p43).

The rules print no rounding rule (pp. 22-23 and 44 were searched; the worked example divides
exactly). We keep exact fractions and round only where the option says, half up by default at the
group total. See docs/decisions/panzerfaust.md, "PV rounding".
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import ROUND_HALF_UP, Decimal
from enum import StrEnum
from fractions import Fraction

from .models import NationRecord, TroopRatingRule


class Rounding(StrEnum):
    TOTAL_HALF_UP = "total-half-up"  # default: scale the summed base PV, round once
    ITEM_HALF_UP = "item-half-up"  # scale and round each item, then add
    EXACT = "exact"  # no rounding; a Fraction is returned


def multiplier(rule: TroopRatingRule, unit_class: str | None = None) -> Fraction:
    """The rule's factor as an exact fraction (0.75 -> 3/4). `unit_class` picks from
    `multiplier_by_class` for "as unit class" offboard rows."""
    value = rule.multiplier
    if value is None and rule.multiplier_by_class and unit_class:
        value = rule.multiplier_by_class.get(unit_class)
    if value is None:
        raise ValueError(f"no printed multiplier for {rule.selector!r} ({unit_class or 'any'})")
    return Fraction(Decimal(str(value)))


def rating_rule(nation: NationRecord, selector: str = "all_other") -> TroopRatingRule:
    for rule in nation.rating_rules:
        if rule.selector == selector:
            return rule
    raise LookupError(f"{nation.id} has no rating rule {selector!r}")


def _half_up(x: Fraction) -> int:
    return int((Decimal(x.numerator) / Decimal(x.denominator)).to_integral_value(ROUND_HALF_UP))


def scaled_pv(
    base_pvs: Iterable[int], factor: Fraction, rounding: Rounding = Rounding.TOTAL_HALF_UP
) -> int | Fraction:
    """Cost of items with these base PVs at `factor` (p22)."""
    pvs = list(base_pvs)
    if rounding is Rounding.ITEM_HALF_UP:
        return sum(_half_up(pv * factor) for pv in pvs)
    total = sum(pvs) * factor
    return total if rounding is Rounding.EXACT else _half_up(total)
