"""The Effects Results Chart (digest §3.8): d20 + cover and weapon modifiers on a column H-A.
Rows run 1-27; a roll below 1 reads row 1 and above 27 is no effect (decision BG-ROWS)."""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import Any

from ....chance import Lookup, Modifier, Outcome, Roll
from ....data.errors import RuleError
from ..models import COLUMNS
from .core import Rules

RESULTS = ("GD", "KIA", "HW", "LtW", "MC", "Sup", "no_effect")
CASUALTY = frozenset({"GD", "KIA", "HW"})
SEVERITY_ORDER = {r: i for i, r in enumerate(RESULTS)}
COVERS = (  # cover names of §3.36, alphabetical
    "bocage",
    "brush",
    "deep_water",
    "foxhole",
    "graveyard",
    "gully",
    "gun_shield",
    "heavy_woods",
    "hedge",
    "light_woods",
    "m3a1_pulpit",
    "marsh",
    "open",
    "partial_tank_cover",
    "pillbox",
    "pillbox_slit",
    "road",
    "roadblock",
    "rubble",
    "sandbags",
    "shell_holes",
    "stone_building",
    "stream",
    "trench",
    "wall",
    "wood_building",
)


@dataclass(frozen=True)
class Target:
    """What protects the figure hit: terrain cover names (§3.36) and prone."""

    cover: tuple[str, ...] = ()
    prone: bool = False

    def __post_init__(self) -> None:
        for c in self.cover:
            if c not in COVERS:
                raise RuleError(f"cover {c!r}: expected one of {COVERS}")


def cover_mods(rules: Rules, t: Target, prone_counts: bool = True) -> Generator[Any, Any, list]:
    mods = []
    for c in t.cover:
        mods.append((yield from rules.drm("effect_mods", c)))
    if t.prone and prone_counts:
        mods.append((yield from rules.drm("effect_mods", "prone")))
    return mods


def effect_roll(
    rules: Rules, column: str, mods: tuple[Modifier, ...], label: str = "effect"
) -> Generator[Any, Any, Outcome]:
    """One roll on the chart; `mods` already include cover."""
    if column not in COLUMNS:
        raise RuleError(f"effects column {column!r}: expected one of {COLUMNS}")
    yield from mods
    roll = yield Roll("1d20", f"{label} (column {column})", "§3.8")
    row = roll + sum(m.value for m in mods)
    if row > 27:
        yield Lookup("effects chart", f"row {row} > 27", "no effect", "§3.8")
        return Outcome("no_effect")
    row = max(1, row)
    value = yield from rules.get("effects_chart", str(row), column)
    yield Lookup("effects chart", f"row {row} column {column}", value, "§3.8")
    return Outcome("no_effect" if value == "-" else value)


def worst(names: list[str]) -> str:
    return min(names, key=lambda n: SEVERITY_ORDER.get(n, len(RESULTS))) if names else "miss"
