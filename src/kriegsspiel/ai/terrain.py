"""The public terrain of a view as shapes with their quickref chart rows: cover, sight and the
movement a path costs, computed from the view alone (no access to the game)."""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass
from typing import Any

from shapely.geometry import LineString, Polygon

from ..rulesets.quickref.game.board import CHART_ROW, LINEAR_WIDTH
from ..rulesets.quickref.models import Terrain
from ..rulesets.quickref.tables import rules as quickref_rules

XY = tuple[float, float]


@dataclass(frozen=True)
class Patch:
    """One feature as a plain polygon (vertex ring and bounding box) with its chart row."""

    id: str
    ring: tuple[XY, ...]
    box: tuple[float, float, float, float]
    row: Terrain | None
    ford: bool

    def contains(self, p: XY) -> bool:
        x, y = p
        x0, y0, x1, y1 = self.box
        if not (x0 <= x <= x1 and y0 <= y <= y1):
            return False
        inside = False
        ring = self.ring
        j = len(ring) - 1
        for i in range(len(ring)):
            (xi, yi), (xj, yj) = ring[i], ring[j]
            if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
                inside = not inside
            j = i
        return inside

    def crosses(self, a: XY, b: XY) -> bool:
        """Whether segment a-b meets the boundary or lies inside."""
        return self.meets_boundary(a, b) or self.contains(a)

    def meets_boundary(self, a: XY, b: XY) -> bool:
        """Whether segment a-b touches the boundary ring (the orientation tests of
        `_segments_meet`, inlined over the ring: this is the bots' hot path)."""
        ax, ay = a
        bx, by = b
        x0, y0, x1, y1 = self.box
        if (ax if ax > bx else bx) < x0 or (ax if ax < bx else bx) > x1:
            return False
        if (ay if ay > by else by) < y0 or (ay if ay < by else by) > y1:
            return False
        ux, uy = bx - ax, by - ay
        ring = self.ring
        cx, cy = ring[-1]
        for dx, dy in ring:
            vx, vy = dx - cx, dy - cy
            d1 = vx * (ay - cy) - vy * (ax - cx)
            d2 = vx * (by - cy) - vy * (bx - cx)
            if (d1 > 0) != (d2 > 0) or d1 == 0 or d2 == 0:
                d3 = ux * (cy - ay) - uy * (cx - ax)
                d4 = ux * (dy - ay) - uy * (dx - ax)
                if (d3 > 0) != (d4 > 0) or d3 == 0 or d4 == 0:
                    return True
            cx, cy = dx, dy
        return False


def _orient(p: XY, q: XY, r: XY) -> float:
    return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])


def _segments_meet(a: XY, b: XY, c: XY, d: XY) -> bool:
    """Whether segments a-b and c-d touch (the reference form of `Patch.crosses`' test)."""
    d1, d2 = _orient(c, d, a), _orient(c, d, b)
    d3, d4 = _orient(a, b, c), _orient(a, b, d)
    return ((d1 > 0) != (d2 > 0) or d1 == 0 or d2 == 0) and (
        (d3 > 0) != (d4 > 0) or d3 == 0 or d4 == 0
    )


