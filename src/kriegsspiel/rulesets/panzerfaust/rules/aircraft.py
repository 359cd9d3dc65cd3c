"""Aircraft attacks (pp. 42-44): bombs 3D6 <= 8 with the p43 variations, rockets 8 (4 rockets)
or 9 (8), aircraft guns (table lost but the MMG's 8). Air-to-air combat is named in phase C but
the book supplies no rules (p43): not implemented."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ....chance import Modifier, Note, Outcome, Roll, total
from ....data.errors import NotImplementedRule, RuleError
from .tables import Rules

P_AIR = "p43 aircraft attacks"


@dataclass(frozen=True)
class AirAttack:
    weapon: Literal["bombs", "rockets_4", "rockets_8", "mmg"] = "bombs"
    dive_bomber: bool = False
    medium_altitude: bool = False
    cover: Literal["none", "hard", "protected"] = "none"  # protected: AFV/pillbox/dug in
    partial: bool = False
    extra_guns: int = 0


def air_attack(rules: Rules, a: AirAttack):
    base = {"bombs": 8, "rockets_4": 8, "rockets_8": 9, "mmg": 8}[a.weapon]
    mods = []
    if a.weapon == "bombs":
        if a.dive_bomber:
            mods.append(Modifier("dive-bomber", 1, P_AIR))
        if a.medium_altitude:
            mods.append(Modifier("medium altitude", -1, P_AIR))
    elif a.medium_altitude:
        raise RuleError("only bombs may be dropped from medium altitude (p42)")
    if a.cover == "hard":
        mods.append(Modifier("hard cover", -1, P_AIR))
    elif a.cover == "protected":
        mods.append(Modifier("AFV, pillbox, bunker, dugout or dug in", -2, P_AIR))
    if a.partial:
        mods.append(Modifier("part of the turn in the zone", -1, P_AIR))
    if a.weapon == "mmg" and a.extra_guns:
        mods.append(Modifier(f"{a.extra_guns} extra gun(s) of the calibre", a.extra_guns, P_AIR))
    yield from mods
    dice = "3d6" if a.weapon != "mmg" or rules.opts.aircraft_gun_dice == "3d6" else "2d6"
    need = base + total(mods)
    roll = yield Roll(dice, a.weapon, P_AIR, at_most=need)
    yield Note(f"{dice} {roll} {'<=' if roll <= need else '>'} {need}", P_AIR)
    return Outcome("hit" if roll <= need else "missed")


def aircraft_pv(base: int, *extras: int) -> int:
    """Aircraft PV: base plus armour/weapons, never scaled by class (p43; Ju 87D 80+10+30+30
    = 150)."""
    return base + sum(extras)


def air_to_air(*_args, **_kwargs):
    raise NotImplementedRule("air-to-air combat", "p6 phase C, p43") from None
