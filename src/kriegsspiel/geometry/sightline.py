"""One sight line at a time in plain arithmetic: the answer of the vectorised core
(:mod:`kriegsspiel.geometry.los`) without its per-call array and shapely overhead.

Every crossing and containment is settled by orientation tests whose values lie clearly away
from zero; where one does not (a point within a hair of an edge, a collinear stretch, a
height tie) the line is handed to the vectorised core, so both always agree.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

from kriegsspiel.geometry.footprint import Point as XY
from kriegsspiel.geometry.terrain import Table

TOUCH = 1e-7  # orientation products this close to 0 are left to the exact core
NEAR = 1e-6  # a point this close to an edge may touch it (left to the exact core)
EPS = 1e-9  # the core's tolerance on lengths and heights


@dataclass(frozen=True)
class _Shape:
    """A feature that matters to sight: its rings (areas; closed, last vertex not repeated) or
    polylines (lines), bounding box, role and height (``nan`` when it has none)."""

    rings: tuple[tuple[XY, ...], ...]
    box: tuple[float, float, float, float]
    area: bool
    hill: bool
    block: bool
    height: float

    @cached_property
    def plain(self) -> bool:
        """A blocker without height: any piece of it on the line blocks at every height."""
        return not self.hill and math.isnan(self.height)

    @cached_property
    def edges(self) -> tuple[tuple[float, ...], ...]:
        """Each edge as (start x, y, end x, y, run x, y): closed rings, open polylines."""
        out = []
        for ring in self.rings:
            if self.area:
                ends = zip(ring[-1:] + ring[:-1], ring, strict=True)
            else:
                ends = zip(ring[:-1], ring[1:], strict=True)
            out += [(cx, cy, dx, dy, dx - cx, dy - cy) for (cx, cy), (dx, dy) in ends]
        return tuple(out)


class Undecided(Exception):
    """A point lies within a hair of an edge: the exact core must decide."""


class SightLines:
    """Scalar sight over one table under one :class:`~kriegsspiel.geometry.los.SightRules`
    (built once per table and rules by :func:`sight_lines`)."""

    def __init__(self, table: Table, blocking, see_into: float, own_depth, crest: bool):
        self.table = table
        self.see_into = see_into
        self.own = math.inf if own_depth is None else own_depth
        self.crest = crest
        shapes: dict[int, _Shape | None] = {}
        for i, f in enumerate(table.features):
            hill, block = bool(table.is_hill[i]), bool(blocking[i])
            if hill or block:
                area = bool(table.is_area[i])
                shapes[i] = _shape(f.geometry, area, hill, block, table.heights[i])
        self.exact = None not in shapes.values()  # every shape is one we can walk
        # plain blockers (no height) first: one met settles a line without the ground heights
        walk = [s for s in shapes.values() if s is not None]
        self.shapes = [s for s in walk if s.plain] + [s for s in walk if not s.plain]
        self.hills = [s for s in shapes.values() if s is not None and s.hill]
        # each shape's box widened by NEAR, for the scalar walk's first test
        self.boxed = [
            (s.box[0] - NEAR, s.box[1] - NEAR, s.box[2] + NEAR, s.box[3] + NEAR, s)
            for s in self.shapes
        ]
        self.settled: dict[tuple, bool] = {}  # the exact core's answers (`los._settled`)
        from kriegsspiel.geometry.sightbatch import SightBatch  # it imports our constants

        self.batch = SightBatch(walk, see_into, self.own, crest) if self.exact else None

    def visible(self, a: XY, b: XY, ha: float, hb: float) -> bool | None:
        """Whether the line a→b is clear (eyes ``ha``/``hb`` above the ground), or None
        where the exact core must decide."""
        if not self.exact or (a[0] == b[0] and a[1] == b[1]):
            return None
        try:
            return self._visible(a, b, ha, hb)
        except Undecided:
            return None

    def ground(self, p: XY) -> float:
        """Ground height at p: the highest hill holding it (on its edge: Undecided)."""
        x, y = p
        top = 0.0
        for s in self.hills:
            x0, y0, x1, y1 = s.box
            if (
                x0 - NEAR <= x <= x1 + NEAR
                and y0 - NEAR <= y <= y1 + NEAR
                and _holds(s, x, y, True)
            ):
                top = max(top, s.height)
        return top

    def _visible(self, a: XY, b: XY, ha: float, hb: float) -> bool:
        ax, ay = a
        bx, by = b
        ux, uy = bx - ax, by - ay
        lo_x, hi_x = (ax, bx) if ax < bx else (bx, ax)
        lo_y, hi_y = (ay, by) if ay < by else (by, ay)
        length = math.hypot(ux, uy)
        slack = NEAR * length
        later = []  # hills and tall features: they need the ground heights
        simple = self.see_into == 0 and self.own == math.inf
        for px0, py0, px1, py1, s in self.boxed:
            if hi_x < px0 or lo_x > px1 or hi_y < py0 or lo_y > py1:
                continue
            # the line's side of each corner of the box: all on one side, it misses the box
            x0, y0, x1, y1 = s.box
            c1 = ux * (y0 - ay) - uy * (x0 - ax)
            c2 = ux * (y0 - ay) - uy * (x1 - ax)
            c3 = ux * (y1 - ay) - uy * (x0 - ax)
            c4 = ux * (y1 - ay) - uy * (x1 - ax)
            if c1 > slack:
                if c2 > slack and c3 > slack and c4 > slack:
                    continue
            elif c1 < -slack and c2 < -slack and c3 < -slack and c4 < -slack:
                continue
            pieces = _pieces(s, ax, ay, bx, by, length)
            if not pieces:
                continue
            if not s.plain:
                later.append((s, pieces))
                continue
            for t0, t1 in pieces:  # a plain blocker needs no heights: it settles at once
                if simple and s.area:  # `_blocks` with nothing ignored but an end's own area
                    if t0 > EPS and t1 < length - EPS and t1 - t0 > EPS:
                        return False
                elif self._blocks(s, t0, t1, length, a, b, 0.0, 0.0, 0.0, 0.0):
                    return False
        if not later:
            return True
        ga, gb = self.ground(a), self.ground(b)
        za, zb = ga + ha, gb + hb
        for s, pieces in later:
            for t0, t1 in pieces:
                if self._blocks(s, t0, t1, length, a, b, ga, gb, za, zb):
                    return False
        return True

    def _blocks(self, s: _Shape, t0, t1, length, a, b, ga, gb, za, zb) -> bool:
        """Whether one piece [t0, t1] (distances along the line) of a shape blocks: the
        core's rule (`los._evaluate`) for one (line, feature) piece."""
        if s.hill:
            lo, hi = min(max(t0, 0.0), length), min(max(t1, 0.0), length)
            z = min(_z(za, zb, lo, length), _z(za, zb, hi, length))
            if self.crest:
                return ga < s.height - EPS and gb < s.height - EPS and z <= s.height + EPS
            return _below(z, s.height)
        lo, hi = max(t0, self.see_into), min(t1, length - self.see_into)
        if s.area:
            if t0 <= EPS:
                lo = max(lo, self.own)
            if t1 >= length - EPS:
                hi = min(hi, length - self.own)
            if hi - lo <= EPS:
                return False
        elif not (t0 > self.see_into + EPS and t1 < length - self.see_into - EPS):
            return False
        if math.isnan(s.height):
            return True
        lo, hi = min(max(lo, 0.0), length), min(max(hi, 0.0), length)
        f = (lo + hi) / 2 / length
        top = s.height + self.ground((a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f))
        return _below(min(_z(za, zb, lo, length), _z(za, zb, hi, length)), top)


