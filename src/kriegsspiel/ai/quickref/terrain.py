"""The public terrain of a view as shapes with their quickref chart rows: cover, sight and the
movement a path costs, computed from the view alone (no access to the game)."""

from __future__ import annotations

import heapq
import json
import math
from dataclasses import dataclass, fields
from functools import cached_property
from typing import Any

import numpy as np
from shapely.geometry import LineString, Polygon

from ...geometry import Feature, SightRules, Table, Unit, visible, visible_many
from ...rulesets.quickref.game.board import CHART_ROW, LINEAR_WIDTH
from ...rulesets.quickref.models import Terrain
from ...rulesets.quickref.tables import rules as quickref_rules

XY = tuple[float, float]


@dataclass(frozen=True, eq=False)
class Edges:
    """Polygon edges as arrays: start points `c` and end points `d` (k, 2), and for the
    divisions of the point-in-polygon and point-to-edge tests, each edge's fall (start y less
    end y) and squared length with 0 read as 1: the tests mask those edges out themselves
    (an edge that does not straddle the point's y; a zero-length edge, `point`), and no
    division by zero is left to warn about."""

    c: np.ndarray
    d: np.ndarray
    fall: np.ndarray  # (k,)
    sq: np.ndarray  # (k,)
    point: np.ndarray  # (k,) zero-length edges

    @classmethod
    def of(cls, c: np.ndarray, d: np.ndarray) -> Edges:
        fall = c[:, 1] - d[:, 1]
        v = d - c
        sq = v[:, 0] * v[:, 0] + v[:, 1] * v[:, 1]
        point = sq == 0
        return cls(c, d, np.where(fall == 0, 1.0, fall), np.where(point, 1.0, sq), point)

    @classmethod
    def join(cls, parts: list[Edges]) -> Edges:
        return cls(*(np.concatenate([getattr(p, f.name) for p in parts]) for f in fields(cls)))


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

    @cached_property
    def centre(self) -> XY:
        n = len(self.ring)
        return (sum(x for x, _ in self.ring) / n, sum(y for _, y in self.ring) / n)

    def distance(self, p: XY) -> float:
        """Distance from p to the ring (0 inside)."""
        if self.contains(p):
            return 0.0
        px, py = p
        best = math.inf
        cx, cy = self.ring[-1]
        for dx, dy in self.ring:
            vx, vy = dx - cx, dy - cy
            n = vx * vx + vy * vy
            t = 0.0 if n == 0 else max(0.0, min(1.0, ((px - cx) * vx + (py - cy) * vy) / n))
            best = min(best, math.hypot(px - cx - t * vx, py - cy - t * vy))
            cx, cy = dx, dy
        return best

    @cached_property
    def _edges(self) -> Edges:
        """The ring's edges as arrays (`Edges`)."""
        ring = np.asarray(self.ring, dtype=float)
        return Edges.of(np.roll(ring, 1, axis=0), ring)

    def distances(self, pts: np.ndarray) -> np.ndarray:
        """`distance` of each row of pts (n, 2) at once."""
        e = self._edges
        (cx, cy), (dx, dy) = e.c.T[:, None, :], e.d.T[:, None, :]  # (1, edges)
        px, py = pts[:, 0, None], pts[:, 1, None]
        vx, vy = dx - cx, dy - cy
        t = np.where(e.point, 0.0, np.clip(((px - cx) * vx + (py - cy) * vy) / e.sq, 0.0, 1.0))
        d = np.hypot(px - cx - t * vx, py - cy - t * vy).min(axis=1)
        return np.where(self.contains_many(pts), 0.0, d)

    def contains_many(self, pts: np.ndarray) -> np.ndarray:
        """`contains` of each row of pts (n, 2) at once (the same crossing count)."""
        e = self._edges
        (xj, yj), (xi, yi) = e.c.T[:, None, :], e.d.T[:, None, :]
        x, y = pts[:, 0, None], pts[:, 1, None]
        x0, y0, x1, y1 = self.box
        straddle = (yi > y) != (yj > y)
        cross = straddle & (x < (xj - xi) * (y - yi) / e.fall + xi)
        inside = cross.sum(axis=1) % 2 == 1
        boxed = (x0 <= pts[:, 0]) & (pts[:, 0] <= x1) & (y0 <= pts[:, 1]) & (pts[:, 1] <= y1)
        return inside & boxed

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
        return self.meets_ring(ax, ay, bx, by)

    def meets_ring(self, ax: float, ay: float, bx: float, by: float) -> bool:
        """`meets_boundary` without its bounding-box test (for callers that made it)."""
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
        # terrain an unseen unit may hide in (sight decision Q31: LOS-blocking ground, dug-in)
        self.concealing = [
            p for p in self.patches if p.row.blocks_los or p.row.id in ("foxholes", "bunkers")
        ]
        self._cover: dict[tuple[float, float, bool], tuple[int, str | None]] = {}
        self._fields: dict[tuple[XY, bool], list[list[float]]] = {}
        self._field_arrays: dict[tuple, np.ndarray] = {}
        self._costs: dict[tuple[float, float, bool], list[list[float]]] = {}
        self._ground: dict[tuple, Any] = {}  # path -> (fraction, penalties) or CLOSED
        self._routes: dict[tuple, tuple[tuple[XY, ...], float]] = {}
        self._pairs: dict[tuple[float, float, float, float], bool] = {}  # sight of few pairs
        self._inside: dict[XY, frozenset[int]] = {}  # point -> patches holding it

    def cover(self, x: float, y: float, vehicle: bool) -> int:
        """The best chart modifier protecting a unit here (AT column for vehicles, SA else)."""
        return self._protection(x, y, vehicle)[0]

    def cover_row(self, x: float, y: float, vehicle: bool) -> str | None:
        """The chart row behind `cover` (the one a shot at a unit here would use)."""
        return self._protection(x, y, vehicle)[1]

    def _protection(self, x: float, y: float, vehicle: bool) -> tuple[int, str | None]:
        """(`cover`, `cover_row`) here, memoised: the first patch holding the point among
        those that protect, best first (of equals, the first in the terrain's order)."""
        return self.protections([(x, y)], vehicle)[0]

    def protections(self, points, vehicle: bool) -> list[tuple[int, str | None]]:
        """`_protection` of each (x, y) of `points`, in one call (a destination list's rows:
        the memo and the patches are looked up once, not once a point)."""
        memo, protecting = self._cover, self._protecting[vehicle]
        out = []
        for x, y in points:
            key = (x, y, vehicle)
            hit = memo.get(key)
            if hit is None:
                if len(memo) >= MEMO_SIZE:
                    memo.clear()
                hit = (0, None)
                for v, (x0, y0, x1, y1), p in protecting:
                    if x0 <= x <= x1 and y0 <= y <= y1 and p.contains((x, y)):
                        hit = (v, p.row.id)
                        break
                memo[key] = hit
            out.append(hit)
        return out

    @cached_property
    def _protecting(self) -> dict[bool, list[tuple[int, tuple, Patch]]]:
        """For vehicles (True) and infantry: (modifier, box, patch) of each patch with a
        positive modifier in its chart column (AT, SA), the best first, ties in order."""
        out = {}
        for vehicle in (True, False):
            rows = [(p.row.at if vehicle else p.row.sa, p.box, p) for p in self.patches]
            out[vehicle] = sorted([r for r in rows if (r[0] or 0) > 0], key=lambda r: -r[0])
        return out

    @cached_property
    def _concealing_edges(self) -> tuple[Edges, np.ndarray]:
        """The concealing patches' edges in one `Edges` and the index of each patch's first
        edge."""
        starts = np.cumsum([0] + [len(p.ring) for p in self.concealing])[:-1]
        return Edges.join([p._edges for p in self.concealing]), starts

    def concealing_distances(self, pts: np.ndarray) -> np.ndarray:
        """(n, concealing patches): `Patch.distances` of each point to each concealing patch,
        all patches at once (the same sums per edge, the least per patch)."""
        e, starts = self._concealing_edges
        (cx, cy), (dx, dy) = e.c.T[:, None, :], e.d.T[:, None, :]
        px, py = pts[:, 0, None], pts[:, 1, None]
        vx, vy = dx - cx, dy - cy
        t = np.where(e.point, 0.0, np.clip(((px - cx) * vx + (py - cy) * vy) / e.sq, 0.0, 1.0))
        cross = ((dy > py) != (cy > py)) & (px < (cx - dx) * (py - dy) / e.fall + dx)
        near = np.minimum.reduceat(np.hypot(px - cx - t * vx, py - cy - t * vy), starts, axis=1)
        odd = np.add.reduceat(cross, starts, axis=1) % 2 == 1
        box = np.asarray([p.box for p in self.concealing], dtype=float)
        x, y = pts[:, 0, None], pts[:, 1, None]
        boxed = (box[:, 0] <= x) & (x <= box[:, 2]) & (box[:, 1] <= y) & (y <= box[:, 3])
        return np.where(odd & boxed, 0.0, near)

    @cached_property
    def _table(self) -> Table:
        """The blockers as a geometry table: the bot's sight approximation is the geometry
        layer's rule with hills read as flat blockers (heights are not compared), each
        widened by GRAZE so that a line grazing a corner or running along an edge counts as
        blocked (decision Q44)."""
        xs = [x for p in self.blockers for x, _ in p.ring] or [0.0]
        ys = [y for p in self.blockers for _, y in p.ring] or [0.0]
        features = [
            Feature(p.id, "blocker", Polygon(p.ring).buffer(GRAZE, join_style="mitre"), {})
            for p in self.blockers
        ]
        return Table(max(xs), max(ys), Unit.INCH, features, hill_kinds=())

    def los_matrix(
        self, frm: np.ndarray, to: np.ndarray, want: np.ndarray | None = None
    ) -> np.ndarray:
        """`los` between every row of frm (n, 2) and every row of to (m, 2), as an (n, m) array;
        with `want` (n, m), only the pairs it marks are worked out (the others read True).
        A few pairs are looked up in a memo of pairs first (units that stand still are looked
        at again and again); many are worked out at once (`visible_many`)."""
        n, m = len(frm), len(to)
        out = np.ones(n * m, dtype=bool)
        if not self.blockers or not n or not m:
            return out.reshape(n, m)
        pairs = np.arange(n * m) if want is None else np.nonzero(want.ravel())[0]
        fi, ti = pairs // m, pairs % m
        if len(pairs) > FEW_PAIRS:
            out[pairs] = visible_many(self._table, frm[fi], to[ti], SIGHT.blocks)
            return out.reshape(n, m)
        a, b = frm.tolist(), to.tolist()
        keys = [(*a[i], *b[j]) for i, j in zip(fi.tolist(), ti.tolist(), strict=True)]
        seen = [self._pairs.get(k) for k in keys]
        todo = [k for k, s in enumerate(seen) if s is None]
        if todo:
            if len(self._pairs) >= MEMO_SIZE:
                self._pairs.clear()
            if len(todo) < SCALAR_PAIRS:  # the same answers, without the arrays' set-up
                ends = [(tuple(a[fi[k]]), tuple(b[ti[k]])) for k in todo]
                fresh = [visible(self._table, p, q, SIGHT) for p, q in ends]
            else:
                fresh = visible_many(self._table, frm[fi[todo]], to[ti[todo]], SIGHT.blocks)
                fresh = fresh.tolist()
            for k, clear in zip(todo, fresh, strict=True):
                seen[k] = self._pairs[keys[k]] = clear
        out[pairs[~np.asarray(seen, dtype=bool)]] = False
        return out.reshape(n, m)

    def los(self, a: XY, b: XY) -> bool:
        """Approximate sight from a to b, one pair (the rule `los_matrix` works out in
        batches): blocked by a LOS-blocking feature or a hill that the line passes through,
        except where an end stands in it (heights are not compared)."""
        return not self.blockers or visible(self._table, a, b, SIGHT)

    def reach(self, a: XY, b: XY, vehicle: bool, cap: float, moved: float) -> float:
        """How far along a->b this unit may go now (0 if the path is closed to it), following
        the chart's movement fractions and penalties conservatively (no road bonus)."""
        length = math.dist(a, b)
        if length < 1e-9:
            return 0.0
        limit = _allowed(self._ground_for((a, b), vehicle), cap, moved)
        return 0.0 if limit is None else max(0.0, min(length, limit))

    def reaches(
        self, a: XY, ends: list[XY], vehicle: bool, cap: float, moved: float
    ) -> list[float]:
        """`reach` along a->b for each b of `ends` (a unit's straight lines: the
        patches they may cross, those whose box meets the box round all of them, and the
        patches a stands in are looked up once)."""
        memo = self._ground
        xs, ys = [a[0], *(x for x, _ in ends)], [a[1], *(y for _, y in ends)]
        x0, y0, x1, y1 = min(xs), min(ys), max(xs), max(ys)
        boxed = [
            b
            for b in self._boxed
            if not (x1 < b[1][0] or x0 > b[1][2] or y1 < b[1][1] or y0 > b[1][3])
        ]
        inside = self._holding(a)
        out = []
        for b in ends:
            length = math.dist(a, b)
            if length < 1e-9:
                out.append(0.0)
                continue
            key = ((a, b), vehicle)
            ground = memo.get(key)
            if ground is None:  # `_ground_for`'s memo, filled alike
                if len(memo) >= MEMO_SIZE:
                    memo.clear()
                crossed = self._crossed(a, b, boxed, inside)
                ground = memo[key] = self._ground_of(crossed, vehicle)
            limit = _allowed(ground, cap, moved)
            out.append(0.0 if limit is None else max(0.0, min(length, limit)))
        return out

    def path_limit(self, path: list[XY], vehicle: bool, cap: float, moved: float) -> float | None:
        """The length this unit may travel on `path` now: the slowest chart fraction of the
        ground it crosses and each crossed feature's penalty, conservatively (no road bonus);
        None where the path crosses ground closed to it."""
        return _allowed(self._ground_for(tuple(path), vehicle), cap, moved)

    def _ground_for(self, path: tuple[XY, ...], vehicle: bool):
        """(slowest fraction, summed penalties) of the ground a path crosses, or CLOSED
        (memoised by path)."""
        key = (path, vehicle)
        ground = self._ground.get(key)
        if ground is None:
            if len(self._ground) >= MEMO_SIZE:
                self._ground.clear()
            crossed: list[int] | set[int]
            if len(path) == 2:  # most paths: one straight segment
                crossed = self._crossed(path[0], path[1])
            else:
                crossed = set()
                for a, b in zip(path, path[1:], strict=False):
                    crossed.update(self._crossed(a, b))
            ground = self._ground[key] = self._ground_of(crossed, vehicle)
        return ground

    @staticmethod
    def _closed(p: Patch) -> bool:
        return (p.row.vehicles_prohibited or p.row.id == "stream") and not p.ford

    def _cell_cost(self, x: float, y: float, vehicle: bool) -> float:
        """Cost of an inch of travel here (inf where the unit may not go, or for vehicles
        within MARGIN of ground closed to them, so that grid steps cannot clip it)."""
        cost = 1.0
        for p in self.patches:
            closed = vehicle and self._closed(p)
            if not (p.contains((x, y)) or (closed and p.distance((x, y)) < MARGIN)):
                continue
            if closed:
                return math.inf
            frac = p.row.move_fraction_vehicle if vehicle else p.row.move_fraction_infantry
            pen = p.row.move_penalty_vehicle if vehicle else p.row.move_penalty_infantry
            cost = max(cost, 1.0 / max(frac, 0.05) + pen)
        return cost

    def _cost_grid(self, width: float, depth: float, vehicle: bool) -> list[list[float]]:
        key = (width, depth, vehicle)
        grid = self._costs.get(key)
        if grid is None:
            nx, ny = int(width) + 1, int(depth) + 1
            grid = [[self._cell_cost(i, j, vehicle) for j in range(ny)] for i in range(nx)]
            self._costs[key] = grid
        return grid

    def path_distances(
        self, pts: np.ndarray, goal: XY, width: float, depth: float, vehicle: bool
    ) -> np.ndarray:
        """Travel distance from each row of pts (n, 2) to goal around closed ground (the
        Dijkstra field of `_field` at the nearest grid point; 3 times the straight distance
        where the goal cannot be reached)."""
        key = (goal, width, depth, vehicle)
        field = self._field_arrays.get(key)
        if field is None:
            field = self._field_arrays[key] = np.asarray(self._field(goal, width, depth, vehicle))
        nx, ny = field.shape
        i = np.clip(np.round(pts[:, 0]), 0, nx - 1).astype(int)
        j = np.clip(np.round(pts[:, 1]), 0, ny - 1).astype(int)
        d = field[i, j]
        straight = np.hypot(pts[:, 0] - goal[0], pts[:, 1] - goal[1]) * 3
        return np.where(d < math.inf, d, straight)

    def route(
        self, a: XY, goal: XY, width: float, depth: float, vehicle: bool, cap: float, moved: float
    ) -> tuple[tuple[XY, ...], float]:
        """Grid points from a down the travel-distance field towards goal (a way around closed
        ground, e.g. between buildings), cut to the longest start that `path_limit` allows,
        and the length of that path from a; no points when no step towards the goal fits
        (memoised)."""
        key = (a, goal, width, depth, vehicle, cap, moved)
        hit = self._routes.get(key)
        if hit is None:
            if len(self._routes) >= MEMO_SIZE:
                self._routes.clear()
            hit = self._routes[key] = self._route(a, goal, width, depth, vehicle, cap, moved)
        return hit

    def _route(self, a, goal, width, depth, vehicle, cap, moved) -> tuple[tuple[XY, ...], float]:
        field = self._field(goal, width, depth, vehicle)
        cost = self._cost_grid(width, depth, vehicle)
        nx, ny = len(field), len(field[0])
        i, j = min(max(round(a[0]), 0), nx - 1), min(max(round(a[1]), 0), ny - 1)
        pts: list[XY] = [(float(i), float(j))] if math.dist(a, (i, j)) > 1e-6 else []
        length = math.dist(a, (i, j))
        while length < cap:
            best = None
            for di, dj in _STEPS:
                k, m = i + di, j + dj
                if (
                    0 <= k < nx
                    and 0 <= m < ny
                    and field[k][m] < field[i][j]
                    and (best is None or field[k][m] < field[best[0]][best[1]])
                ):
                    best = (k, m)
            if best is None or cost[best[0]][best[1]] == math.inf:
                break
            length += math.hypot(best[0] - i, best[1] - j)
            i, j = best
            pts.append((float(i), float(j)))
        # the longest start of the walk that `path_limit` allows, each start's crossed patches
        # and length built up segment by segment (the same sets and sums, in the same order)
        crossed: set[int] = set()
        starts: list[tuple[frozenset[int], float]] = []
        travelled = 0
        for s0, s1 in zip([a, *pts], pts, strict=False):
            crossed.update(self._crossed(s0, s1))
            travelled += math.dist(s0, s1)
            starts.append((frozenset(crossed), travelled))
        for n in range(len(pts), 0, -1):
            limit = _allowed(self._ground_of(starts[n - 1][0], vehicle), cap, moved)
            if limit is not None and starts[n - 1][1] <= limit:
                return tuple(pts[:n]), starts[n - 1][1]
        return (), 0.0

    def _crossed(self, a: XY, b: XY, boxed=None, inside=None) -> list[int]:
        """Indexes, in order, of the patches segment a-b crosses or starts in
        (`Patch.crosses`; a patch whose box the segment's misses is neither). `boxed`: the
        entries of `_boxed` that may be crossed (all if None); `inside`: `_holding(a)`."""
        ax, ay = a
        bx, by = b
        lo_x, hi_x = (ax, bx) if ax < bx else (bx, ax)
        lo_y, hi_y = (ay, by) if ay < by else (by, ay)
        if inside is None:
            inside = self._holding(a)
        out = []
        for j, (x0, y0, x1, y1), p in self._boxed if boxed is None else boxed:
            if hi_x < x0 or lo_x > x1 or hi_y < y0 or lo_y > y1:
                continue
            if j in inside or p.meets_ring(ax, ay, bx, by):
                out.append(j)
        return out

    @cached_property
    def _boxed(self) -> list[tuple[int, tuple[float, float, float, float], Patch]]:
        """(index, bounding box, patch) of each patch, for `_crossed`'s loop."""
        return [(j, p.box, p) for j, p in enumerate(self.patches)]

    def _holding(self, at: XY) -> frozenset[int]:
        """Indexes of the patches that contain the point (memoised: the paths a unit is
        weighed on all start where it stands)."""
        hit = self._inside.get(at)
        if hit is None:
            if len(self._inside) >= MEMO_SIZE:
                self._inside.clear()
            hit = self._inside[at] = frozenset(
                j for j, p in enumerate(self.patches) if p.contains(at)
            )
        return hit

    def _ground_of(self, crossed: list[int] | set[int] | frozenset[int], vehicle: bool):
        """(slowest fraction, summed penalties) of the patches `crossed` (by index, taken in
        the patches' order), or CLOSED if one is closed to the unit."""
        fraction, flat = 1.0, 0.0
        for j in sorted(crossed):
            p = self.patches[j]
            if vehicle and self._closed(p):
                return CLOSED
            frac = p.row.move_fraction_vehicle if vehicle else p.row.move_fraction_infantry
            fraction = min(fraction, frac)
            flat += p.row.move_penalty_vehicle if vehicle else p.row.move_penalty_infantry
        return fraction, flat

    def _field(self, goal: XY, width: float, depth: float, vehicle: bool) -> list[list[float]]:
        """Travel distance to goal from every grid point (memoised per goal and kind)."""
        key = (goal, vehicle)
        field = self._fields.get(key)
        if field is not None:
            return field
        nx, ny = int(width) + 1, int(depth) + 1
        cost = self._cost_grid(width, depth, vehicle)
        field = [[math.inf] * ny for _ in range(nx)]
        gi, gj = min(max(round(goal[0]), 0), nx - 1), min(max(round(goal[1]), 0), ny - 1)
        field[gi][gj] = 0.0
        heap = [(0.0, gi, gj)]
        while heap:
            d, i, j = heapq.heappop(heap)
            if d > field[i][j]:
                continue
            for di, dj in _STEPS:
                k, m = i + di, j + dj
                if 0 <= k < nx and 0 <= m < ny and cost[k][m] < math.inf:
                    nd = d + math.hypot(di, dj) * (cost[i][j] + cost[k][m]) / 2
                    if nd < field[k][m]:
                        field[k][m] = nd
                        heapq.heappush(heap, (nd, k, m))
        self._fields[key] = field
        return field


