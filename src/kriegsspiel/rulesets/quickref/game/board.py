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
TOUCH = 1e-7  # orientation products and heights this close to 0 are left to shapely
NEAR = 1e-6  # inches: a point this close to a segment may touch it (left to shapely)
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
        # whether a one-unit fire order is accepted, by what it depends on (`legal._fire_ok`)
        self.fire_memo: dict[tuple, bool] = {}

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
        fast = self._los_fast(a, b, eye)
        return self._los_shapely(a, b, eye) if fast is None else fast

    @cached_property
    def _sight_rings(self) -> list[tuple[Feature, tuple, tuple, bool]] | None:
        """(feature, vertex ring, bounding box, is a hill) of the features that can block
        sight (hills and chart rows with LOS YES); None if one is not a simple polygon."""
        out = []
        for f in self.features:
            hill = f.row == "hills"
            if f.row is None or not (hill or self.terrain(f.row).blocks_los):
                continue
            if not isinstance(f.shape, Polygon) or f.shape.interiors:
                return None
            out.append((f, tuple(f.shape.exterior.coords[:-1]), f.shape.bounds, hill))
        return out

    def _los_fast(self, a, b, eye: float) -> bool | None:
        """`_los_shapely`'s answer worked out with plain arithmetic where no point lies within
        a hair of a feature's edge (orientation tests away from zero decide every crossing
        and containment alike); None when one does (near-touching, collinear or a crest at
        exactly eye height), for shapely's exact predicates to settle."""
        rings = self._sight_rings
        if rings is None:
            return None
        ax, ay = a
        bx, by = b
        if ax == bx and ay == by:
            return None
        lo_x, hi_x = (ax, bx) if ax < bx else (bx, ax)
        lo_y, hi_y = (ay, by) if ay < by else (by, ay)
        ha = hb = ga = gb = None
        for f, ring, (x0, y0, x1, y1), hill in rings:
            if hi_x < x0 or lo_x > x1 or hi_y < y0 or lo_y > y1:
                continue
            crossings = []
            in_a = in_b = False
            cx, cy = ring[-1]
            for dx, dy in ring:
                vx, vy = dx - cx, dy - cy
                d1 = vx * (ay - cy) - vy * (ax - cx)
                d2 = vx * (by - cy) - vy * (bx - cx)
                d3 = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
                d4 = (bx - ax) * (dy - ay) - (by - ay) * (dx - ax)
                if min(abs(d1), abs(d2), abs(d3), abs(d4)) < TOUCH:
                    # a point on the other segment's line: a touch only if it is on that
                    # segment itself (left to shapely); off it, this edge is not crossed
                    if (
                        (abs(d1) < TOUCH and _near(a, (cx, cy), (dx, dy)))
                        or (abs(d2) < TOUCH and _near(b, (cx, cy), (dx, dy)))
                        or (abs(d3) < TOUCH and _near((cx, cy), a, b))
                        or (abs(d4) < TOUCH and _near((dx, dy), a, b))
                    ):
                        return None
                elif (d1 > 0) != (d2 > 0) and (d3 > 0) != (d4 > 0):
                    crossings.append(d1 / (d1 - d2))
                if (cy > ay) != (dy > ay) and ax < (dx - cx) * (ay - cy) / (dy - cy) + cx:
                    in_a = not in_a
                if (cy > by) != (dy > by) and bx < (dx - cx) * (by - cy) / (dy - cy) + cx:
                    in_b = not in_b
                cx, cy = dx, dy
            if not hill:
                if crossings and not (in_a or in_b):
                    return False
                continue
            if in_a and in_b or not crossings:
                continue
            height = f.spec.height
            if ha is None:
                ga, gb = self.ground(ax, ay), self.ground(bx, by)
                ha, hb = ga + eye, gb + eye
            if ga >= height or gb >= height:
                continue
            for t in crossings:
                sight = ha + (hb - ha) * t
                if abs(height - sight) < TOUCH:
                    return None
                if height >= sight:
                    return False
        return True

    def _los_shapely(self, a: tuple[float, float], b: tuple[float, float], eye: float) -> bool:
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


def _near(p, s0, s1) -> bool:
    """Whether point p lies within NEAR of the segment s0-s1."""
    vx, vy = s1[0] - s0[0], s1[1] - s0[1]
    n = vx * vx + vy * vy
    t = 0.0 if n == 0 else max(0.0, min(1.0, ((p[0] - s0[0]) * vx + (p[1] - s0[1]) * vy) / n))
    return math.hypot(p[0] - s0[0] - t * vx, p[1] - s0[1] - t * vy) < NEAR
