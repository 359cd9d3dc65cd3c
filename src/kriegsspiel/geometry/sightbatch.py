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

ONE_PASS = 200_000  # (line, edge) rows worked out in one pass; more go a blocker at a time


class PlainBatch:
    """The plain area blockers' edges as arrays, and every other sight shape's box."""

    def __init__(self, plain: Sequence, other_boxes: Sequence[tuple[float, ...]]):
        self.edges = [np.asarray(s.edges, float).reshape(-1, 6) for s in plain]
        self.count = np.array([len(e) for e in self.edges], int)
        self.start = np.concatenate([[0], np.cumsum(self.count)[:-1]]).astype(int)
        self.flat = np.concatenate(self.edges) if self.edges else np.zeros((0, 6))
        self.boxes = np.asarray([s.box for s in plain], float).reshape(-1, 4)
        self.other = np.asarray(other_boxes, float).reshape(-1, 4)

    def decide(self, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(visible, decided) for the lines a[i]→b[i]; ``visible`` is meaningful only where
        ``decided``. Few (line, edge) rows are worked out in one pass; many, a blocker at a
        time over the lines near it that no earlier blocker blocked."""
        n = len(a)
        blocked = np.zeros(n, bool)
        unsure = _overlaps(a, b, self.other).any(axis=1) if len(self.other) else np.zeros(n, bool)
        unsure |= (a == b).all(axis=1)  # a point, not a line: the core's
        near = _overlaps(a, b, self.boxes)
        seg, shape = np.nonzero(near)
        keep = _meets_box(a[seg], b[seg], self.boxes[shape])
        seg, shape = seg[keep], shape[keep]
        k = self.count[shape]
        if k.sum() <= ONE_PASS:
            rows = (
                np.arange(k.sum())
                - np.repeat(np.cumsum(k) - k, k)
                + np.repeat(self.start[shape], k)
            )
            line = np.repeat(seg, k)
            block, odd = _rows(a[line], b[line], self.flat[rows], np.cumsum(k) - k)
            blocked[seg[block]] = True
            unsure[seg[odd]] = True
            return ~blocked, blocked | ~unsure
        near[:] = False
        near[seg, shape] = True
        for j in np.flatnonzero(near.any(axis=0)).tolist():
            sel = np.flatnonzero(near[:, j] & ~blocked)
            if len(sel):
                e = len(self.edges[j])
                line = np.repeat(sel, e)
                edges = np.tile(self.edges[j], (len(sel), 1))
                block, odd = _rows(a[line], b[line], edges, np.arange(0, len(line), e))
                blocked[sel[block]] = True
                unsure[sel[odd]] = True
        return ~blocked, blocked | ~unsure


def _rows(a, b, edges, starts) -> tuple[np.ndarray, np.ndarray]:
    """For (line, plain blocker) groups of (line, edge) rows starting at ``starts``: whether
    the blocker surely blocks the line, and whether the group is undecided (an orientation
    test too close to zero with the point on the other segment)."""
    cx, cy, dx, dy, vx, vy = edges.T
    ax, ay, bx, by = a[:, 0], a[:, 1], b[:, 0], b[:, 1]
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
    crossings = np.add.reduceat(cross, starts)
    inside = np.add.reduceat(in_a, starts) % 2 + np.add.reduceat(in_b, starts) % 2
    touch = np.zeros(len(d1), bool)
    f = np.flatnonzero(flat)
    if len(f):  # a small product matters only where the point is on the other segment
        c, d = edges[f, 0:2], edges[f, 2:4]
        p, q = a[f], b[f]
        touch[f] = (
            (np.abs(d1[f]) < TOUCH) & _near(p, c, d)
            | (np.abs(d2[f]) < TOUCH) & _near(q, c, d)
            | (np.abs(d3[f]) < TOUCH) & _near(c, p, q)
            | (np.abs(d4[f]) < TOUCH) & _near(d, p, q)
        )
    odd = np.add.reduceat(touch, starts) > 0
    return ~odd & (crossings > inside), odd


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
    """Whether each point p may lie within NEAR of its segment s0-s1 (rows of (k, 2) arrays):
    asked only of points on the segment's line, so within its box widened by NEAR (a point
    near the segment always is; a wrong "near" only leaves a line to the exact core)."""
    lo, hi = np.minimum(s0, s1) - NEAR, np.maximum(s0, s1) + NEAR
    return ((lo <= p) & (p <= hi)).all(axis=1)
