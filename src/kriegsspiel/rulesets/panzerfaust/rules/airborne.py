"""Airborne drops and gliders (pp. 41-42): off-board drop losses by wind, glider direction and
distance rolls."""

from __future__ import annotations

from ....chance import Lookup, Outcome, Roll
from ....data.errors import RuleError
from .tables import Rules

# 1D6 that loses the item, by wind: (teams, heavy weapons, guns & transport); None = no loss
LOSS = {
    "none": (None, 6, 5),
    "light": (6, 5, 4),
    "moderate": (5, 4, 3),
    "gale": (4, 3, 2),
}
ITEMS = ("teams", "heavy_weapons", "guns_transport")


def drop_loss(rules: Rules, wind: str, item: str):
    """Is one item of an off-board drop lost (p41)?"""
    if wind not in LOSS or item not in ITEMS:
        raise RuleError(f"wind {wind!r} / item {item!r}: expected {list(LOSS)} / {list(ITEMS)}")
    need = LOSS[wind][ITEMS.index(item)]
    if need is None:
        return Outcome("lands")
    face = yield Roll("1d6", f"drop loss ({item})", "p41", at_most=need - 1)
    return Outcome("lost" if face >= need else "lands")


def glider_landing(rules: Rules):
    """Glider direction (1 veer left, 2 right, 3-6 straight) and distance (1-3 overshoot
    30/20/10 cm, 4-5 exact, 6 short 10 cm) (p42)."""
    d = yield Roll("1d6", "glider direction", "p42")
    direction = {1: "veer_left", 2: "veer_right"}.get(d, "straight")
    yield Lookup("glider direction", d, direction, "p42")
    n = yield Roll("1d6", "glider distance", "p42")
    distance = {
        1: "over_30",
        2: "over_20",
        3: "over_10",
        4: "on_strip",
        5: "on_strip",
        6: "short_10",
    }[n]
    yield Lookup("glider distance", n, distance, "p42")
    return Outcome(f"{direction}_{distance}")
