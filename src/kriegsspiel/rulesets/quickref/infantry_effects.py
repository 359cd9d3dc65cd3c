"""What Effects-table results do to an infantry unit (sheet L2 Sp/Rt/H/KIA, L7 MG attachment)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from ...chance import Note
from .morale import morale_test
from .tables import Rules

P = "L2 Sp/Rt/H/KIA"


@dataclass(frozen=True)
class InfantryState:
    """The parts of an infantry unit that results change."""

    stands: int = 2
    damaged: bool = False
    suppressed: bool = False
    attached_mg: str | None = None
    independent_mg: bool = False
    removed: bool = False
    retreat: bool = False

    @property
    def name(self) -> str:
        if self.removed:
            return "removed"
        parts = [
            p
            for p, on in (
                ("damaged", self.damaged),
                ("retreat", self.retreat),
                ("suppressed", self.suppressed),
            )
            if on
        ]
        return "+".join(parts) or "unharmed"


def apply_result(rules: Rules, unit: InfantryState, symbol: str, *, morale_after_hit: bool = True):
    """Apply one table symbol to a unit; may roll morale. Returns the new state."""
    if unit.removed or symbol == "-":
        return unit
    if symbol == "KIA":
        yield Note("KIA: unit removed", P)
        return replace(unit, removed=True)
    if symbol == "Sp":
        yield Note("suppressed until the start of next turn (SA 1, may only withdraw)", P)
        return replace(unit, suppressed=True)
    if symbol == "Rt":
        if rules.opts.rt_morale_option:
            stays = yield from morale_test(rules, "stay in place instead of retreating")
            if stays:
                yield Note("passed: stays in place, takes a hit instead, remains suppressed", P)
                hit = yield from apply_result(
                    rules, replace(unit, suppressed=True), "H", morale_after_hit=False
                )
                return hit
        yield Note("retreats at least half a move to cover, suppressed", P)
        return replace(unit, retreat=True, suppressed=True)
    # H
    if unit.independent_mg:
        yield Note("independent MG team hit: removed", "L7 Machine Gun Attachment")
        return replace(unit, removed=True)
    if unit.attached_mg:
        yield Note(
            f"attached {unit.attached_mg.upper()} takes the hit instead of the squad",
            "L7 Machine Gun Attachment",
        )
        unit = replace(unit, attached_mg=None, stands=unit.stands - 1)
    elif unit.damaged or unit.stands <= 1:
        yield Note("hit on a damaged or single-stand unit: removed (decision Q10)", P)
        return replace(unit, removed=True)
    else:
        yield Note("hit: marked damaged (SA 1, 3/4 move)", P)
        unit = replace(unit, damaged=True, stands=unit.stands - 1)
    if morale_after_hit:
        passed = yield from morale_test(rules, "after a hit")
        if not passed:
            yield Note("failed: retreats as for Rt (decision Q11)", P)
            unit = replace(unit, retreat=True, suppressed=True)
    return unit