def _allowed(ground, cap: float, moved: float) -> float | None:
    """`path_limit` from a path's ground ((fraction, penalties) or CLOSED: None)."""
    if ground is CLOSED:
        return None
    fraction, flat = ground
    return ((cap + moved) * fraction - flat - moved) * 0.97


_STEPS = [(di, dj) for di in (-1, 0, 1) for dj in (-1, 0, 1) if di or dj]
MARGIN = 0.8  # inches kept from ground closed to vehicles by the route grid
MEMO_SIZE = 200_000
SIGHT = SightRules(frozenset({"blocker"}))  # every blocker blocks; an end's own never
GRAZE = 0.01  # blockers widened by this much: a line grazing one counts as blocked
FEW_PAIRS = 128  # sight matrices this small are looked up pair by pair first
# new pairs fewer than this are worked out one line at a time (`geometry.visible`, the same
# answer as `visible_many`): a batch's array set-up costs about as much as a dozen lines
SCALAR_PAIRS = 16
CLOSED = "closed"
_SHARED: dict[str, ViewTerrain] = {}


def view_terrain(features: list[dict[str, Any]]) -> ViewTerrain:
    """The ViewTerrain of a view's terrain list, shared by every bot of the process (its
    grids and sight memo are worked out once per table, not once per battle)."""
    key = json.dumps(features, sort_keys=True, default=str)
    vt = _SHARED.get(key)
    if vt is None:
        if len(_SHARED) >= 16:
            _SHARED.clear()
        vt = _SHARED[key] = ViewTerrain(features)
    return vt
