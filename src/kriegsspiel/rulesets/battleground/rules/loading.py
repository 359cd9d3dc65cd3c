"""Main-gun loading (digest §3.28): base actions by calibre and barrel, crew quality, SP and AT
gun rules, and the T-34 M1941's ready rack. Deterministic: no dice."""

from __future__ import annotations

from ....data.errors import RuleError

BARREL_ORDER = ("S", "STD", "L", "XL")


def load_actions(
    gun_mm: int,
    barrel: str,
    quality: str = "regular",
    separate_ammo: bool = False,
    at_gun: bool = False,
    sp_ready: bool = False,
) -> int:
    """Actions to load one round: 1 up to and including 88L, 2 for 88XL and larger; +1 for
    separate-loading ammunition; Veteran or Elite -1 (never below 1); an SP gun stationary two
    actions, crew exposed and full -1 more; a crewed, set-up AT gun loads one action faster than
    the tank version (minimum 1)."""
    if barrel not in BARREL_ORDER:
        raise RuleError(f"barrel {barrel!r}: expected one of {BARREL_ORDER}")
    big = gun_mm > 88 or (gun_mm == 88 and barrel == "XL")
    actions = 2 if big else 1
    if separate_ammo:
        actions += 1
    if quality in ("veteran", "elite"):
        actions -= 1
    if sp_ready:
        actions -= 1
    if at_gun:
        actions -= 1
    return max(1, actions)


def t34_restock(rounds: int) -> int:
    """T-34 M1941 (§3.28): after the 9 ready rounds, 1 action lifts the floor plate, 1 action per
    3 rounds recovered, 1 action replaces the plate."""
    if rounds < 1:
        raise RuleError("recover at least one round")
    return 1 + -(-rounds // 3) + 1
