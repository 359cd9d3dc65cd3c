"""The table of a quickref game: terrain features as the sheet's chart rows, sight and movement.

Scenario feature kinds map onto rows of the Terrain Effects and Fire Chart; effects come from the
data (terrain.yaml), geometry from kriegsspiel.geometry.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from shapely.geometry import LineString, Point, Polygon

from ....engine.scenario import FeatureSpec, Scenario
from ....geometry import Feature as Feature_
from ....geometry import SightRules, Table, Unit, visible
from ..models import Terrain
from ..tables import Rules

# scenario feature kind -> terrain chart row
CHART_ROW = {
    "hill": "hills",
    "hills": "hills",
    "ravine": "ravine",
    "wall": "walls",
    "walls": "walls",
    "hedge": "walls",
    "bocage": "walls",
    "woods": "woods",
    "wood": "woods",
    "wheatfield": "wheatfield",
    "field": "wheatfield",
    "building": "building",
    "buildings": "building",
    "swamp": "swamp",
    "stream": "stream",
    "river": "stream",
    "bunker": "bunkers",
    "bunkers": "bunkers",
    "foxholes": "foxholes",
    "foxhole": "foxholes",
    "hulldown": "hulldown",
    "road": None,
}
LINEAR_WIDTH = 0.5  # inches: walls and hedges without a width
CACHE_SIZE = 100_000  # memoised sight lines and points per board (cleared when full)


@dataclass(frozen=True)
class Feature:
    spec: FeatureSpec
    shape: Polygon
    row: str | None  # terrain chart row id, None for roads

    @property
    def id(self) -> str:
        return self.spec.id


class Board:
    """Terrain of one scenario with a spatial index."""

    def __init__(self, scenario: Scenario, rules: Rules):
        self.scenario = scenario
        self.rules = rules
        self.width = scenario.table.width
        self.depth = scenario.table.depth
        feats = []
        for f in scenario.terrain:
            kind = f.kind.casefold()
            if kind not in CHART_ROW:
                raise ValueError(
                    f"feature {f.id}: kind {f.kind!r} is not on the quickref terrain "
                    f"chart; use one of {sorted(CHART_ROW)}"
                )
            if f.polygon is not None:
                shape = Polygon(f.polygon)
            else:
                shape = LineString(f.line).buffer((f.width or LINEAR_WIDTH) / 2, cap_style="flat")
            feats.append(Feature(f, shape, CHART_ROW[kind]))
        self.features = feats
        self.table = Table(
            self.width,
            self.depth,
            Unit.INCH,
            [Feature_(f.id, f.spec.kind.casefold(), f.shape, _sight_attributes(f)) for f in feats],
            hill_kinds={k for k, row in CHART_ROW.items() if row == "hills"},
        )
        blocking = {k for k, row in CHART_ROW.items() if row and rules.terrain(row).blocks_los}
        self.sight = SightRules(frozenset(blocking - self.table.hill_kinds), hills="crest")
        # Sight and terrain-at-a-point are pure functions of the (immutable) terrain, asked
        # again and again with the same points (sight refresh after every move, legal
        # commands after every command): memoised, results unchanged.
        self._los_memo: dict[tuple[float, float, float, float, float], bool] = {}
        self._at_memo: dict[tuple[float, float], tuple[Feature, ...]] = {}
        # whether a one-unit fire order is accepted, by what it depends on (`legal._fire_ok`)
        self.fire_memo: dict[tuple, bool] = {}

    def terrain(self, row: str) -> Terrain:
        return self.rules.terrain(row)

    def _query(self, geom) -> list[Feature]:
        return [self.features[i] for i in self.table.tree.query(geom, predicate="intersects")]

    def features_at(self, x: float, y: float) -> list[Feature]:
        key = (x, y)
        hit = self._at_memo.get(key)
        if hit is None:
            if len(self._at_memo) >= CACHE_SIZE:
                self._at_memo.clear()
            hit = self._at_memo[key] = tuple(self._query(Point(x, y)))
        return list(hit)

    def cover(self, x: float, y: float, column: str = "sa") -> str | None:
        """The chart row that protects a unit here best in a column (decision Q26)."""
        best, value = None, 0
        for f in self.features_at(x, y):
            if f.row is None:
                continue
            v = getattr(self.terrain(f.row), column)
            if v is not None and v > value:
                best, value = f.row, v
        return best

    def ground(self, x: float, y: float) -> float:
        return max((f.spec.height for f in self.features_at(x, y) if f.row == "hills"), default=0.0)

    def on_table(self, x: float, y: float) -> bool:
        return 0 <= x <= self.width and 0 <= y <= self.depth

    @cached_property
    def roads(self) -> list[Feature]:
        return [f for f in self.features if f.spec.kind.casefold() == "road"]

    def los(self, a: tuple[float, float], b: tuple[float, float], eye: float = 0.5) -> bool:
        """Sight from a to b (memoised; see `_los`)."""
        key = (a[0], a[1], b[0], b[1], eye)
        hit = self._los_memo.get(key)
        if hit is None:
            if len(self._los_memo) >= CACHE_SIZE:
                self._los_memo.clear()
            hit = self._los_memo[key] = self._los(a, b, eye)
        return hit

    def _los(self, a: tuple[float, float], b: tuple[float, float], eye: float) -> bool:
        """Sight from a to b, eyes `eye` above the ground at both ends: blocked by a chart
        feature with LOS YES that the line passes through (not one that a or b stands in:
        decision Q26), or by a hill crest at or above the line where both ends stand below
        it (the geometry layer's "crest" hill rule)."""
        return visible(self.table, a, b, self.sight, eye, eye)

    def path_terrain(self, path: list[tuple[float, float]]) -> list[Feature]:
        """Features a movement path touches: those it enters or crosses, and those it starts in
        (moving inside a feature, or out of it, pays its fractions too)."""
        if len(path) < 2:
            return []
        return self._query(LineString(path))

    @cached_property
    def _road_zones(self) -> list:
        """Each road widened by a hundredth of an inch (a path along its edge is on it)."""
        return [r.shape.buffer(0.01) for r in self.roads]

    def on_road(self, path: list[tuple[float, float]]) -> bool:
        if not self.roads or len(path) < 2:
            return False
        line = LineString(path)
        return any(zone.contains(line) for zone in self._road_zones)


def _sight_attributes(f: Feature) -> dict[str, float]:
    """What sight reads of a feature: a hill's height (its top); other chart features with
    LOS YES block at any height (the sheet gives them none)."""
    return {"height": f.spec.height} if f.row == "hills" else {}
