"""The table of a Panzerfaust game: terrain features read as the rules' rows (observation p8,
infantry cover p16, AT cover p30, movement p25), a spatial index and sight lines (cm).

A scenario's feature kinds map onto the Observation Table's rows; an unknown kind is refused
with the feature's id. Woods take `attributes.density` thick (default) or thin.
"""

from __future__ import annotations

import math
from functools import cached_property

import numpy as np
import shapely
from shapely import LineString, Point, Polygon

from ....data.errors import RuleError
from ....engine.scenario import Scenario
from ....geometry.los import SightRules, visible, visible_many
from ....geometry.terrain import Feature, Table
from ....geometry.units import Unit
from ..terrain import kind_of

LINEAR_WIDTH = 1.0  # cm: a hedge, wall or treeline drawn as a line
LOS_MEMO = 200_000  # lines of sight kept
BATCH = 8  # lines of sight worth one batch
CELL = 1.0  # cm: the side of a grid cell whose features are worked out once (`at`)
EYE = 1.0  # a piece's eye (and body) above the ground, in the scenario's height units
STOREY = 1.0  # one floor of a building, same units (placeholder P329: the book gives none)


class Board:
    """Terrain of one scenario."""

    def __init__(self, scenario: Scenario):
        self.width, self.depth = scenario.table.width, scenario.table.depth
        feats, self.kinds = [], {}
        for f in scenario.terrain:
            kind = f.kind.casefold()
            try:
                rules_kind = kind_of(kind, f.attributes)
            except RuleError as exc:
                raise ValueError(f"terrain feature {f.id}: {exc}") from None
            if f.polygon is not None:
                shape = Polygon(f.polygon)
            else:
                shape = LineString(f.line).buffer((f.width or LINEAR_WIDTH) / 2, cap_style="flat")
            if "sections" in (f.attributes or {}):  # p19, P328: checked when the game starts
                _check_sections(f.id, rules_kind.sight, shape, f.attributes["sections"])
            attrs = {**f.attributes, "height": f.height} if f.height else dict(f.attributes)
            feats.append(Feature(f.id, kind, shape, attrs))
            self.kinds[f.id] = rules_kind
        self.features = feats
        self.table = Table(self.width, self.depth, Unit.CM, feats)
        blocking = {f.id for f in feats if self.kinds[f.id].blocks}
        self.sight = SightRules(
            lambda feat: feat.id in blocking, see_into=5.0, own_depth=5.0, hills="below_top"
        )
        self._at: dict[tuple[float, float], tuple[Feature, ...]] = {}
        self._los: dict[tuple, bool] = {}
        self._ground: dict[tuple[float, float], float] = {}

    def at(self, x: float, y: float) -> tuple[Feature, ...]:
        """The features under (x, y): from the grid where its cell lies wholly inside or
        outside each feature, else asked of the spatial index (memoised by point)."""
        i, j = int(x // CELL), int(y // CELL)
        grid, cols = self._grid
        if 0 <= j < len(grid) and 0 <= i < cols:
            pure = grid[j][i]
            if pure is not None:
                return pure
        key = (x, y)
        hit = self._at.get(key)
        if hit is None:
            idx = self.table.tree.query(Point(x, y), predicate="intersects")
            hit = self._at[key] = tuple(self.features[i] for i in sorted(idx))
        return hit

    @cached_property
    def _grid(self) -> tuple[list[list[tuple[Feature, ...] | None]], int]:
        """Per CELL-cm cell of the table, its features when every point of the closed cell
        has the same ones (each feature containing it wholly or not touching it), else None."""
        cols, rows = math.ceil(self.width / CELL), math.ceil(self.depth / CELL)
        terrain = (cols, rows, tuple((f.id, f.geometry.wkb) for f in self.features))
        flat = _GRIDS.get(terrain)
        if flat is None:  # the games of a simulation share their terrain's grid
            if len(_GRIDS) >= GRIDS_KEPT:
                _GRIDS.clear()
            flat = _GRIDS[terrain] = _pure_cells(self.table, cols, rows)
        feats = {t: tuple(self.features[k] for k in t) for t in set(flat) if t is not None}
        cells = [None if t is None else feats[t] for t in flat]
        return [cells[r * cols : (r + 1) * cols] for r in range(rows)], cols

    @cached_property
    def max_keep(self) -> float:
        """The largest share of movement any ground keeps (1: open ground and roads)."""
        return max([1.0, *(k.slow for k in self.kinds.values())])

    def feature(self, x: float, y: float) -> str | None:
        """The terrain feature a piece at (x, y) is in (the most concealing one), or None."""
        best, rank = None, -1
        for f in self.at(x, y):
            k = self.kinds[f.id]
            r = ("open_desert", "low_brush_long_grass", "thin_treeline", "orchard").count(k.sight)
            r = 0 if r else (2 if k.blocks else 1)
            if not k.road and r > rank:
                best, rank = f.id, r
        return best

    def sight_row(self, x: float, y: float) -> str:
        f = self.feature(x, y)
        return self.kinds[f].sight if f else "open_desert"

    def cover(self, x: float, y: float) -> str:
        best = "none"
        for f in self.at(x, y):
            c = self.kinds[f.id].cover
            if c == "hard" or (c == "soft" and best == "none"):
                best = c
        return best

    def slow(self, x: float, y: float) -> float:
        return min((self.kinds[f.id].slow for f in self.at(x, y)), default=1.0)

    def crosses(self, a: tuple[float, float], b: tuple[float, float]) -> bool:
        """Whether the straight line a-b touches any terrain feature."""
        line = LineString([a, b]) if a != b else Point(a)
        return len(self.table.tree.query(line, predicate="intersects")) > 0

    def on_road(self, x: float, y: float) -> bool:
        return any(self.kinds[f.id].road for f in self.at(x, y))

    def los(self, a: tuple[float, float], b: tuple[float, float],
            ha: float = EYE, hb: float = EYE) -> bool:  # fmt: skip
        """Direct line of sight a-b over the terrain, from an eye `ha` above the ground at a
        to a point `hb` above the ground at b (an upper floor: P329)."""
        key = _key(a, b, ha, hb)
        hit = self._los.get(key)
        if hit is None:
            if len(self._los) > LOS_MEMO:
                self._los.clear()
            hit = self._los[key] = visible(self.table, a, b, self.sight, ha, hb)
        return hit

    def los_many(self, lines: list[tuple]) -> None:
        """Work out in one batch (geometry.visible_many: the answers of `visible`) the lines
        of sight not yet memoised, for `los` to answer from the memo: each line (a, b) at eye
        height, or (a, b, ha, hb)."""
        memo = self._los
        keys = list({k for ln in lines if (k := _key(*ln)) not in memo})
        if len(keys) < BATCH:
            return  # a few lines: one by one is as quick
        if len(self._los) + len(keys) > LOS_MEMO:
            self._los.clear()
        arr = np.asarray([k if len(k) == 6 else (*k, EYE, EYE) for k in keys], float)
        rule = self.sight
        seen = visible_many(
            self.table, arr[:, :2], arr[:, 2:4], rule.blocks, arr[:, 4], arr[:, 5],
            see_into=rule.see_into, own_depth=rule.own_depth, hills=rule.hills,
        )  # fmt: skip
        self._los.update(zip(keys, seen.tolist(), strict=True))

    def ground(self, x: float, y: float) -> float:
        """The ground's height at (x, y): a hill's top, else 0 (memoised by point)."""
        memo = self._ground
        h = memo.get((x, y))
        if h is None:
            if len(memo) > LOS_MEMO:
                memo.clear()
            h = memo[(x, y)] = self.table.ground_height((x, y))
        return h

    def on_table(self, x: float, y: float) -> bool:
        return 0 <= x <= self.width and 0 <= y <= self.depth

    @cached_property
    def area(self) -> float:
        return self.width * self.depth


def _check_sections(fid: str, row: str, shape: Polygon, lines: object) -> None:
    """A building's `attributes.sections` must be lines that each divide it (P328)."""
    from .melee_contact import cut  # melee_contact imports this module

    if row != "inside_building" or not isinstance(shape, Polygon):
        raise ValueError(
            f"terrain feature {fid}: attributes.sections: only a building has sections (p19)"
        )
    if not isinstance(lines, list):
        raise ValueError(f"terrain feature {fid}: attributes.sections: a list of lines")
    try:
        cut(shape, lines)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"terrain feature {fid}: attributes.{exc}") from None


