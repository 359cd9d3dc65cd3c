"""Vehicles beyond AT fire (pp. 27-28, 40): motorised gun set-up (p27), tank riders (p28), landing craft and
amphibians afloat."""

from __future__ import annotations

from ....data.errors import RuleError


def motorised_setup_moves(calibre_mm: float, stabilisers: bool = False) -> int:
    """Moves to set up a motorised gun to fire (p27): 0 up to 77 mm, 1 for 80-110 mm, 2 above
    110 mm, +1 with stabilisers to lower."""
    moves = 0 if calibre_mm <= 77 else 1 if calibre_mm <= 110 else 2
    return moves + (1 if stabilisers else 0)


def riders_allowed(size: str, open_turretless: bool, teams: int) -> None:
    """Tank riders (p28): only on size C/D AFVs that are not open turretless SPs, at most four
    teams. Raises with the reason otherwise."""
    if size not in ("C", "D"):
        raise RuleError("tank riders ride only size C or D AFVs (p28)")
    if open_turretless:
        raise RuleError("no tank riders on an open, turretless SP gun (p28)")
    if not 1 <= teams <= 4:
        raise RuleError("one to four teams may ride one AFV (p28)")


RIDER_COVER = "soft"  # p16/p32: tank riders are in soft/partial cover against fire


def riders_must_dismount(shot_at: bool, tank_hit_by_at: bool) -> bool:
    """p28: riders dismount next turn if they were shot at or their tank was hit by AT fire."""
    return shot_at or tank_hit_by_at


def landing_craft_hits_needed(capacity_tanks: int = 0, capacity_figures: int = 0) -> int:
    """Results a landing craft takes before one counts (p40): one more per tank or per 20
    figures of capacity (example: an LCT for 5 tanks sinks on the 6th Destroyed)."""
    if capacity_tanks < 0 or capacity_figures < 0:
        raise RuleError("capacity cannot be negative")
    return 1 + capacity_tanks + capacity_figures // 20


AFLOAT = {"stunned_1": "no_move", "stunned_2": "no_move", "immobilised": "adrift"}


def afloat_effect(result: str, softskin_or_dd: bool = False) -> str:
    """An amphibian hit afloat (p40): softskins and DD tanks sink on any hit; an armoured one
    uses the AT fire result: stunned -> no move, immobilised -> adrift, destroyed -> sinks.
    Amphibians afloat count as hull-down for AT fire (landing craft do not)."""
    if softskin_or_dd or result == "destroyed":
        return "sinks"
    return AFLOAT.get(result, result)
