"""AA fire at aircraft (p43): 2D6 <= the weapon's number (+1 per extra barrel, +1 against a
dive-bomber); a hit rolls 1D6 (-2 LMG/MMG, -1 HMG, +1 37/40 mm, -2 armoured aircraft): 5+
destroyed, 2-4 damaged, 1 or less nothing. The 20 mm and 37-40 mm rows are lost (P88)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ....chance import Cite, Lookup, Modifier, Note, Outcome, Roll, total
from ....data.errors import RuleError
from . import placeholders as ph
from .tables import Rules

P_AA = "p43 AA/Flak table"
WEAPONS = ("aa_lmg_mmg", "aa_hmg", "20mm_aa", "37_40mm_aa")
DAMAGE_MOD = {"aa_lmg_mmg": -2, "aa_hmg": -1, "20mm_aa": 0, "37_40mm_aa": 1}
OUTCOMES = ("miss", "no_effect", "damaged", "destroyed")


@dataclass(frozen=True)
class AAShot:
    weapon: str = "aa_hmg"
    altitude: Literal["low", "medium"] = "low"
    barrels: int = 1
    dive_bomber: bool = False
    armoured: bool = False
    range: float = 0.0


def aa_fire(rules: Rules, a: AAShot):
    if a.weapon not in WEAPONS:
        raise RuleError(f"AA weapon {a.weapon!r}: expected one of {', '.join(WEAPONS)}")
    if a.altitude == "medium" and a.weapon in ("aa_lmg_mmg", "aa_hmg"):
        raise RuleError(f"{a.weapon} cannot reach aircraft at medium altitude (p43: '-')")
    col = "hit_low_2d6" if a.altitude == "low" else "hit_medium_2d6"
    fb = ph.AA.get(a.weapon)
    need, labels = rules.cell(
        "aa-flak-table", a.weapon, col, None if fb is None else fb[0 if a.altitude == "low" else 1]
    )
    reach, l2 = rules.cell("aa-flak-table", a.weapon, "range_cm", None if fb is None else fb[2])
    yield Cite(labels + l2)
    if a.range > float(reach):
        raise RuleError(f"{a.weapon}: aircraft at {a.range:g} cm is beyond its {reach} cm (p43)")
    yield Lookup("AA/Flak", f"{a.weapon}, {a.altitude}", need, P_AA)
    mods = []
    if a.barrels > 1:
        mods.append(Modifier(f"{a.barrels - 1} extra barrel(s)", a.barrels - 1, P_AA))
    if a.dive_bomber:
        mods.append(Modifier("against a dive-bomber", 1, P_AA))
    yield from mods
    adjusted = int(need) + total(mods)
    roll = yield Roll("2d6", "AA fire", P_AA, at_most=adjusted)
    if roll > adjusted:
        yield Note(f"2D6 {roll} > {adjusted}: miss", P_AA)
        return Outcome("miss")
    dmods = (
        [Modifier(f"{a.weapon} damage", DAMAGE_MOD[a.weapon], P_AA)] if DAMAGE_MOD[a.weapon] else []
    )
    if a.armoured:
        dmods.append(Modifier("armoured aircraft", -2, P_AA))
    yield from dmods
    face = yield Roll("1d6", "aircraft damage", "p43")
    value = face + total(dmods)
    result = "destroyed" if value >= 5 else "damaged" if value >= 2 else "no_effect"
    yield Lookup("aircraft damage", value, result, "p43")
    return Outcome(result)


AIRCRAFT_DAMAGE = {1: "attack then go home", 2: "abort the attack", 3: "destroyed"}
