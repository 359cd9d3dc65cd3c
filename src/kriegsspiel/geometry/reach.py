"""The area a piece can reach, as grid cells: a ruleset says which points its movement rules
accept, this samples them on a grid clipped to a disc and the table (for the faces to draw and
to offer only reachable points)."""

from __future__ import annotations

import math
from collections.abc import Callable

from kriegsspiel.geometry.footprint import Point


def reach_cells(
    centre: Point,
    radius: float,
    cell: float,
    bounds: tuple[float, float, float, float],
    ok: Callable[[Point], bool],
) -> list[Point]:
    """Centres of the cells of a grid of side `cell` (aligned on multiples of `cell`) that lie
    within `radius` of `centre`, inside `bounds` (min x, min y, max x, max y) and accepted by
    `ok`, in row order (y, then x)."""
    if cell <= 0:
        raise ValueError("a reach grid needs a positive cell size")
    if radius < 0:
        return []
    cx, cy = centre
    x0, y0, x1, y1 = bounds
    half = cell / 2
    lo_i = math.floor((max(x0, cx - radius)) / cell)
    hi_i = math.ceil((min(x1, cx + radius)) / cell)
    lo_j = math.floor((max(y0, cy - radius)) / cell)
    hi_j = math.ceil((min(y1, cy + radius)) / cell)
    out = []
    for j in range(lo_j, hi_j):
        y = j * cell + half
        if not y0 <= y <= y1:
            continue
        for i in range(lo_i, hi_i):
            x = i * cell + half
            if not x0 <= x <= x1 or math.hypot(x - cx, y - cy) > radius:
                continue
            if ok((x, y)):
                out.append((x, y))
    return out
