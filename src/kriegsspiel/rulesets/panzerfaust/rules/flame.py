"""Flamethrowers against AFVs (p21): 1D6 +2 open-topped or +1 light tank, +1 flamed before,
-1 Molotov: 1-4 nothing, 5 immobilised, 6+ destroyed. Against soft targets a flamethrower uses
its fire/CQC factors (infantry_fire, cqc). Ranges: man-pack 5 cm, Soviet/Axis vehicle 10, UK/US
vehicle 15."""

from __future__ import annotations

from dataclasses import dataclass

from ....chance import Modifier, Note, Outcome, Roll, total
from ....data.errors import RuleError
from .tables import Rules

RANGE = {"man_pack": 5, "vehicle_soviet_axis": 10, "vehicle_uk_us": 15, "molotov": 5}


@dataclass(frozen=True)
class FlameAttack:
    weapon: str = "man_pack"
    range: float = 5.0
    open_topped: bool = False
    light_tank: bool = False
    flamed_before: bool = False


def flame(rules: Rules, f: FlameAttack):
    if f.weapon not in RANGE:
        raise RuleError(f"flame weapon {f.weapon!r}: expected one of {', '.join(RANGE)}")
    if f.range > RANGE[f.weapon]:
        raise RuleError(f"{f.weapon}: {f.range:g} cm is beyond its {RANGE[f.weapon]} cm (p21)")
    mods = []
    if f.open_topped:
        mods.append(Modifier("open-topped AFV", 2, "p21"))
    elif f.light_tank:
        mods.append(Modifier("light tank", 1, "p21"))
    if f.flamed_before:
        mods.append(Modifier("flamed before", 1, "p21"))
    if f.weapon == "molotov":
        mods.append(Modifier("Molotov", -1, "p21"))
    yield from mods
    face = yield Roll("1d6", "flame", "p21")
    value = face + total(mods)
    result = "destroyed" if value >= 6 else "immobilised" if value == 5 else "no_effect"
    yield Note(f"{face}{total(mods):+d} = {value}: {result}", "p21")
    return Outcome(result)


def canister(rules: Rules, firer_moving: bool = False, cover: str = "none"):
    """Canister (p31): per base or softskin 1D6 - 2 firer moving - 1 prone/soft - 3 hard >= 3
    -> destroyed (a softskin immobilised)."""
    mods = []
    if firer_moving:
        mods.append(Modifier("firer moving", -2, "p31"))
    if cover in ("prone", "soft"):
        mods.append(Modifier(f"target {cover}", -1, "p31"))
    elif cover == "hard":
        mods.append(Modifier("hard cover", -3, "p31"))
    yield from mods
    face = yield Roll("1d6", "canister", "p31", at_most=2 - total(mods))
    return Outcome("destroyed" if face + total(mods) >= 3 else "survives")
