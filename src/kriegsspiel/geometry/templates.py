"""Area templates laid on the table (rings, cones, rectangles: blast templates, MG cones,
beaten zones), what lies under them, and scatter (a direction die and a distance) as plain
functions of die results, so that the chance layer can enumerate them exactly."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Literal

import shapely
from shapely import Polygon

from kriegsspiel.geometry.footprint import Footprint, Point

ARC_STEP = 2.0  # degrees between the vertices approximating an arc
Under = Literal["touch", "centre"]


def ring(centre: Point, outer: float, inner: float = 0.0) -> Polygon:
    """A disc of radius ``outer`` about ``centre``, with a hole of radius ``inner`` if > 0."""
    if not 0 <= inner < outer:
        raise ValueError(f"ring radii must satisfy 0 <= inner < outer, got {inner}, {outer}")
    disc = Polygon(_arc(centre, outer, 0.0, 360.0)[:-1])
    if inner == 0:
        return disc
    return shapely.difference(disc, Polygon(_arc(centre, inner, 0.0, 360.0)[:-1]))


def cone(
    apex: Point, facing: float, half_angle: float, length: float, near: float = 0.0
) -> Polygon:
    """A sector from ``apex`` along compass bearing ``facing``, ``half_angle`` degrees either
    side, from distance ``near`` out to ``length`` (an MG's cone of fire, a flame template)."""
    if not 0 < half_angle < 180 or not 0 <= near < length:
        raise ValueError("a cone needs 0 < half_angle < 180 and 0 <= near < length")
    far = _arc(apex, length, facing - half_angle, facing + half_angle)
    inside = [apex] if near == 0 else _arc(apex, near, facing + half_angle, facing - half_angle)
    return Polygon(far + inside)


def rectangle(origin: Point, facing: float, width: float, length: float) -> Polygon:
    """A rectangle ``width`` across, reaching ``length`` from ``origin`` along ``facing`` (a
    beaten zone laid from where the fire falls, a barrage sheaf)."""
    d = math.radians(facing)
    mid = (origin[0] + math.sin(d) * length / 2, origin[1] + math.cos(d) * length / 2)
    return Footprint(mid[0], mid[1], width, length, facing).polygon


def under(template: Polygon, footprints: Sequence[Footprint], how: Under = "touch") -> list[int]:
    """Indexes of the footprints under a template: any part of the base (``"touch"``) or
    its centre (``"centre"``); the edge counts as under."""
    if how == "centre":
        geoms = shapely.points([f.centre for f in footprints])
    else:
        geoms = [f.polygon for f in footprints]
    hit = shapely.intersects(template, geoms) if len(footprints) else []
    return [i for i, h in enumerate(hit) if h]


def share_under(template: Polygon, footprint: Footprint) -> float:
    """The share of a footprint's area under a template, in [0, 1]."""
    area = footprint.polygon.area
    return 0.0 if area == 0 else min(1.0, template.intersection(footprint.polygon).area / area)


def scatter_bearing(face: int, faces: int, reference: float = 0.0) -> float:
    """The compass bearing a direction die shows: face 1 points along ``reference``, each
    next face ``360 / faces`` degrees further clockwise (a d8 or d10 scatter diagram)."""
    if not 1 <= face <= faces:
        raise ValueError(f"face {face} is not on a d{faces}")
    return (reference + (face - 1) * 360.0 / faces) % 360.0


def scatter(origin: Point, face: int, faces: int, distance: float, reference: float = 0.0) -> Point:
    """Where a shot lands: ``distance`` from ``origin`` along the bearing the die shows."""
    d = math.radians(scatter_bearing(face, faces, reference))
    return (origin[0] + math.sin(d) * distance, origin[1] + math.cos(d) * distance)


def scatter_outcomes(
    origin: Point,
    faces: int,
    distances: Iterable[tuple[float, Fraction]],
    reference: float = 0.0,
) -> list[tuple[Point, Fraction]]:
    """Every landing point with its exact probability: a fair d``faces`` for the direction,
    independent of the ``(distance, probability)`` pairs (e.g. a distance die's faces); a
    distance of 0 (a hit on the aim point) is one outcome, whatever the direction die shows.
    The probabilities sum to that of the distances."""
    out: dict[Point, Fraction] = {}
    each = Fraction(1, faces)
    for dist, p in distances:
        for face in range(1, faces + 1):
            at = origin if dist == 0 else scatter(origin, face, faces, dist, reference)
            key = (round(at[0], 9), round(at[1], 9))
            out[key] = out.get(key, Fraction(0)) + Fraction(p) * each
    return list(out.items())


def _arc(centre: Point, radius: float, start: float, end: float) -> list[Point]:
    """Points on a circle from compass bearing ``start`` clockwise to ``end`` (inclusive)."""
    k = max(2, math.ceil(abs(end - start) / ARC_STEP))
    out = []
    for i in range(k + 1):
        b = math.radians(start + (end - start) * i / k)
        out.append((centre[0] + math.sin(b) * radius, centre[1] + math.cos(b) * radius))
    return out
