"""The table of a quickref game: terrain features as the sheet's chart rows, sight and movement.

Scenario feature kinds map onto rows of the Terrain Effects and Fire Chart; effects come from the
data (terrain.yaml), geometry from kriegsspiel.geometry.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

from shapely.geometry import LineString, Point, Polygon
from shapely.strtree import STRtree

from ....engine.scenario import FeatureSpec, Scenario
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
        self.tree = STRtree([f.shape for f in feats]) if feats else None
        # Sight and terrain-at-a-point are pure functions of the (immutable) terrain, asked
        # again and again with the same points (sight refresh after every move, legal
        # commands after every command): memoised, results unchanged.
        self._los_memo: dict[tuple[float, float, float, float, float], bool] = {}
        self._at_memo: dict[tuple[float, float], tuple[Feature, ...]] = {}

    def terrain(self, row: str) -> Terrain:
        return self.rules.terrain(row)

    def _query(self, geom) -> list[Feature]:
        if self.tree is None:
            return []
        return [self.features[i] for i in self.tree.query(geom, predicate="intersects")]

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
        """Sight from a to b: blocked by a chart feature with LOS YES that the line passes
        through (not one that a or b stands in: decision Q26), or by a hill crest higher than
        the sight line where neither end stands on it."""
        line = LineString([a, b])
        ha, hb = self.ground(*a) + eye, self.ground(*b) + eye
        pa, pb = Point(a), Point(b)
        for f in self._query(line):
            if f.row is None:
                continue
            t = self.terrain(f.row)
            if f.row == "hills":
                if f.shape.contains(pa) and f.shape.contains(pb):
                    continue
                if self._crest_blocks(f, line, ha, hb, a, b):
                    return False
                continue
            if not t.blocks_los:
                continue
            if f.shape.contains(pa) or f.shape.contains(pb):
                continue
            if line.crosses(f.shape) or line.within(f.shape):
                return False
        return True

    def _crest_blocks(self, f: Feature, line: LineString, ha: float, hb: float, a, b) -> bool:
        inside = line.intersection(f.shape)
        if inside.is_empty:
            return False
        length = line.length or 1.0
        pts = []
        for g in getattr(inside, "geoms", [inside]):
            pts += list(g.coords)
        for px, py in pts:
            t = math.hypot(px - a[0], py - a[1]) / length
            sight = ha + (hb - ha) * t
            if (
                f.spec.height >= sight
                and self.ground(*a) < f.spec.height
                and self.ground(*b) < f.spec.height
            ):
                return True
        return False

    def path_terrain(self, path: list[tuple[float, float]]) -> list[Feature]:
        """Features a movement path enters or crosses (the start point's own features excluded
        unless the path leaves and re-enters them)."""
        if len(path) < 2:
            return []
        line = LineString(path)
        start = Point(path[0])
        out = []
        for f in self._query(line):
            if f.shape.contains(start) and line.within(f.shape):
                out.append(f)  # moving inside a feature still pays its fractions
                continue
            out.append(f)
        return out

    def on_road(self, path: list[tuple[float, float]]) -> bool:
        if not self.roads or len(path) < 2:
            return False
        line = LineString(path)
        return any(r.shape.buffer(0.01).contains(line) for r in self.roads)
