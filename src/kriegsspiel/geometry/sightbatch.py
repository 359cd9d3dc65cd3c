"""Many sight lines at once in array arithmetic, for the lines that plain blockers settle.

A plain blocker is an area that blocks at any height. Where no endpoint sits within a hair of
one of its edges, a line that crosses its boundary more often than it has endpoints inside it
passes through a stretch of it that adjoins neither end: blocked (when the rules ignore
nothing near the ends: ``see_into`` 0, an endpoint's own area always ignored). A line whose
every candidate is a plain blocker it is not blocked by is clear. Everything else - hills,
tall or linear blockers near the line, near-touching lines - is left undecided for the
exact core, so the answers are the core's.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from kriegsspiel.geometry.sightline import NEAR, TOUCH


class PlainBatch:
    """The plain area blockers' edges as arrays, and every other sight shape's box."""

    def __init__(self, plain: Sequence, other_boxes: Sequence[tuple[float, ...]]):
        self.edges = [np.asarray(s.edges, float).reshape(-1, 6).T[:, None, :] for s in plain]
        self.boxes = np.asarray([s.box for s in plain], float).reshape(-1, 4)
        self.other = np.asarray(other_boxes, float).reshape(-1, 4)

    def decide(self, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(visible, decided) for the lines a[i]→b[i]; ``visible`` is meaningful only where
        ``decided``. Worked out a blocker at a time over the lines near it that no earlier
        blocker blocked."""
        n = len(a)
        blocked = np.zeros(n, bool)
        unsure = _overlaps(a, b, self.other).any(axis=1) if len(self.other) else np.zeros(n, bool)
        unsure |= (a == b).all(axis=1)  # a point, not a line: the core's
        near = _overlaps(a, b, self.boxes)
        seg, shape = np.nonzero(near)
        near[seg, shape] = _meets_box(a[seg], b[seg], self.boxes[shape])
        for j in np.flatnonzero(near.any(axis=0)).tolist():
            sel = np.flatnonzero(near[:, j] & ~blocked)
            if len(sel):
                block, odd = self._against(a[sel], b[sel], self.edges[j])
                blocked[sel[block]] = True
                unsure[sel[odd]] = True
        return ~blocked, blocked | ~unsure

    @staticmethod
    def _against(a, b, edges) -> tuple[np.ndarray, np.ndarray]:
        """For lines against one plain blocker (its edges as (6, 1, k) columns): whether it
        surely blocks each line, and whether a line is undecided (an orientation test too
        close to zero with the point on the other segment)."""
        cx, cy, dx, dy, vx, vy = edges
        ax, ay, bx, by = a[:, 0, None], a[:, 1, None], b[:, 0, None], b[:, 1, None]
        ux, uy = bx - ax, by - ay
        d1 = vx * (ay - cy) - vy * (ax - cx)
        d2 = vx * (by - cy) - vy * (bx - cx)
        d3 = ux * (cy - ay) - uy * (cx - ax)
        d4 = ux * (dy - ay) - uy * (dx - ax)
        flat = np.minimum(np.minimum(np.abs(d1), np.abs(d2)), np.minimum(np.abs(d3), np.abs(d4)))
        flat = flat < TOUCH
        cross = ((d1 > 0) != (d2 > 0)) & ((d3 > 0) != (d4 > 0)) & ~flat
        fall = np.where(vy == 0, 1.0, vy)
        in_a = ((cy > ay) != (dy > ay)) & (ax < vx * (ay - cy) / fall + cx)
        in_b = ((cy > by) != (dy > by)) & (bx < vx * (by - cy) / fall + cx)
        inside = in_a.sum(axis=1) % 2 + in_b.sum(axis=1) % 2
        odd = np.zeros(len(a), bool)
        li, ei = np.nonzero(flat)
        if len(li):  # a small product matters only where the point is on the other segment
            c = np.stack([cx[0, ei], cy[0, ei]], 1)
            d = np.stack([dx[0, ei], dy[0, ei]], 1)
            p, q = a[li], b[li]
            touch = (
                (np.abs(d1[li, ei]) < TOUCH) & _near(p, c, d)
                | (np.abs(d2[li, ei]) < TOUCH) & _near(q, c, d)
                | (np.abs(d3[li, ei]) < TOUCH) & _near(c, p, q)
                | (np.abs(d4[li, ei]) < TOUCH) & _near(d, p, q)
            )
            odd[li[touch]] = True
        return ~odd & (cross.sum(axis=1) > inside), odd


def _overlaps(a: np.ndarray, b: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """(lines, boxes): whether each line's bounding box meets each box (a hair widened)."""
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    pad = 1e-6
    return ~(
        (hi[:, 0, None] < boxes[:, 0] - pad)
        | (lo[:, 0, None] > boxes[:, 2] + pad)
        | (hi[:, 1, None] < boxes[:, 1] - pad)
        | (lo[:, 1, None] > boxes[:, 3] + pad)
    )


def _meets_box(a: np.ndarray, b: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """Whether each line's infinite extension has box corners on both sides (or one on it):
    a line with all four corners clearly on one side misses the box."""
    ux, uy = (b - a).T
    lo = np.full(len(a), np.inf)
    hi = np.full(len(a), -np.inf)
    for x, y in ((0, 1), (2, 1), (0, 3), (2, 3)):
        c = ux * (boxes[:, y] - a[:, 1]) - uy * (boxes[:, x] - a[:, 0])
        lo, hi = np.minimum(lo, c), np.maximum(hi, c)
    slack = NEAR * np.hypot(ux, uy)
    return (lo <= slack) & (hi >= -slack)


def _near(p: np.ndarray, s0: np.ndarray, s1: np.ndarray) -> np.ndarray:
    """Whether each point p lies within NEAR of its segment s0-s1 (rows of (k, 2) arrays)."""
    v = s1 - s0
    n = (v * v).sum(axis=1)
    t = np.clip(((p - s0) * v).sum(axis=1) / np.where(n == 0, 1.0, n), 0.0, 1.0)
    t = np.where(n == 0, 0.0, t)
    gap = p - s0 - t[:, None] * v
    return np.hypot(gap[:, 0], gap[:, 1]) < NEAR
