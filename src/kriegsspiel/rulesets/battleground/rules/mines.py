"""Mines and booby traps (digest §3.16, §3.31): AP mines by inches moved and looking, AT mines
by movement, marked lanes, detectors, and booby-trap clearing."""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import Any

from ....chance import Lookup, Note, Outcome, Roll
from ....data.errors import RuleError
from .checks import Check, gut_check
from .core import SEVERITY, Rules, d20_under
from .effects import Target, cover_mods, effect_roll

FIELDS = ("hasty", "improved", "tricky")
AP_ROWS = ("move5", "move4", "move3", "move2", "prone", "look3", "look2", "look1")
AT_ROWS = ("road", "full", "half", "quarter", "quarter_looking")


@dataclass(frozen=True)
class Mine:
    field: str = "hasty"
    movement: str = "move5"
    anti_tank: bool = False
    detector: bool = False
    marked_lane: bool = False

    def __post_init__(self) -> None:
        rows = AT_ROWS if self.anti_tank else AP_ROWS
        if self.field not in FIELDS:
            raise RuleError(f"minefield {self.field!r}: expected one of {FIELDS}")
        if self.movement not in rows:
            raise RuleError(f"movement {self.movement!r}: expected one of {rows}")


def mine(rules: Rules, m: Mine) -> Generator[Any, Any, Outcome]:
    """Detonation d20 <= the chart (marked lane: only a 1; detector -4); an AP mine hits the
    figure as grenade ring A, an AT mine rolls on the AT mine effects."""
    if m.marked_lane:
        number = 1
        yield Note("marked lane: detonates only on a 1", "§3.16")
    else:
        table = "at_mines" if m.anti_tank else "ap_mines"
        number = yield from rules.get(table, m.movement, m.field)
        yield Lookup(table, f"{m.movement}/{m.field}", number, "§3.16")
        if m.detector:
            det = yield from rules.get("specials", "mine_detector", "value")
            number += det
            yield Note(f"mine detector {det:+d}: {number}", "§3.16")
    roll = yield from d20_under(number, "mine", "§3.16")
    if roll > number:
        return Outcome("no_detonation")
    if m.anti_tank:
        eff = yield Roll("1d20", "AT mine effect", "§3.31")
        return Outcome((yield from rules.band("at_mine_effect", eff, "effect")))
    mods = yield from cover_mods(rules, Target())
    return (yield from effect_roll(rules, "A", tuple(mods), "mine (ring A)"))


@dataclass(frozen=True)
class BoobyTrap:
    morale: int
    mods: tuple[tuple[str, int], ...] = ()


def booby_trap(rules: Rules, b: BoobyTrap) -> Generator[Any, Any, Outcome]:
    """Gut Check to try; then a half Skill Check: pass disarms, a failed roll at or under the
    morale leaves it armed, above the morale sets it off."""
    gut = yield from gut_check(rules, Check(b.morale, b.mods, caused_by_fire=False))
    if gut.name == "fail":
        return Outcome("refuses")
    target = rules.scale(b.morale, SEVERITY["half"])
    mods = sum(v for _, v in b.mods)
    roll = yield from d20_under(target + 0 - mods, "half skill check", "§3.16", (b.morale - mods,))
    if roll <= target - mods:
        return Outcome("disarmed")
    if roll <= b.morale - mods:
        return Outcome("still_armed")
    return Outcome("detonates")