def _z(za: float, zb: float, t: float, length: float) -> float:
    return za + (zb - za) * (t / length)


def _below(z: float, top: float) -> bool:
    """The core's comparison (strictly below, by more than EPS); a near tie is Undecided."""
    if abs(z - top) <= 2 * EPS:
        raise Undecided
    return z < top - EPS


def _shape(geometry, area: bool, hill: bool, block: bool, height: float) -> _Shape | None:
    kind = geometry.geom_type
    if kind == "Polygon":
        polys = [geometry]
    elif kind == "MultiPolygon":
        polys = list(geometry.geoms)
    elif kind == "LineString":
        return _Shape((tuple(geometry.coords),), geometry.bounds, False, hill, block, float(height))
    else:
        return None
    rings = tuple(tuple(r.coords)[:-1] for p in polys for r in (p.exterior, *p.interiors))
    return _Shape(rings, geometry.bounds, area, hill, block, float(height))


def _holds(s: _Shape, x: float, y: float, careful: bool = False) -> bool:
    """Even-odd containment of (x, y) in an area's rings; ``careful``: Undecided near an
    edge (else the caller's orientation tests have ruled that out)."""
    inside = False
    for ring in s.rings:
        cx, cy = ring[-1]
        for dx, dy in ring:
            if careful:
                vx, vy = dx - cx, dy - cy  # off the edge's line by more than NEAR: not near
                off = vx * (y - cy) - vy * (x - cx)
                if abs(off) < NEAR * (abs(vx) + abs(vy) + 1.0) and _near(
                    (x, y), (cx, cy), (dx, dy)
                ):
                    raise Undecided
            if (cy > y) != (dy > y) and x < (dx - cx) * (y - cy) / (dy - cy) + cx:
                inside = not inside
            cx, cy = dx, dy
    return inside


