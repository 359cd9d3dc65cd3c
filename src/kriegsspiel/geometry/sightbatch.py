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

CHUNK = 100_000  # (line, edge) rows worked out at a time (bounds the memory)


class PlainBatch:
    """The plain area blockers' edges as arrays, and every other sight shape's box."""

    def __init__(self, plain: Sequence, other_boxes: Sequence[tuple[float, ...]]):
        edges = [np.asarray(s.edges, float).reshape(-1, 6) for s in plain]
        self.count = np.array([len(e) for e in edges], int)
        self.start = np.concatenate([[0], np.cumsum(self.count)[:-1]]).astype(int)
        self.edges = np.concatenate(edges) if edges else np.zeros((0, 6))
        self.boxes = np.asarray([s.box for s in plain], float).reshape(-1, 4)
        self.other = np.asarray(other_boxes, float).reshape(-1, 4)

    def decide(self, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(visible, decided) for the lines a[i]→b[i]; ``visible`` is meaningful only where
        ``decided``."""
        n = len(a)
        blocked = np.zeros(n, bool)
        unsure = _overlaps(a, b, self.other).any(axis=1) if len(self.other) else np.zeros(n, bool)
        seg, shape = np.nonzero(_overlaps(a, b, self.boxes))
        keep = _meets_box(a[seg], b[seg], self.boxes[shape])
        seg, shape = seg[keep], shape[keep]
        if len(seg):
            rows = self.count[shape]
            ends = np.cumsum(rows)
            for lo, hi in _chunks(ends):
                s, f = seg[lo:hi], shape[lo:hi]
                block, odd = self._pairs(a, b, s, f)
                blocked[s[block]] = True
                unsure[s[odd]] = True
        decided = blocked | ~unsure
        same = (a == b).all(axis=1)  # a point, not a line: the core's
        decided &= ~same
        return ~blocked, decided

    def _pairs(self, a, b, seg, shape) -> tuple[np.ndarray, np.ndarray]:
        """For (line, plain blocker) pairs: whether the blocker surely blocks the line, and
        whether the pair is undecided (an orientation test too close to zero)."""
        k = self.count[shape]
        pair = np.repeat(np.arange(len(seg)), k)
        first = np.repeat(self.start[shape], k)
        offset = np.arange(len(pair)) - np.repeat(np.cumsum(k) - k, k)
        cx, cy, dx, dy, vx, vy = self.edges[first + offset].T
        ax, ay = a[seg, 0][pair], a[seg, 1][pair]
        bx, by = b[seg, 0][pair], b[seg, 1][pair]
        ux, uy = bx - ax, by - ay
        d1 = vx * (ay - cy) - vy * (ax - cx)
        d2 = vx * (by - cy) - vy * (bx - cx)
        d3 = ux * (cy - ay) - uy * (cx - ax)
        d4 = ux * (dy - ay) - uy * (dx - ax)
        small = [np.abs(d) < TOUCH for d in (d1, d2, d3, d4)]
        flat = small[0] | small[1] | small[2] | small[3]
        cross = ((d1 > 0) != (d2 > 0)) & ((d3 > 0) != (d4 > 0)) & ~flat
        # a small product matters only where the point is on the other segment itself
        touch = np.zeros(len(pair), bool)
        f = np.nonzero(flat)[0]
        if len(f):
            c, d = np.stack([cx[f], cy[f]], 1), np.stack([dx[f], dy[f]], 1)
            p, q = np.stack([ax[f], ay[f]], 1), np.stack([bx[f], by[f]], 1)
            touch[f] = (
                (small[0][f] & _near(p, c, d))
                | (small[1][f] & _near(q, c, d))
                | (small[2][f] & _near(c, p, q))
                | (small[3][f] & _near(d, p, q))
            )
        fall = np.where(vy == 0, 1.0, vy)
        in_a = ((cy > ay) != (dy > ay)) & (ax < vx * (ay - cy) / fall + cx)
        in_b = ((cy > by) != (dy > by)) & (bx < vx * (by - cy) / fall + cx)
        starts = np.cumsum(k) - k
        crossings = np.add.reduceat(cross, starts)
        inside = np.add.reduceat(in_a, starts) % 2 + np.add.reduceat(in_b, starts) % 2
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
    """Whether each point p lies within NEAR of its segment s0-s1 (rows of (k, 2) arrays)."""
    v = s1 - s0
    n = (v * v).sum(axis=1)
    t = np.clip(((p - s0) * v).sum(axis=1) / np.where(n == 0, 1.0, n), 0.0, 1.0)
    t = np.where(n == 0, 0.0, t)
    gap = p - s0 - t[:, None] * v
    return np.hypot(gap[:, 0], gap[:, 1]) < NEAR


def _chunks(ends: np.ndarray) -> list[tuple[int, int]]:
    """Cut the pairs (whose rows end at ``ends``) into runs of about CHUNK rows."""
    out, lo = [], 0
    while lo < len(ends):
        base = ends[lo - 1] if lo else 0
        hi = int(np.searchsorted(ends, base + CHUNK, side="right"))
        hi = max(hi, lo + 1)
        out.append((lo, hi))
        lo = hi
    return out
