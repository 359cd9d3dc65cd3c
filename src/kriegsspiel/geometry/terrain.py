"""Terrain features and the table: kinds and attributes, spatial queries, path crossings.

Geometry knows no terrain *effects*: a ruleset decides what blocks sight or slows movement
from the kinds and attributes stored here.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np
import shapely
from shapely import LineString, Point, Polygon, STRtree
from shapely.geometry.base import BaseGeometry

from kriegsspiel.geometry.footprint import Footprint
from kriegsspiel.geometry.footprint import Point as XY
from kriegsspiel.geometry.units import Unit

HILL_KINDS: frozenset[str] = frozenset({"hill"})


@dataclass(frozen=True, eq=False)
class Feature:
    """A terrain feature: an area (Polygon) or a linear feature (LineString).

    ``attributes`` holds ruleset-neutral facts, e.g. ``density`` ("thick"/"thin"),
    ``height`` in table units (for hills: the absolute ground height of its top), ``level``.
    Compared and hashed by identity (ids are unique within a table).
    """

    id: str
    kind: str
    geometry: Polygon | LineString
    attributes: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "attributes", MappingProxyType(dict(self.attributes)))

    @property
    def height(self) -> float | None:
        """Height in table units, or None (a blocking feature without height blocks at any height)."""
        h = self.attributes.get("height")
        return None if h is None else float(h)

    @property
    def is_area(self) -> bool:
        return self.geometry.geom_type in ("Polygon", "MultiPolygon")


BlockRule = Callable[[Feature], bool] | Collection[str]


def blocking_predicate(rule: BlockRule) -> Callable[[Feature], bool]:
    """Turn a set of kinds, or a callable, into a ``Feature -> bool`` predicate."""
    if callable(rule):
        return rule
    kinds = frozenset(rule)
    return lambda f: f.kind in kinds


def clip_lines(area: Sequence[XY], lines: Iterable[Sequence[XY]]) -> list[list[XY]]:
    """The parts of `lines` (each two or more points) that lie inside the polygon `area`, in
    order: what of a line drawn across an area may be shown within it (a building's inner
    lines stop at its walls). A line that meets the area at a point only leaves nothing."""
    shape = Polygon(area)
    out: list[list[XY]] = []
    for line in lines:
        if len(line) < 2:
            continue
        for part in shapely.get_parts(LineString(line).intersection(shape)):
            if part.geom_type == "LineString" and part.length > 0:
                out.append([(float(x), float(y)) for x, y in part.coords])
    return out


@dataclass(frozen=True)
class Crossing:
    """How a segment or path meets a feature.

    ``length``: length of the path inside an area feature (0 for linear features);
    ``crossings``: times the path enters an area / crosses a linear feature.
    """

    feature: Feature
    length: float
    crossings: int


class Table:
    """A ``width`` × ``depth`` table (origin at a corner) with features in an STRtree."""

    def __init__(
        self,
        width: float,
        depth: float,
        unit: Unit | str,
        features: Iterable[Feature] = (),
        hill_kinds: Collection[str] = HILL_KINDS,
    ) -> None:
        self.width = float(width)
        self.depth = float(depth)
        self.unit = Unit(unit)
        self.features: tuple[Feature, ...] = tuple(features)
        self.hill_kinds = frozenset(hill_kinds)
        ids = [f.id for f in self.features]
        if len(set(ids)) != len(ids):
            raise ValueError("feature ids must be unique")
        self.by_id: dict[str, Feature] = dict(zip(ids, self.features, strict=True))
        self.geometries = np.array([f.geometry for f in self.features], dtype=object)
        shapely.prepare(self.geometries)
        self.cache: dict[str, Any] = {}  # derived per-rule arrays (features are immutable)
        self.tree = STRtree(self.geometries)
        self.is_area = np.array([f.is_area for f in self.features], dtype=bool)
        self.is_hill = np.array([f.kind in self.hill_kinds for f in self.features], dtype=bool)
        self.heights = np.array(
            [np.nan if f.height is None else f.height for f in self.features], dtype=float
        )
        hills = np.flatnonzero(self.is_hill)
        self._hill_index = hills
        self._hill_tree = STRtree(self.geometries[hills])

    @property
    def outline(self) -> Polygon:
        return shapely.box(0.0, 0.0, self.width, self.depth)

    def on_table(self, footprint: Footprint | XY) -> bool:
        """Whether a point or the whole footprint lies on the table."""
        geom = footprint.polygon if isinstance(footprint, Footprint) else Point(footprint)
        return bool(self.outline.covers(geom))

    def query(self, geometry: BaseGeometry, predicate: str = "intersects") -> list[Feature]:
        """Features whose geometry satisfies ``predicate`` with ``geometry`` (via the index)."""
        idx = np.sort(self.tree.query(geometry, predicate=predicate))
        return [self.features[i] for i in idx]

    def features_at(self, point: XY) -> list[Feature]:
        """Features covering a point (on a boundary counts)."""
        return self.query(Point(point))

    def features_under(self, footprint: Footprint) -> list[Feature]:
        """Features a footprint touches or overlaps."""
        return self.query(footprint.polygon)

    def ground_height(self, point: XY) -> float:
        """Ground height: the highest hill containing the point, else 0."""
        return float(self.ground_heights(np.asarray([point], dtype=float))[0])

    def ground_heights(self, points: np.ndarray) -> np.ndarray:
        """Vectorised :meth:`ground_height` for an ``(n, 2)`` array of points."""
        out = np.zeros(len(points))
        if len(self._hill_index):
            pi, hi = self._hill_tree.query(shapely.points(points), predicate="intersects")
            np.maximum.at(out, pi, self.heights[self._hill_index[hi]])
        return out

    def crossings(self, start: XY, end: XY) -> list[Crossing]:
        """Features met by the straight segment ``start``–``end``."""
        return self.path_crossings([start, end])

    def path_crossings(self, path: Sequence[XY]) -> list[Crossing]:
        """Features a movement path enters or crosses, with the length inside each area.

        Ordered by where along the path each is first met. A path that starts inside an
        area feature does not count as entering it there.
        """
        line = LineString(path)
        start = Point(path[0])
        found: list[tuple[float, Crossing]] = []
        for feature in self.query(line):
            inter = line.intersection(feature.geometry)
            if feature.is_area:
                pieces = shapely.get_parts(shapely.line_merge(inter) if inter.length else inter)
                n = len(pieces) - int(feature.geometry.covers(start))
                crossing = Crossing(feature, float(inter.length), max(n, 0))
            else:
                crossing = Crossing(feature, 0.0, len(shapely.get_parts(inter)))
            first = min(line.project(Point(c)) for c in shapely.get_coordinates(inter))
            found.append((first, crossing))
        found.sort(key=lambda fc: fc[0])
        return [c for _, c in found]
