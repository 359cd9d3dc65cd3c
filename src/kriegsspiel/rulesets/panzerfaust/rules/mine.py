"""Minefields (p38): each base or vehicle per 5x5 cm square trips on 2D6 <= the density number
(sparse 4 ... dense 9); AP mines kill the infantry base that trips them and wreck softskins; AT
mines cannot be tripped by infantry, destroy softskins (passengers die on 5+) and damage AFVs
on 1D6 (-3 for an AP mine) by weight class."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ....chance import Cite, Lookup, Modifier, Note, Outcome, Roll
from ....data.errors import RuleError
from . import placeholders as ph
from .tables import Rules

P_MINE = "p38 minefields"
DENSITIES = ("sparse", "light", "medium", "thick", "dense")


@dataclass(frozen=True)
class Crossing:
    density: str = "medium"
    mine: Literal["ap", "at"] = "at"
    target: Literal["infantry", "softskin", "light_afv", "medium_afv", "heavy_afv"] = "medium_afv"
    in_burst: bool = False  # an AP mine tripped by another base within 3 cm of this one


def mine(rules: Rules, c: Crossing):
    if c.density not in DENSITIES:
        raise RuleError(f"density {c.density!r}: expected one of {', '.join(DENSITIES)}")
    if c.mine == "at" and c.target == "infantry":
        yield Note("infantry cannot trip AT mines", P_MINE)
        return Outcome("no_trip")
    if c.in_burst:
        return (yield from burst(rules, c))
    need, _ = rules.cell("mine-density-table", "to_trip_off_2d6", c.density)
    roll = yield Roll("2d6", "trip", P_MINE, at_most=int(need))
    if roll > int(need):
        yield Note(f"2D6 {roll} > {need}: no mine goes off", P_MINE)
        return Outcome("no_trip")
    yield Note(f"2D6 {roll} <= {need}: a mine goes off", P_MINE)
    if c.target == "infantry":
        yield Note("the base that trips an AP mine is killed", P_MINE)
        return Outcome("destroyed")
    if c.target == "softskin":
        yield Note(
            "softskin destroyed"
            + (" (passengers die on 5+)" if c.mine == "at" else " with all aboard"),
            P_MINE,
        )
        return Outcome("destroyed")
    col = "light_afv" if c.target == "light_afv" else "medium_heavy_afv"
    shift = -3 if c.mine == "ap" else 0
    if shift:
        yield Modifier("AP mine against an AFV", shift, P_MINE)
    face = yield Roll("1d6", "AFV mine damage", P_MINE)
    value = max(1, min(6, face + shift))
    if value < 2:
        result = "no_effect"
    else:
        result, _ = rules.cell("mine-afv-damage", str(value), col)
    result = {"tracked": "immobilised"}.get(result, result)
    yield Lookup("mine damage", f"{face}{shift:+d} ({col})", result, P_MINE)
    return Outcome(result)


def lane_team_moves(detectors: bool) -> int:
    """Team-moves to clear a vehicle lane through one square (p39: 12, 4 with detectors)."""
    return 4 if detectors else 12


def clearing_moves(teams: int, detectors: bool) -> int:
    """Moves for `teams` engineer teams to clear a square (p39 example: 3 teams -> 4 moves)."""
    need = lane_team_moves(detectors)
    return -(-need // teams)


def burst(rules: Rules, c: Crossing):
    """An AP mine's 3 cm burst (p38): an infantry base in it dies on 1D6 at least the lost
    number (placeholder P90: 5), a softskin is immobilised, AFVs are unharmed."""
    if c.mine != "ap":
        raise RuleError("only AP mines have a burst radius (p38)")
    if c.target == "softskin":
        yield Note("a softskin in an AP mine's burst is immobilised", P_MINE)
        return Outcome("immobilised")
    if c.target != "infantry":
        return Outcome("no_effect")
    value, labels = rules.lost("ap-mine-burst", "infantry", "kill_on_1d6", ph.AP_MINE_BURST)
    yield Cite(labels)
    face = yield Roll("1d6", "AP mine burst", P_MINE, at_most=int(value) - 1)
    return Outcome("destroyed" if face >= int(value) else "survives")