def _pieces(s: _Shape, ax, ay, bx, by, length) -> list[tuple[float, float]]:
    """The stretches [t0, t1] (distances from a) of the segment a-b inside an area, or the
    points [t, t] where it crosses a line feature; Undecided where it grazes an edge."""
    ts = []
    ux, uy = bx - ax, by - ay
    inside = False  # a's even-odd count (areas)
    area = s.area
    # an edge whose ends both lie more than 2 NEAR to one side of the line's extension can
    # neither cross the line nor come within NEAR of an end: skipped before the other tests
    far = 2 * NEAR * length
    for cx, cy, dx, dy, vx, vy in s.edges:
        if area and (cy > ay) != (dy > ay) and ax < vx * (ay - cy) / vy + cx:
            inside = not inside
        d3 = ux * (cy - ay) - uy * (cx - ax)
        d4 = ux * (dy - ay) - uy * (dx - ax)
        if d3 > far:
            if d4 > far:
                continue
        elif d3 < -far and d4 < -far:
            continue
        d1 = vx * (ay - cy) - vy * (ax - cx)
        d2 = vx * (by - cy) - vy * (bx - cx)
        if d1 > TOUCH:
            if d2 > TOUCH:
                continue  # both ends clearly on one side of this edge's line
        elif d1 < -TOUCH and d2 < -TOUCH:
            continue
        if min(abs(d1), abs(d2), abs(d3), abs(d4)) < TOUCH:
            if (
                (abs(d1) < TOUCH and _near((ax, ay), (cx, cy), (dx, dy)))
                or (abs(d2) < TOUCH and _near((bx, by), (cx, cy), (dx, dy)))
                or (abs(d3) < TOUCH and _near((cx, cy), (ax, ay), (bx, by)))
                or (abs(d4) < TOUCH and _near((dx, dy), (ax, ay), (bx, by)))
            ):
                raise Undecided
        elif (d3 > 0) != (d4 > 0):
            ts.append(d1 / (d1 - d2) * length)
    if not s.area:
        return [(t, t) for t in sorted(ts)]
    if not ts and not inside:
        return []
    ts.sort()
    bounds = ([0.0] if inside else []) + ts + ([length] if (len(ts) + inside) % 2 else [])
    return list(zip(bounds[::2], bounds[1::2], strict=True))


def _near(p: XY, s0: XY, s1: XY) -> bool:
    """Whether point p lies within NEAR of the segment s0-s1."""
    vx, vy = s1[0] - s0[0], s1[1] - s0[1]
    n = vx * vx + vy * vy
    t = 0.0 if n == 0 else max(0.0, min(1.0, ((p[0] - s0[0]) * vx + (p[1] - s0[1]) * vy) / n))
    return math.hypot(p[0] - s0[0] - t * vx, p[1] - s0[1] - t * vy) < NEAR
