"""Panzerfaust's terrain kinds in a scenario file, each read as the rules' rows: its Observation
Table row (p8), its cover against infantry fire (p16), whether it blocks sight through it, and the
share of cross-country movement it leaves (the p25 movement table is lost: placeholder P143).
Woods and treelines are declared thick or thin before the game (p4) with the feature's
`attributes.density`; left out, woods are thick and treelines thin."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ...data.errors import RuleError


@dataclass(frozen=True)
class Kind:
    sight: str  # Observation Table row (p8)
    cover: str = "none"  # infantry fire cover (p16): none | soft | hard
    blocks: bool = False  # blocks sight through it (p8: woods deeper than their row allows)
    slow: float = 1.0  # share of cross-country movement kept (placeholder P143)
    road: bool = False


OPEN = "open_desert"
BRUSH = Kind("low_brush_long_grass", "soft", slow=0.75)
KINDS: dict[str, Kind] = {
    "open": Kind(OPEN),
    "field": Kind("low_brush_long_grass"),
    "brush": BRUSH,
    "low_brush": BRUSH,
    "hedge": Kind("hedge_wall_ruins", "soft", slow=0.5),
    "wall": Kind("hedge_wall_ruins", "hard", slow=0.5),
    "ruins": Kind("hedge_wall_ruins", "hard", slow=0.5),
    "woods": Kind("thick_woods", "soft", blocks=True, slow=0.5),
    "orchard": Kind("orchard", "soft", slow=0.75),
    "bocage": Kind("thick_treeline_bocage", "hard", blocks=True, slow=0.25),
    "treeline": Kind("thin_treeline", "soft", slow=0.75),
    "building": Kind("inside_building", "hard", blocks=True, slow=0.5),
    "hill": Kind(OPEN),  # height, not cover: the line of sight decides
    "road": Kind(OPEN, road=True),
    "stream": Kind(OPEN, slow=0.5),
    "river": Kind(OPEN, slow=0.25),
    "gully": Kind(OPEN, "soft", slow=0.75),  # a balka: below the ground, cover in it
    "rough": Kind(OPEN, slow=0.5),
    "marsh": Kind(OPEN, slow=0.25),
}
DENSITY = {  # the row a thick or thin wood/treeline is read as (p4, p8)
    "woods": {"thick": "thick_woods", "thin": "thin_woods", None: "thick_woods"},
    "treeline": {"thick": "thick_treeline_bocage", "thin": "thin_treeline", None: "thin_treeline"},
}
THIN_SLOW = 0.75  # a thin wood is easier going than a thick one (placeholder P143)


def kind_of(kind: str, attributes: dict[str, Any] | None = None) -> Kind:
    """The rules' reading of a terrain feature of `kind` (its density where it has one)."""
    k = KINDS.get(kind)
    if k is None:
        raise RuleError(f"terrain kind {kind!r}: expected one of {', '.join(sorted(KINDS))}")
    if kind in DENSITY:
        density = (attributes or {}).get("density")
        rows = DENSITY[kind]
        if density not in rows:
            raise RuleError(f"{kind} density {density!r}: expected thick or thin (p4)")
        if density == "thin":
            k = replace(k, sight=rows["thin"], slow=max(k.slow, THIN_SLOW))
        else:
            k = replace(k, sight=rows[density])
    return k


def observation_row(kind: str, attributes: dict[str, Any] | None = None) -> str:
    """The Observation Table row (p8) of a terrain feature of `kind`."""
    return kind_of(kind, attributes).sight
