"""Movement along a path: the point at a distance or fraction of it (backtracking along a
move), the turns a footprint makes at its waypoints (pivots, which rulesets charge for), and
the area a moving footprint sweeps (what a hull passes over or through)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import shapely
from shapely import Polygon

from kriegsspiel.geometry.footprint import Footprint, Point, bearing, signed_angle

PIVOT_STEP = 15.0  # degrees: a pivot's sweep is built from footprints this far apart


@dataclass(frozen=True)
class PathPoint:
    """A point on a path: where, the bearing of the leg it is on, and the distance along."""

    point: Point
    heading: float | None  # None for a path of one point (or of legs of zero length)
    distance: float


def point_along(path: Sequence[Point], distance: float) -> PathPoint:
    """The point ``distance`` along a polyline from its start, clamped to [0, length]."""
    pts = [(float(x), float(y)) for x, y in path]
    if not pts:
        raise ValueError("a path needs at least one point")
    travelled, heading = 0.0, None
    target = max(0.0, distance)
    for a, b in zip(pts, pts[1:], strict=False):
        leg = math.dist(a, b)
        if leg == 0:
            continue
        heading = bearing(a, b)
        if travelled + leg >= target:
            f = (target - travelled) / leg
            at = (a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f)
            return PathPoint(at, heading, target)
        travelled += leg
    return PathPoint(pts[-1], heading, travelled)


def point_at_fraction(path: Sequence[Point], fraction: float) -> PathPoint:
    """The point at ``fraction`` (clamped to [0, 1]) of a polyline's length: e.g. where a
    move is stopped, or where a unit is put back along the path it came."""
    length = sum(math.dist(a, b) for a, b in zip(path, path[1:], strict=False))
    return point_along(path, min(max(fraction, 0.0), 1.0) * length)


def turns(
    footprint: Footprint, path: Sequence[Point], end_facing: float | None = None
) -> list[float]:
    """The signed turns (degrees, clockwise positive, each in (-180, 180]) a footprint makes
    moving through ``path`` facing along each leg: one before each leg of positive length,
    and one at the end to ``end_facing`` if given. Their sum is the net change of facing."""
    facing, out = footprint.facing, []
    points = [footprint.centre, *path]
    for a, b in zip(points, points[1:], strict=False):
        if math.dist(a, b) == 0:
            continue
        leg = bearing(a, b)
        out.append(signed_angle(leg - facing))
        facing = leg
    if end_facing is not None:
        out.append(signed_angle(end_facing - facing))
    return out


def pivot_sweep(footprint: Footprint, turn: float, step: float = PIVOT_STEP) -> Polygon:
    """The area a footprint covers turning in place by ``turn`` degrees: the union of the
    hulls of its positions at most ``step`` degrees apart (its corners' arcs, by chords)."""
    k = max(1, math.ceil(abs(turn) / step))
    poses = [footprint.turned(turn * i / k) for i in range(k + 1)]
    if k == 1 and turn == 0:
        return footprint.polygon
    return _union_of_hulls(poses)


def swept(
    footprint: Footprint,
    path: Sequence[Point],
    end_facing: float | None = None,
    step: float = PIVOT_STEP,
) -> Polygon:
    """The area a footprint covers moving through ``path``: pivoting in place to face each
    leg, moving straight along it (the hull of its start and end positions), and pivoting to
    ``end_facing`` at the end if given."""
    parts = [footprint.polygon]
    here = footprint
    points = [footprint.centre, *path]
    for a, b in zip(points, points[1:], strict=False):
        if math.dist(a, b) == 0:
            continue
        leg = bearing(a, b)
        parts.append(pivot_sweep(here, signed_angle(leg - here.facing), step))
        here = here.moved_to(a, leg)
        there = here.moved_to(b)
        parts.append(_union_of_hulls([here, there]))
        here = there
    if end_facing is not None:
        parts.append(pivot_sweep(here, signed_angle(end_facing - here.facing), step))
    return shapely.union_all(parts)


def _union_of_hulls(poses: list[Footprint]) -> Polygon:
    hulls = [
        shapely.convex_hull(shapely.union(p.polygon, q.polygon))
        for p, q in zip(poses, poses[1:], strict=False)
    ]
    return shapely.union_all(hulls) if hulls else poses[0].polygon