def _key(a: tuple[float, float], b: tuple[float, float], ha: float = EYE, hb: float = EYE) -> tuple:
    """A line's memo key: its ends, and its heights when either is not the eye's."""
    if ha == EYE and hb == EYE:
        return (a[0], a[1], b[0], b[1])
    return (a[0], a[1], b[0], b[1], ha, hb)


_GRIDS: dict[tuple, list[tuple[int, ...] | None]] = {}  # by terrain: `_pure_cells`
GRIDS_KEPT = 8


def _pure_cells(table: Table, cols: int, rows: int) -> list[tuple[int, ...] | None]:
    """Row by row, each cell's feature indices where the cell is pure (see Board._grid)."""
    ii, jj = np.meshgrid(np.arange(cols), np.arange(rows))
    x0, y0 = ii.ravel() * CELL, jj.ravel() * CELL
    boxes = shapely.box(x0, y0, x0 + CELL, y0 + CELL)
    touch = table.tree.query(boxes, predicate="intersects")
    inside = table.tree.query(boxes, predicate="within")  # inside <= touch
    n = len(boxes)
    pure = np.bincount(touch[0], minlength=n) == np.bincount(inside[0], minlength=n)
    flat: list[tuple[int, ...] | None] = [() if p else None for p in pure.tolist()]
    order = np.lexsort((touch[1], touch[0]))
    for c, f in touch[:, order].T.tolist():
        if pure[c]:
            flat[c] += (f,)  # type: ignore[operator]
    return flat
