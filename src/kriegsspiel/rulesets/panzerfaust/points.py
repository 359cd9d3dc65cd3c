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
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from enum import StrEnum
from fractions import Fraction

from ...data.catalogue import Catalogue
from .models import NationRecord, TroopRatingRule
from .pv_model import equipment_index, placeholder_pv


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


@dataclass(frozen=True)
class Price:
    """An item's base PV and where it comes from: `seed` (the chart or the equipment list),
    `placeholder` (pv_model, decision P56) or None when nothing prices it."""

    ref: str
    pv: int | None
    provenance: str | None
    basis: str | None = None


def base_price(cat: Catalogue, ref: str) -> Price:
    """The base PV of a `kind:id` item (p44: every army-list PV is a base value)."""
    kind = ref.partition(":")[0]
    rec = cat.resolve(ref)
    basis = getattr(rec, "pv_basis", None)
    pv = getattr(rec, "pv", None)
    if pv is not None:
        prov = rec.field_provenance.get("pv")
        return Price(ref, pv, prov.provenance.value if prov else rec.provenance.value, basis)
    for entry in equipment_index(cat).get(ref, []):
        if entry.pv is not None:
            return Price(ref, entry.pv, "seed-inferred", entry.pv_basis or basis)
    modelled = placeholder_pv(kind, rec, cat)
    if modelled is not None:
        return Price(ref, modelled, "placeholder", basis)
    return Price(ref, None, None, basis)
