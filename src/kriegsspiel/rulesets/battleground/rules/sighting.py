"""Sighting Checks (digest §3.1): range rounded up to a chart column, column shifts, then
d20 <= the cell; AQ is acquired without a roll, '-' cannot be sighted."""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import Any

from ....chance import Lookup, Note, Outcome
from ....data.errors import RuleError
from .core import Rules, d20_under

OUTCOMES = ("sighted", "unseen")
SHIFTS = (
    "hasty",
    "improved",
    "constructed",
    "single_aimed",
    "full_auto",
    "prone",
    "binoculars",
    "green",
    "elite",
    "buttoned_up",
    "moving_vehicle",
)


@dataclass(frozen=True)
class Sight:
    range: float
    target: str = "infantry"  # infantry | vehicle
    concealed: bool = False
    moving: bool = False
    firing: bool = False
    size: str = "M"  # vehicle targets
    shifts: tuple[str, ...] = ()
    terrain: str | None = None  # the target's terrain decides Open or Concealed (§3.36)

    def row(self, concealed: bool | None = None) -> str:
        kind = {"infantry": "inf", "vehicle": "veh"}.get(self.target)
        if kind is None:
            raise RuleError(f"target {self.target!r}: expected infantry or vehicle")
        return "/".join(
            (
                kind,
                "concealed" if (self.concealed if concealed is None else concealed) else "open",
                "moving" if self.moving else "static",
                "firing" if self.firing else "quiet",
            )
        )


def column(rules: Rules, s: Sight) -> Generator[Any, Any, str | None]:
    """The chart column after rounding the range up and applying the shifts (None: shifted
    past the longest column, so the target cannot be sighted; decision BG-CLAMP)."""
    if s.range < 0:
        raise RuleError(f"range {s.range}: must be positive")
    cols = rules.table("sighting_chart").columns
    idx = next((i for i, c in enumerate(cols) if s.range <= int(c)), None)
    if idx is None:
        yield Note(f"{s.range:g} in is beyond the last column", "§3.1")
        return None
    yield Note(f"range {s.range:g} in -> column {cols[idx]}", "§3.1")
    names = list(s.shifts)
    if s.target == "vehicle":
        names.append(f"size_{s.size}")
    for name in names:
        if name not in SHIFTS and not name.startswith("size_"):
            raise RuleError(f"sighting shift {name!r}: expected one of {SHIFTS}")
        mod = yield from rules.drm("sighting_shifts", name, "shift")
        idx += mod.value
    if idx >= len(cols):
        return None
    return cols[max(0, idx)]


def sight(rules: Rules, s: Sight) -> Generator[Any, Any, Outcome]:
    col = yield from column(rules, s)
    if col is None:
        return Outcome("unseen", (("reason", "off the chart"),))
    concealed = s.concealed
    if s.terrain:
        if s.terrain not in rules.table("terrain").cells:
            raise RuleError(
                f"terrain {s.terrain!r}: expected one of {sorted(rules.table('terrain').cells)}"
            )
        state = yield from rules.get("terrain", s.terrain, f"{s.target}_sighting")
        concealed = concealed or state == "concealed"
        yield Lookup("terrain", s.terrain, state, "§3.36")
    row = s.row(concealed)
    value = yield from rules.get("sighting_chart", row, col)
    yield Lookup("sighting chart", f"{row} @ {col} in", value, "§3.1")
    if value == "AQ":
        return Outcome("sighted", (("acquired", True),))
    if value == "-":
        return Outcome("unseen", (("reason", "cannot be sighted"),))
    roll = yield from d20_under(int(value), "sighting", "§3.1")
    return Outcome("sighted" if roll <= int(value) else "unseen")
