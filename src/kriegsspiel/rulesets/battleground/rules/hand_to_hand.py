"""Hand-to-hand (digest §3.13): both roll d20 + modifiers; the lower lives and the higher is
Heavy Wounded; a tie locks both until their next card."""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import Any

from ....chance import Modifier, Note, Outcome, Roll
from ....data.errors import RuleError
from .core import Rules

OUTCOMES = ("attacker_wins", "defender_wins", "locked")
MODS = (
    "over_obstacle",
    "prone",
    "crew_weapon",
    "light_wound",
    "green",
    "elite",
    "surprise",
    "pistol",
    "higher_morale",
)


@dataclass(frozen=True)
class Fighter:
    mods: tuple[str, ...] = ()
    leadership: int = 0  # leader: -1 per point of his modifier
    extra_attackers: int = 0  # attackers only (decision BG-HTHMULTI: one roll for the group)


def _mods(rules: Rules, f: Fighter, who: str) -> Generator[Any, Any, int]:
    total = 0
    for n in f.mods:
        if n not in MODS:
            raise RuleError(f"hand-to-hand modifier {n!r}: expected one of {MODS}")
        m = yield from rules.drm("hand_to_hand_mods", n)
        total += m.value
    if f.leadership:
        yield Modifier(f"{who} leader", f.leadership, "§3.13")
        total += f.leadership
    if f.extra_attackers:
        per = yield from rules.get("hand_to_hand_mods", "extra_attacker", "drm")
        yield Modifier(f"{f.extra_attackers} extra attackers", per * f.extra_attackers, "§3.13")
        total += per * f.extra_attackers
    return total


def hand_to_hand(
    rules: Rules, attacker: Fighter, defender: Fighter, obstacle: bool = False
) -> Generator[Any, Any, Outcome]:
    """`obstacle`: the fight is across an obstacle; its +2 goes to the side the option names
    (decision BG-HTH)."""
    a_mod = yield from _mods(rules, attacker, "attacker")
    d_mod = yield from _mods(rules, defender, "defender")
    if obstacle:
        m = yield from rules.drm("hand_to_hand_mods", "over_obstacle")
        if rules.opts.hth_obstacle == "attacker":
            a_mod += m.value
        else:
            d_mod += m.value
        yield Note(f"over obstacle: +{m.value} to the {rules.opts.hth_obstacle}", "§3.13")
    a = yield Roll("1d20", "attacker", "§3.13")
    d = yield Roll("1d20", "defender", "§3.13")
    a_total, d_total = a + a_mod, d + d_mod
    yield Note(f"attacker {a_total} vs defender {d_total}: lower lives", "§3.13")
    if a_total == d_total:
        return Outcome("locked")
    return Outcome("attacker_wins" if a_total < d_total else "defender_wins")
