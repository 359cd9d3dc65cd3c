"""Fortifications, obstacles, demolition and bridges (pp. 39-40): point values of fieldworks,
breaching times, the bocage breach roll, demolition charges as direct area fire, bridge damage
points and when a bridge closes."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from ....chance import Lookup, Note, Outcome, Roll
from ....data.errors import RuleError
from .tables import Rules

FORTS = ("field_constructed_pillbox", "concrete_pillbox", "entrenchment", "dugout")


def fortification_pv(rules: Rules, kind: str, occupants_pv: int) -> int:
    """A fieldwork costs a multiple of its occupants' PV (p39; examples: a concrete pillbox for
    a 60 PV gun 90, a field one 60; an entrenchment for a 200 PV platoon 100)."""
    if kind not in FORTS:
        raise RuleError(f"fortification {kind!r}: expected one of {', '.join(FORTS)}")
    factor, _ = rules.cell("fortification-pv-multipliers", kind, "multiplier_of_occupants_pv")
    exact = Fraction(2, 3) if kind == "dugout" else Fraction(str(factor))  # printed 2/3
    return int(exact * occupants_pv + Fraction(1, 2))


DIG_IN_TURNS = 3  # p39 (errata 4, p111): one team digs itself in over three turns
NO_DIGGING = {  # ground a team cannot dig into (p39), by the scenario's terrain kind
    "road": "on a road",
    "building": "in a building",
    "ruins": "in rubble",
}


def dig_in_turns(kind: str, ground: tuple[str, ...] = ()) -> int:
    """Turns a team needs to dig itself in during a game (p39, errata 4 p111: 3). Only infantry
    and infantry heavy weapons teams dig during a game (AFVs and guns are dug in only as
    defences bought before it); never on roads, in buildings, in rubble or on concrete."""
    if kind != "infantry":
        raise RuleError(
            "only infantry and heavy weapons teams dig in during a game; AFVs and guns are "
            "dug in only as defences bought before it (p39)"
        )
    bad = [NO_DIGGING[g] for g in ground if g in NO_DIGGING]
    if bad:
        raise RuleError(f"a team cannot dig in {bad[0]} (p39: not on roads, buildings, rubble)")
    return DIG_IN_TURNS


HEDGEHOG_MOVES = {1: 12, 2: 8, 3: 4}  # p39: fully tracked AFVs not under fire


def hedgehog_moves(afvs: int) -> int:
    """Moves for 1-3 fully tracked AFVs to clear a 5 cm of hedgehogs (p39: 12 / 8 / 4)."""
    if afvs not in HEDGEHOG_MOVES:
        raise RuleError("one to three fully tracked AFVs clear hedgehogs (p39)")
    return HEDGEHOG_MOVES[afvs]


def ditch_fill_moves(bulldozers: int) -> int:
    """Moves to fill a 5x5 cm square of AT ditch: 18 for one bulldozer, at most three working
    together (p39: three take 6)."""
    if not 1 <= bulldozers <= 3:
        raise RuleError("one to three bulldozers can work on one square of ditch (p39)")
    return 18 // bulldozers


def bocage_breach(rules: Rules, culin_cutter: bool = False):
    """A fully tracked size C/D AFV tries to force bocage: 1D6 4-6 breaches, taking the whole
    move (p26); a Culin hedge cutter goes through in half a move, no roll."""
    if culin_cutter:
        yield Note("Culin cutter: through in half a move", "p26")
        return Outcome("breached")
    face = yield Roll("1d6", "bocage", "p26", at_most=3)
    yield Lookup("bocage breach", face, "breached" if face >= 4 else "held", "p26")
    return Outcome("breached" if face >= 4 else "held")


def wire_crossing(rules: Rules, unit: Literal["tracked_cd", "tracked_b", "semi", "wheeled"]):
    """Vehicles crossing barbed wire (p26): fully tracked C/D free; fully tracked B or
    half-tracks immobilised on 1D6 6; wheeled vehicles immobilised."""
    if unit == "tracked_cd":
        return Outcome("crossed")
    if unit == "wheeled":
        yield Note("wheeled vehicles are immobilised by wire", "p26")
        return Outcome("immobilised")
    face = yield Roll("1d6", "wire", "p26", at_most=5)
    return Outcome("immobilised" if face == 6 else "crossed")


CHARGES_TO_DROP = {"stone": 12, "steel": 9, "tank_laid": 3, "wooden": 2}
BRIDGE_DP = {"stone": 30, "steel": 30, "tank_laid": 15, "wooden": 5}
DEMOLITION_BASE = 11  # p40: direct area fire, base 11 on 3D6, as 160 mm+ HE, BZR 3 cm


def charges_effect(bridge: str, charges: int) -> str:
    """p40: the listed number of charges drops the bridge; half of it closes it to vehicles."""
    need = CHARGES_TO_DROP[bridge]
    if charges >= need:
        return "impassable"
    return "closed_to_vehicles" if 2 * charges >= need else "open"


def demolition(rules: Rules, plunger: bool = False):
    """A demolition charge going off (p40): a plunger misfires on 1D6 6; the blast is direct
    area fire with base 11 against each target within 3 cm (resolve it with `area_fire`)."""
    if plunger:
        face = yield Roll("1d6", "plunger", "p40", at_most=5)
        if face == 6:
            yield Note("the plunger misfires", "p40")
            return Outcome("misfire")
    yield Note(f"the charge fires: area fire base {DEMOLITION_BASE}, BZR 3 cm, as 160 mm+", "p40")
    return Outcome("fired")


def shell_damage(calibre_mm: float, mortar: bool = False) -> int:
    """Damage points a hit removes from a bridge (p40): 60-90 mm 2, 140-155 mm 5, 160 mm+ 10;
    the 95-135 mm band was lost (decision P96: 3, between its neighbours); mortars none."""
    if mortar:
        return 0
    if calibre_mm < 60:
        raise RuleError("shells under 60 mm do not damage bridges (p40 starts at 60 mm)")
    bands = ((90, 2), (135, 3), (155, 5))
    return next((dp for mm, dp in bands if calibre_mm <= mm), 10)


@dataclass(frozen=True)
class Bridge:
    kind: Literal["stone", "steel", "tank_laid", "wooden"]
    damage: int = 0

    def state(self) -> str:
        """p40: at half its damage points or less it is closed to vehicles (example: an AFV-laid
        bridge with 7 of 15 left); at 0 or less nothing crosses."""
        left = BRIDGE_DP[self.kind] - self.damage
        if left <= 0:
            return "impassable"
        return "closed_to_vehicles" if 2 * left <= BRIDGE_DP[self.kind] else "open"
