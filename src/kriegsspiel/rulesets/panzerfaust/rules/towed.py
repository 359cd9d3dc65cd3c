"""Towed guns (pp. 33-35): crews, (un)limbering, manhandling and turning by size; limbered-fire
AA guns (example: 88 FlaK 1 move to fire limbered, 2 more to unlimber fully)."""

from __future__ import annotations

from fractions import Fraction

from ....data.errors import RuleError
from .tables import Rules


def limber_moves(rules: Rules, size: str, crew_lost_pct: int = 0) -> Fraction:
    """Moves to limber or unlimber (p33), +1 per 25 % of the crew lost; >50 % lost: no fire."""
    value, _ = rules.cell("gun-size-table", size, "limber_moves")
    return Fraction(str(value)) + crew_lost_pct // 25


def manhandle_cm(rules: Rules, size: str, terrain: str = "open") -> float:
    if terrain in ("snow", "mud", "woods", "rubble", "thick_treeline", "brush", "walls", "hedges"):
        raise RuleError(f"guns cannot be manhandled through {terrain} (p33)")
    _, row = rules.row("gun-size-table", size)
    value = row.get("manhandle_cm_per_turn")
    if value is None:  # printed '---' (p33), not a lost value
        raise RuleError(f"a size {size} gun cannot be manhandled (p33)")
    return float(value)


def limbered_fire_then_unlimber(rules: Rules, size: str) -> tuple[int, Fraction]:
    """(set-up moves for limbered fire, moves left to unlimber fully) for AA guns (p34)."""
    return 1, limber_moves(rules, size) - 1
