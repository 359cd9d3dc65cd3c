"""Flamethrowers against AFVs (p21): 1D6 +2 open-topped or +1 light tank, +1 flamed before,
-1 Molotov: 1-4 nothing, 5 immobilised, 6+ destroyed. Against soft targets a flamethrower uses
its fire/CQC factors (infantry_fire, cqc). Ranges: man-pack 5 cm, Soviet/Axis vehicle 10, UK/US
vehicle 15. A Molotov cocktail (p21) is thrown like an infantry AT weapon (3D6 to-hit with the
p30 variations) and a hit rolls the same table at -1 (`molotov`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ....chance import Lookup, Modifier, Note, Outcome, Roll, total
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


@dataclass(frozen=True)
class Throw:
    """A Molotov thrown: `shot` the at_fire.Shot of its to-hit, `attack` the flame roll after."""

    shot: Any
    attack: FlameAttack


def molotov(rules: Rules, m: Throw):
    """A Molotov cocktail at an AFV or softskin (p21): the infantry AT to-hit procedure (p19-20,
    3D6 against the weapon's number with the p30 variations); a miss does nothing, a hit rolls
    the flame table with -1."""
    from .at_fire import P_TOHIT, to_hit_modifiers

    shot, f = m.shot, m.attack
    w = shot.weapon
    band, edge, cite = rules.band(w.bands, shot.range, len(w.to_hit), w.name)
    yield cite
    need = w.need(band)
    yield Lookup("to-hit number", f"band {band + 1} (to {edge} cm)", need, "p20")
    mods = to_hit_modifiers(rules, shot)
    yield from mods
    adjusted = need + total(mods)
    roll = yield Roll("3d6", "to-hit", P_TOHIT, cuts=(adjusted,))
    if roll > adjusted:
        yield Note(f"to-hit 3D6 {roll} > {adjusted}: the Molotov misses, no effect", "p21")
        return Outcome("miss")
    yield Note(f"to-hit 3D6 {roll} <= {adjusted}: the Molotov hits", P_TOHIT)
    return (yield from flame(rules, f))


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
