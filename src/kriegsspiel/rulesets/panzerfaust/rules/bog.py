"""Bogging (p25): each move in mud, sand, ford or marsh roll 1D6 (+1 size D, +1 marsh, -1
amphibious, -1 fordable river); at least the bogging number -> stuck. Wide-tracked chassis
(T-34, KV, IS, Panther, Tiger) that bog on 7+ roll again and escape on 1-3. The bogging
numbers are lost (placeholder P86)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ....chance import Cite, Modifier, Note, Outcome, Roll, total
from ....data.errors import RuleError
from . import placeholders as ph
from .tables import Rules

Drive = Literal[
    "fully_tracked", "semi_tracked", "wheeled_6_8", "wheeled_4x4", "wheeled_4x2", "motorcycle"
]
DRIVES = tuple(ph.BOGGING)
WIDE_TRACKS = ("t-34", "t34", "kv", "is-", "is ", "panther", "tiger", "su-", "isu")
SOFTSKIN_DRIVE = {
    "4x2": "wheeled_4x2",
    "3x2": "wheeled_4x2",
    "4x4": "wheeled_4x4",
    "6x4": "wheeled_6_8",
    "6x6": "wheeled_6_8",
    "8x8": "wheeled_6_8",
    "ht": "semi_tracked",
    "trk": "fully_tracked",
}


@dataclass(frozen=True)
class Crossing:
    drive: str = "fully_tracked"
    size: str = "C"
    marsh: bool = False
    amphibious: bool = False
    fordable_river: bool = False
    wide_tracks: bool = False


def bog(rules: Rules, c: Crossing):
    if c.drive not in DRIVES:
        raise RuleError(f"drive {c.drive!r}: expected one of {', '.join(DRIVES)}")
    value, labels = rules.lost("bogging-number", c.drive, "number", ph.BOGGING[c.drive])
    number = int(value)
    yield Cite(labels)
    lost = " (lost: placeholder P86)" if labels else ""
    yield Note(f"bogging number {number} for {c.drive}{lost}", "p25")
    mods = []
    if c.size == "D":
        mods.append(Modifier("size D", 1, "p25"))
    if c.marsh:
        mods.append(Modifier("marsh", 1, "p25"))
    if c.amphibious:
        mods.append(Modifier("amphibious", -1, "p25"))
    if c.fordable_river:
        mods.append(Modifier("fordable river", -1, "p25"))
    yield from mods
    # the sequel depends only on: below the number / bogged under 7 / 7+ (wide tracks)
    cuts = tuple(sorted({number - 1 - total(mods), 6 - total(mods)}))
    roll = yield Roll("1d6", "bogging", "p25", cuts=cuts if c.wide_tracks else cuts[:1])
    value = roll + total(mods)
    if value < number:
        yield Note(f"{roll}{total(mods):+d} = {value} < {number}: not bogged", "p25")
        return Outcome("moves_on")
    if c.wide_tracks and value >= 7:
        again = yield Roll("1d6", "wide tracks", "p25", at_most=3)
        if again <= 3:
            yield Note(f"wide tracks: second roll {again} (1-3): not bogged", "p25")
            return Outcome("moves_on")
    yield Note(f"{value} >= {number}: bogged; tow out after 2 turns of rigging", "p25")
    return Outcome("bogged")


def speed_factor(rules: Rules, terrain: str, drive: str) -> float | None:
    """Cross-country speed factor of a terrain row for a drive (p25); None = impassable."""
    value, _ = rules.cell("vehicle-movement-restrictions", terrain, drive)
    return None if value == "-" else float(value)


def cc_speed(rules: Rules, speed_cm: int, drive: str, *terrains: str) -> int | None:
    """C/C speed after the cumulative terrain factors, rounded to the nearest cm (p25; Q&A 1:
    10 x 1/3 -> 3; example: a 4x4 of 16 cm in thick woods 4 cm, and towing 2 cm)."""
    from fractions import Fraction

    v = Fraction(speed_cm)
    for t in terrains:
        f = speed_factor(rules, t, drive)
        if f is None:
            return None
        v *= Fraction(f).limit_denominator(12)
    return int(v + Fraction(1, 2))
