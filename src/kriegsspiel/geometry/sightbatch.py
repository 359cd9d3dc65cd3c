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
        flat = np.concatenate(self.edges) if self.edges else np.zeros((0, 6))
        self.rows = [tuple(c[None, :] for c in e.T) for e in self.edges]  # (1, edges) each
        self.cols = tuple(np.ascontiguousarray(c) for c in flat.T)  # cx, cy, dx, dy, vx, vy
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
        ia, ib, parity = self._parity(a, b)
        inside = parity[ia[seg], shape] + parity[ib[seg], shape]
        if k.sum() <= ONE_PASS:
            pid = np.repeat(np.arange(len(seg)), k)
            rows = np.arange(len(pid)) - (np.cumsum(k) - k)[pid] + self.start[shape][pid]
            line = seg[pid]
            edges = tuple(c[rows] for c in self.cols)
            ends = (a[:, 0][line], a[:, 1][line], b[:, 0][line], b[:, 1][line])
            block, odd = _rows(*ends, edges, pid, inside)
            blocked[seg[block]] = True
            unsure[seg[odd]] = True
            return ~blocked, blocked | ~unsure
        near[:] = False
        near[seg, shape] = True
        for j in np.flatnonzero(near.any(axis=0)).tolist():
            sel = np.flatnonzero(near[:, j] & ~blocked)
            if len(sel):
                ends = (a[sel, 0, None], a[sel, 1, None], b[sel, 0, None], b[sel, 1, None])
                held = parity[ia[sel], j] + parity[ib[sel], j]
                block, odd = _rows(*ends, self.rows[j], None, held)
                blocked[sel[block]] = True
                unsure[sel[odd]] = True
        return ~blocked, blocked | ~unsure

    def _parity(self, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Each line's ends as indexes into the distinct end points, and an (points,
        blockers) array: 1 where the blocker holds the point (even-odd count), else 0."""
        ends = np.concatenate([a, b])
        z, inv = np.unique(ends[:, 0] + 1j * ends[:, 1], return_inverse=True)
        u = np.stack([z.real, z.imag], axis=1)
        inv = inv.ravel()
        parity = np.zeros((len(u), len(self.boxes)), int)
        x, y = u[:, 0, None], u[:, 1, None]
        box = self.boxes
        pt, shape = np.nonzero(
            (box[:, 0] <= x) & (x <= box[:, 2]) & (box[:, 1] <= y) & (y <= box[:, 3])
        )
        if len(pt):
            k = self.count[shape]
            pid = np.repeat(np.arange(len(pt)), k)
            rows = np.arange(len(pid)) - (np.cumsum(k) - k)[pid] + self.start[shape][pid]
            cx, cy, dx, dy, vx, vy = (c[rows] for c in self.cols)
            px, py = u[pt, 0][pid], u[pt, 1][pid]
            fall = np.where(vy == 0, 1.0, vy)
            hit = ((cy > py) != (dy > py)) & (px < vx * (py - cy) / fall + cx)
            parity[pt, shape] = np.bincount(pid, hit, len(pt)).astype(int) % 2
        return inv[: len(a)], inv[len(a) :], parity


def _rows(ax, ay, bx, by, edges, pid, inside) -> tuple[np.ndarray, np.ndarray]:
    """For (line, plain blocker) groups of (line, edge) rows (``pid``: each row's group, or
    None for (lines, edges) arrays of one blocker; ``inside``: how many of each group's
    line's ends the blocker holds): whether the blocker surely blocks the line, and whether
    the group is undecided (an orientation test too close to zero with the point on the
    other segment)."""
    groups = len(inside)
    cx, cy, dx, dy, vx, vy = edges
    ux, uy = bx - ax, by - ay
    d1 = vx * (ay - cy) - vy * (ax - cx)
    d2 = vx * (by - cy) - vy * (bx - cx)
    d3 = ux * (cy - ay) - uy * (cx - ax)
    d4 = ux * (dy - ay) - uy * (dx - ax)
    flat = np.minimum(np.minimum(np.abs(d1), np.abs(d2)), np.minimum(np.abs(d3), np.abs(d4)))
    flat = flat < TOUCH
    cross = ((d1 > 0) != (d2 > 0)) & ((d3 > 0) != (d4 > 0)) & ~flat
    if pid is None:  # (lines, edges) arrays: a row per line
        crossings = cross.sum(axis=1)
        where = np.nonzero(flat)
        group = where[0]
    else:
        crossings = np.bincount(pid, cross, groups)
        where = np.flatnonzero(flat)
        group = pid[where]
    odd = np.zeros(groups, bool)
    if len(group):  # a small product matters only where the point is on the other segment
        shape = d1.shape

        def at(v: np.ndarray) -> np.ndarray:
            return np.broadcast_to(v, shape)[where]

        c = np.stack([at(cx), at(cy)], 1)
        d = np.stack([at(dx), at(dy)], 1)
        p = np.stack([at(ax), at(ay)], 1)
        q = np.stack([at(bx), at(by)], 1)
        touch = (
            (np.abs(d1[where]) < TOUCH) & _near(p, c, d)
            | (np.abs(d2[where]) < TOUCH) & _near(q, c, d)
            | (np.abs(d3[where]) < TOUCH) & _near(c, p, q)
            | (np.abs(d4[where]) < TOUCH) & _near(d, p, q)
        )
        odd[group[touch]] = True
    return ~odd & (crossings > inside), odd


def _overlaps(a: np.ndarray, b: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """(lines, boxes): whether each line's bounding box meets each box (a hair widened)."""
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    pad = NEAR
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
