"""Panzerfaust's terrain kinds in a scenario file and the Observation Table row each one is
(p8). Woods and treelines are declared thick or thin before the game (p4) with the feature's
`attributes.density`; left out, woods are thick and treelines thin."""

from __future__ import annotations

from typing import Any

from ...data.errors import RuleError

OPEN = "open_desert"
ROWS: dict[str, str] = {
    "open": OPEN,
    "road": OPEN,
    "stream": OPEN,
    "river": OPEN,
    "hill": OPEN,  # height, not cover: the line of sight decides
    "gully": OPEN,
    "rough": OPEN,
    "marsh": OPEN,
    "field": "low_brush_long_grass",
    "low_brush": "low_brush_long_grass",
    "hedge": "hedge_wall_ruins",
    "wall": "hedge_wall_ruins",
    "ruins": "hedge_wall_ruins",
    "orchard": "orchard",
    "bocage": "thick_treeline_bocage",
    "building": "inside_building",
}
BY_DENSITY = {
    "woods": {"thick": "thick_woods", "thin": "thin_woods", None: "thick_woods"},
    "treeline": {"thick": "thick_treeline_bocage", "thin": "thin_treeline", None: "thin_treeline"},
}
KINDS = frozenset(ROWS) | frozenset(BY_DENSITY)


def observation_row(kind: str, attributes: dict[str, Any] | None = None) -> str:
    """The Observation Table row (p8) of a terrain feature of `kind`."""
    if kind in BY_DENSITY:
        density = (attributes or {}).get("density")
        rows = BY_DENSITY[kind]
        if density not in rows:
            raise RuleError(f"{kind} density {density!r}: expected thick or thin (p4)")
        return rows[density]
    if kind not in ROWS:
        raise RuleError(f"terrain kind {kind!r}: expected one of {', '.join(sorted(KINDS))}")
    return ROWS[kind]