class ViewTerrain:
    """Terrain of a view's `terrain` list, as plain polygons (fast for many small queries)."""

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
            ring = tuple((float(x), float(y)) for x, y in shape.exterior.coords[:-1])
            patches.append(Patch(f["id"], ring, tuple(shape.bounds), row, ford))
        self.patches = [p for p in patches if p.row is not None]
        self.blockers = [p for p in self.patches if p.row.blocks_los or p.row.id == "hills"]
        self._cover: dict[tuple[XY, bool], int] = {}
        self._fields: dict[tuple[XY, bool], list[list[float]]] = {}

    def cover(self, x: float, y: float, vehicle: bool) -> int:
        """The best chart modifier protecting a unit here (AT column for vehicles, SA else)."""
        key = ((x, y), vehicle)
        if key not in self._cover:
            best = 0
            for p in self.patches:
                v = p.row.at if vehicle else p.row.sa
                if v is not None and v > best and p.contains((x, y)):
                    best = v
            self._cover[key] = best
        return self._cover[key]

    def los(self, a: XY, b: XY) -> bool:
        """Approximate sight: blocked by a LOS-blocking feature that neither end stands in, or
        by a hill crest that neither end stands on (heights are not compared)."""
        # a segment that meets no edge lies wholly inside (both ends in: not blocking) or
        # wholly outside, so the ends' containment matters only where an edge is met
        for p in self.blockers:
            if p.meets_boundary(a, b) and not (p.contains(a) or p.contains(b)):
                return False
        return True

    def reach(self, a: XY, b: XY, vehicle: bool, cap: float, moved: float) -> float:
        """How far along a->b this unit may go now (0 if the path is closed to it), following
        the chart's movement fractions and penalties conservatively (no road bonus)."""
        length = math.dist(a, b)
        if length < 1e-9:
            return 0.0
        fraction, flat = 1.0, 0.0
        for p in self.patches:
            if not p.crosses(a, b):
                continue
            if vehicle and (p.row.vehicles_prohibited or p.row.id == "stream") and not p.ford:
                return 0.0
            frac = p.row.move_fraction_vehicle if vehicle else p.row.move_fraction_infantry
            fraction = min(fraction, frac)
            flat += p.row.move_penalty_vehicle if vehicle else p.row.move_penalty_infantry
        limit = (cap + moved) * fraction - flat - moved
        return max(0.0, min(length, limit * 0.97))

    def _cell_cost(self, x: float, y: float, vehicle: bool) -> float:
        """Cost of an inch of travel here (inf where the unit may not go)."""
        cost = 1.0
        for p in self.patches:
            if not p.contains((x, y)):
                continue
            if vehicle and (p.row.vehicles_prohibited or p.row.id == "stream") and not p.ford:
                return math.inf
            frac = p.row.move_fraction_vehicle if vehicle else p.row.move_fraction_infantry
            pen = p.row.move_penalty_vehicle if vehicle else p.row.move_penalty_infantry
            cost = max(cost, 1.0 / max(frac, 0.05) + pen)
        return cost

    def path_distance(self, a: XY, goal: XY, width: float, depth: float, vehicle: bool) -> float:
        """Travel distance from a to goal around closed ground (Dijkstra on a 1-inch grid,
        8 neighbours, memoised per goal and kind)."""
        key = (goal, vehicle)
        field = self._fields.get(key)
        nx, ny = int(width) + 1, int(depth) + 1
        if field is None:
            cost = [[self._cell_cost(i, j, vehicle) for j in range(ny)] for i in range(nx)]
            field = [[math.inf] * ny for _ in range(nx)]
            gi, gj = min(max(round(goal[0]), 0), nx - 1), min(max(round(goal[1]), 0), ny - 1)
            field[gi][gj] = 0.0
            heap = [(0.0, gi, gj)]
            steps = [(di, dj) for di in (-1, 0, 1) for dj in (-1, 0, 1) if di or dj]
            while heap:
                d, i, j = heapq.heappop(heap)
                if d > field[i][j]:
                    continue
                for di, dj in steps:
                    k, m = i + di, j + dj
                    if 0 <= k < nx and 0 <= m < ny and cost[k][m] < math.inf:
                        nd = d + math.hypot(di, dj) * (cost[i][j] + cost[k][m]) / 2
                        if nd < field[k][m]:
                            field[k][m] = nd
                            heapq.heappush(heap, (nd, k, m))
            self._fields[key] = field
        i, j = min(max(round(a[0]), 0), nx - 1), min(max(round(a[1]), 0), ny - 1)
        d = field[i][j]
        return d if d < math.inf else math.dist(a, goal) * 3
