"""The public terrain of a view as shapes with their quickref chart rows: cover, sight and the
movement a path costs, computed from the view alone (no access to the game)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from shapely.geometry import LineString, Point, Polygon
from shapely.strtree import STRtree

from ..rulesets.quickref.game.board import CHART_ROW, LINEAR_WIDTH
from ..rulesets.quickref.models import Terrain
from ..rulesets.quickref.tables import rules as quickref_rules


@dataclass(frozen=True)
class Patch:
    id: str
    shape: Polygon
    row: Terrain | None
    height: float
    ford: bool


class ViewTerrain:
    """Terrain of a view's `terrain` list with a spatial index."""

    def __init__(self, features: list[dict[str, Any]]):
        chart = quickref_rules()
        patches = []
        for f in features:
            row_id = CHART_ROW.get(str(f["kind"]).casefold())
            if f.get("polygon"):
                shape = Polygon(f["polygon"])
            else:
                width = f.get("width") or LINEAR_WIDTH
                shape = LineString(f["line"]).buffer(width / 2, cap_style="flat")
            row = chart.terrain(row_id) if row_id else None
            ford = bool((f.get("attributes") or {}).get("ford"))
            patches.append(Patch(f["id"], shape, row, float(f.get("height") or 0), ford))
        self.patches = patches
        self.tree = STRtree([p.shape for p in patches]) if patches else None

    def _query(self, geom) -> list[Patch]:
        if self.tree is None:
            return []
        return [self.patches[i] for i in self.tree.query(geom, predicate="intersects")]

    def cover(self, x: float, y: float, vehicle: bool) -> int:
        """The best chart modifier protecting a unit here (AT column for vehicles, SA else)."""
        best = 0
        for p in self._query(Point(x, y)):
            if p.row is None:
                continue
            v = p.row.at if vehicle else p.row.sa
            if v is not None and v > best:
                best = v
        return best

    def los(self, a: tuple[float, float], b: tuple[float, float]) -> bool:
        """Approximate sight: blocked by a LOS-blocking feature that neither end stands in, or
        by a hill crest that neither end stands on (heights are not compared)."""
        line = LineString([a, b])
        pa, pb = Point(a), Point(b)
        for p in self._query(line):
            if p.row is None:
                continue
            blocks = p.row.blocks_los or p.row.id == "hills"
            if blocks and not (p.shape.contains(pa) or p.shape.contains(pb)):
                return False
        return True

    def reach(
        self,
        a: tuple[float, float],
        b: tuple[float, float],
        vehicle: bool,
        cap: float,
        moved: float,
    ) -> float:
        """How far along a->b this unit may go now (0 if the path is closed to it), following
        the chart's movement fractions and penalties conservatively (no road bonus)."""
        length = math.dist(a, b)
        if length < 1e-9:
            return 0.0
        fraction, flat = 1.0, 0.0
        for p in self._query(LineString([a, b])):
            if p.row is None:
                continue
            if vehicle and (p.row.vehicles_prohibited or p.row.id == "stream") and not p.ford:
                return 0.0
            frac = p.row.move_fraction_vehicle if vehicle else p.row.move_fraction_infantry
            fraction = min(fraction, frac)
            flat += p.row.move_penalty_vehicle if vehicle else p.row.move_penalty_infantry
        limit = (cap + moved) * fraction - flat - moved
        return max(0.0, min(length, limit * 0.97))
