"""The table of a Panzerfaust game: terrain features read as the rules' rows (observation p8,
infantry cover p16, AT cover p30, movement p25), a spatial index and sight lines (cm).

A scenario's feature kinds map onto the Observation Table's rows; an unknown kind is refused
with the feature's id. Woods take `attributes.density` thick (default) or thin.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from shapely import LineString, Point, Polygon

from ....engine.scenario import Scenario
from ....geometry.los import SightRules, visible
from ....geometry.terrain import Feature, Table
from ....geometry.units import Unit

LINEAR_WIDTH = 1.0  # cm: a hedge, wall or treeline drawn as a line


@dataclass(frozen=True)
class Kind:
    sight: str  # Observation Table row (p8)
    cover: str = "none"  # infantry fire cover (p16): none | soft | hard
    blocks: bool = False  # blocks sight through it (p8: woods deeper than their row allows)
    slow: float = 1.0  # share of cross-country movement kept (placeholder P143)
    road: bool = False


KINDS = {
    "open": Kind("open_desert"),
    "field": Kind("low_brush_long_grass"),
    "brush": Kind("low_brush_long_grass", "soft", slow=0.75),
    "hedge": Kind("hedge_wall_ruins", "soft", slow=0.5),
    "wall": Kind("hedge_wall_ruins", "hard", slow=0.5),
    "ruins": Kind("hedge_wall_ruins", "hard", slow=0.5),
    "woods": Kind("thick_woods", "soft", blocks=True, slow=0.5),
    "orchard": Kind("orchard", "soft", slow=0.75),
    "bocage": Kind("thick_treeline_bocage", "hard", blocks=True, slow=0.25),
    "treeline": Kind("thin_treeline", "soft", slow=0.75),
    "building": Kind("inside_building", "hard", blocks=True, slow=0.5),
    "hill": Kind("open_desert"),
    "road": Kind("open_desert", road=True),
    "stream": Kind("open_desert", slow=0.5),
}


def kind_of(kind: str, attributes: dict) -> Kind:
    k = KINDS[kind]
    if kind == "woods" and attributes.get("density") == "thin":
        return Kind("thin_woods", "soft", blocks=True, slow=0.75)
    return k


class Board:
    """Terrain of one scenario."""

    def __init__(self, scenario: Scenario):
        self.width, self.depth = scenario.table.width, scenario.table.depth
        feats, self.kinds = [], {}
        for f in scenario.terrain:
            kind = f.kind.casefold()
            if kind not in KINDS:
                raise ValueError(
                    f"terrain feature {f.id}: kind {f.kind!r} is not a Panzerfaust terrain; "
                    f"use one of {', '.join(sorted(KINDS))}"
                )
            if f.polygon is not None:
                shape = Polygon(f.polygon)
            else:
                shape = LineString(f.line).buffer((f.width or LINEAR_WIDTH) / 2, cap_style="flat")
            attrs = {**f.attributes, "height": f.height} if f.height else dict(f.attributes)
            feats.append(Feature(f.id, kind, shape, attrs))
            self.kinds[f.id] = kind_of(kind, f.attributes)
        self.features = feats
        self.table = Table(self.width, self.depth, Unit.CM, feats)
        blocking = {f.id for f in feats if self.kinds[f.id].blocks}
        self.sight = SightRules(
            lambda feat: feat.id in blocking, see_into=5.0, own_depth=5.0, hills="below_top"
        )
        self._at: dict[tuple[float, float], tuple[Feature, ...]] = {}
        self._los: dict[tuple[float, float, float, float], bool] = {}

    def at(self, x: float, y: float) -> tuple[Feature, ...]:
        key = (x, y)
        hit = self._at.get(key)
        if hit is None:
            idx = self.table.tree.query(Point(x, y), predicate="intersects")
            hit = self._at[key] = tuple(self.features[i] for i in sorted(idx))
        return hit

    def feature(self, x: float, y: float) -> str | None:
        """The terrain feature a piece at (x, y) is in (the most concealing one), or None."""
        best, rank = None, -1
        for f in self.at(x, y):
            k = self.kinds[f.id]
            r = ("open_desert", "low_brush_long_grass", "thin_treeline", "orchard").count(k.sight)
            r = 0 if r else (2 if k.blocks else 1)
            if not k.road and r > rank:
                best, rank = f.id, r
        return best

    def sight_row(self, x: float, y: float) -> str:
        f = self.feature(x, y)
        return self.kinds[f].sight if f else "open_desert"

    def cover(self, x: float, y: float) -> str:
        best = "none"
        for f in self.at(x, y):
            c = self.kinds[f.id].cover
            if c == "hard" or (c == "soft" and best == "none"):
                best = c
        return best

    def slow(self, x: float, y: float) -> float:
        return min((self.kinds[f.id].slow for f in self.at(x, y)), default=1.0)

    def crosses(self, a: tuple[float, float], b: tuple[float, float]) -> bool:
        """Whether the straight line a-b touches any terrain feature."""
        line = LineString([a, b]) if a != b else Point(a)
        return len(self.table.tree.query(line, predicate="intersects")) > 0

    def on_road(self, x: float, y: float) -> bool:
        return any(self.kinds[f.id].road for f in self.at(x, y))

    def los(self, a: tuple[float, float], b: tuple[float, float]) -> bool:
        key = (a[0], a[1], b[0], b[1])
        hit = self._los.get(key)
        if hit is None:
            if len(self._los) > 200_000:
                self._los.clear()
            hit = self._los[key] = visible(self.table, a, b, self.sight, 1.0, 1.0)
        return hit

    def on_table(self, x: float, y: float) -> bool:
        return 0 <= x <= self.width and 0 <= y <= self.depth

    @cached_property
    def area(self) -> float:
        return self.width * self.depth
