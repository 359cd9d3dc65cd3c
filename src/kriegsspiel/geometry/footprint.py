"""Footprints (bases, hulls) with facing, distances, arcs and movement.

Convention: angles are compass bearings in degrees, 0 = +y ("up the table"), increasing
clockwise (90 = +x). A footprint's ``width`` runs across its facing, ``depth`` along it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Literal

from shapely import LineString, Polygon
from shapely.affinity import rotate, translate

Point = tuple[float, float]
Aspect = Literal["front", "side", "rear"]
EPS = 1e-9


def normalise(angle: float) -> float:
    """An angle in degrees folded into [0, 360)."""
    return angle % 360.0


def signed_angle(angle: float) -> float:
    """An angle in degrees folded into (-180, 180]."""
    a = normalise(angle)
    return a - 360.0 if a > 180.0 else a


def bearing(origin: Point, point: Point) -> float:
    """Compass bearing (0 = +y, clockwise) from ``origin`` to ``point``, in [0, 360)."""
    return normalise(math.degrees(math.atan2(point[0] - origin[0], point[1] - origin[1])))


def relative_bearing(origin: Point, facing: float, point: Point) -> float:
    """Bearing of ``point`` relative to ``facing`` seen from ``origin``, in (-180, 180]."""
    return signed_angle(bearing(origin, point) - facing)


def in_arc(origin: Point, facing: float, point: Point, half_angle: float) -> bool:
    """Whether ``point`` lies in the arc of ``half_angle`` either side of ``facing`` (inclusive)."""
    return abs(relative_bearing(origin, facing, point)) <= half_angle + EPS


@dataclass(frozen=True)
class Footprint:
    """A rectangular base or hull: centre, width (across), depth (along facing), facing."""

    x: float
    y: float
    width: float
    depth: float
    facing: float = 0.0

    @property
    def centre(self) -> Point:
        return (self.x, self.y)

    @cached_property
    def polygon(self) -> Polygon:
        """The footprint as a shapely polygon in table coordinates."""
        w, d = self.width / 2.0, self.depth / 2.0
        box = Polygon([(-w, -d), (w, -d), (w, d), (-w, d)])
        # shapely rotates counter-clockwise; compass facing is clockwise.
        return translate(rotate(box, -self.facing, origin=(0, 0)), self.x, self.y)

    def corners(self) -> list[Point]:
        """The four corners, counter-clockwise from rear-left."""
        return [(float(x), float(y)) for x, y in self.polygon.exterior.coords[:4]]

    def turned(self, degrees: float) -> Footprint:
        """This footprint turned in place by ``degrees`` clockwise."""
        return replace(self, facing=normalise(self.facing + degrees))

    def moved_to(self, point: Point, facing: float | None = None) -> Footprint:
        """This footprint with its centre at ``point`` (and optionally a new facing)."""
        return replace(
            self, x=point[0], y=point[1], facing=self.facing if facing is None else facing
        )


def distance(a: Footprint, b: Footprint) -> float:
    """Edge-to-edge distance between two footprints (0 if they touch or overlap)."""
    return float(a.polygon.distance(b.polygon))


def centre_distance(a: Footprint | Point, b: Footprint | Point) -> float:
    """Centre-to-centre distance."""
    (ax, ay), (bx, by) = _centre(a), _centre(b)
    return math.hypot(bx - ax, by - ay)


def aspect(
    shooter: Footprint | Point,
    target: Footprint,
    front_half_angle: float = 45.0,
    rear_half_angle: float = 45.0,
) -> Aspect:
    """Which of the target's arcs the shooter's centre is in.

    Front if within ``front_half_angle`` of the target's facing, rear if within
    ``rear_half_angle`` of its back; boundaries count as front (then rear), else side.
    """
    rel = abs(relative_bearing(target.centre, target.facing, _centre(shooter)))
    if rel <= front_half_angle + EPS:
        return "front"
    if rel >= 180.0 - rear_half_angle - EPS:
        return "rear"
    return "side"


def path_length(points: Sequence[Point]) -> float:
    """Length of a polyline (0 for fewer than two points)."""
    return float(LineString(points).length) if len(points) > 1 else 0.0


def move_along(
    footprint: Footprint, path: Sequence[Point], face_direction: bool = True
) -> tuple[Footprint, float]:
    """Move a footprint's centre through the waypoints ``path``.

    Returns the footprint at the last waypoint (facing along the last leg if
    ``face_direction``) and the distance travelled from its current centre.
    """
    points = [footprint.centre, *path]
    facing = footprint.facing
    if face_direction:
        for a, b in zip(points[-2::-1], points[:0:-1], strict=False):
            if a != b:
                facing = bearing(a, b)
                break
    return footprint.moved_to(points[-1], facing), path_length(points)


def turn_needed(footprint: Footprint, point: Point) -> float:
    """Signed turn (degrees, clockwise positive) to face ``point``."""
    return relative_bearing(footprint.centre, footprint.facing, point)


def _centre(item: Footprint | Point) -> Point:
    return item.centre if isinstance(item, Footprint) else (float(item[0]), float(item[1]))
