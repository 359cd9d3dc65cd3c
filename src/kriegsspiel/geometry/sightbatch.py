"""Many sight lines at once in array arithmetic: the scalar rule of
:mod:`kriegsspiel.geometry.sightline` over every (line, feature) pair in one pass.

The features' edges are flat arrays; a box prefilter (each line's box against each feature's,
then the line against the box's corners) keeps the (line, feature) pairs that may meet, and
each pair is expanded into (line, edge) rows. Orientation tests find where each line crosses
each edge, even-odd counts which end an area holds, and the sorted crossings give the stretches
of line inside each feature. The blocking rule is then the scalar one, piece by piece: plain
blockers (no height) first, and only lines they leave open go on to hills and tall features,
whose ground heights are counted the same way. Wherever the scalar path would hand a line to
the exact core (an end or a vertex within a hair of an edge, a height tie) the line is left
undecided here too, so the answers are the core's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from kriegsspiel.geometry.sightline import EPS, NEAR, TOUCH

CHUNK = 400_000  # (line, edge) rows worked out in one pass; more go in several
ROUNDS = 4096  # (line, plain shape) pairs beyond which each line's likeliest goes first


class _Lines(NamedTuple):
    """The lines of one `decide`: ends as rows (ax, ay, bx, by) of a (4, lines) array, and
    lengths."""

    ends: np.ndarray
    length: np.ndarray


class SightBatch:
    """Every sight shape of one table and rules as arrays (built once, by ``SightLines``)."""

    def __init__(self, shapes: Sequence, see_into: float, own: float, crest: bool):
        self.see_into, self.own, self.crest = see_into, own, crest
        edges = [np.asarray(s.edges, float).reshape(-1, 6) for s in shapes]
        self.count = np.array([len(e) for e in edges], int)
        self.start = np.concatenate([[0], np.cumsum(self.count)[:-1]]).astype(int)
        flat = np.concatenate(edges) if edges else np.zeros((0, 6))
        self.cols = tuple(np.ascontiguousarray(c) for c in flat.T)  # cx, cy, dx, dy, vx, vy
        # the same columns as rows of one array, with each edge's vy read as 1 where it is 0
        # (for the even-odd count, which masks those edges out itself): one gather a pass
        fall = np.where(flat[:, 5] == 0, 1.0, flat[:, 5])
        self.edge_rows = np.ascontiguousarray(np.vstack([flat.T, fall]))
        self.boxes = np.asarray([s.box for s in shapes], float).reshape(-1, 4)
        # the box prefilter's figures: each box widened by NEAR, and its corners
        self.box_lo = self.boxes[:, :2] - NEAR
        self.box_hi = self.boxes[:, 2:] + NEAR
        self.area = np.array([s.area for s in shapes], bool)
        self.hill = np.array([s.hill for s in shapes], bool)
        self.height = np.array([s.height for s in shapes], float)
        plain = ~self.hill & np.isnan(self.height)
        self.plain_ids, self.tall_ids = np.flatnonzero(plain), np.flatnonzero(~plain)
        self.hills = np.flatnonzero(self.hill)

    def decide(
        self, a: np.ndarray, b: np.ndarray, ha: np.ndarray, hb: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """(visible, decided) for the lines a[i]→b[i] with eyes ``ha``/``hb`` above the ground;
        ``visible`` is meaningful only where ``decided``."""
        n = len(a)
        blocked = np.zeros(n, bool)
        unsure = (a == b).all(axis=1)  # a point, not a line: the core's
        # each line's ends as rows (ax, ay, bx, by) and length, gathered per (line, edge) row
        lines = _Lines(np.vstack([a.T, b.T]), np.hypot(b[:, 0] - a[:, 0], b[:, 1] - a[:, 1]))
        # plain blockers settle most lines without any ground height; among many lines,
        # first each line's likeliest blocker (the one whose box centre lies nearest the
        # line), then the others of the lines still open
        seg, shape = self._candidates(a, b, np.flatnonzero(~unsure), self.plain_ids)
        if len(seg) > ROUNDS:
            first = self._likeliest(a, b, seg, shape)
            self._settle(a, b, lines, seg[first], shape[first], None, blocked, unsure)
            more = ~first & ~blocked[seg]
            self._settle(a, b, lines, seg[more], shape[more], None, blocked, unsure)
        else:
            self._settle(a, b, lines, seg, shape, None, blocked, unsure)
        # the lines still open and sure meet hills and tall features
        seg, shape = self._candidates(a, b, np.flatnonzero(~blocked & ~unsure), self.tall_ids)
        if len(seg):
            open_ = np.unique(seg)
            ground, vague = self.ground(np.concatenate([a[open_], b[open_]]))
            m = len(open_)
            ga, gb = np.zeros(n), np.zeros(n)
            ga[open_], gb[open_] = ground[:m], ground[m:]
            unsure[open_] |= vague[:m] | vague[m:]  # an end on a hill's edge: the core's
            sure = ~unsure[seg]
            heights = (ga, gb, ga + ha, gb + hb)
            self._settle(a, b, lines, seg[sure], shape[sure], heights, blocked, unsure)
        return ~blocked, blocked | ~unsure

    def _candidates(self, a, b, lines, shapes) -> tuple[np.ndarray, np.ndarray]:
        """(line, shape) pairs, sorted by line, of the given lines and shapes (indexes) that
        the box prefilter keeps: the line's box meets the shape's and the line the box."""
        if not len(lines) or not len(shapes):
            return np.zeros(0, int), np.zeros(0, int)
        p, q = a[lines], b[lines]
        lo, hi = np.minimum(p, q), np.maximum(p, q)
        # each line's box meets each (widened) box: no side of one lies beyond the other's
        bl, bh = self.box_lo[shapes].T, self.box_hi[shapes].T
        i, j = np.nonzero(
            (hi[:, 0, None] >= bl[0])
            & (lo[:, 0, None] <= bh[0])
            & (hi[:, 1, None] >= bl[1])
            & (lo[:, 1, None] <= bh[1])
        )
        seg, shape = lines[i], shapes[j]
        keep = _meets_box(a[seg], b[seg], self.boxes[shape])
        return seg[keep], shape[keep]

    def _likeliest(self, a, b, seg, shape) -> np.ndarray:
        """For (line, shape) pairs sorted by line: True at each line's pair(s) whose shape's
        box centre lies nearest the line, for its size (only an order of work)."""
        if not len(seg):
            return np.zeros(0, bool)
        box = self.boxes[shape]
        cx, cy = (box[:, 0] + box[:, 2]) / 2, (box[:, 1] + box[:, 3]) / 2
        p, q = a[seg], b[seg]
        ux, uy = q[:, 0] - p[:, 0], q[:, 1] - p[:, 1]
        off = np.abs(ux * (cy - p[:, 1]) - uy * (cx - p[:, 0])) / np.hypot(ux, uy)
        size = (box[:, 2] - box[:, 0]) + (box[:, 3] - box[:, 1]) + 1e-12
        score = off / size
        starts = np.flatnonzero(np.diff(seg, prepend=-1))  # seg is sorted by line
        least = np.minimum.reduceat(score, starts)
        first = score == np.repeat(least, np.diff(np.append(starts, len(seg))))
        return first

    def _settle(self, a, b, lines, seg, shape, heights, blocked, unsure) -> None:
        """Mark the lines that a (line, shape) pair surely blocks, and the lines a pair leaves
        undecided, in passes of at most CHUNK (line, edge) rows."""
        if not len(seg):
            return
        k = self.count[shape]
        ends = np.cumsum(k)
        if ends[-1] <= CHUNK:  # one pass (most calls)
            block, vague = self._pairs(a, b, lines, seg, shape, heights, k, ends)
            blocked[seg[block]] = True
            unsure[seg[vague]] = True
            return
        cuts = np.searchsorted(ends, np.arange(CHUNK, ends[-1], CHUNK), side="right")
        for lo, hi in zip([0, *cuts.tolist()], [*cuts.tolist(), len(seg)], strict=True):
            if lo < hi:
                s, f = seg[lo:hi], shape[lo:hi]
                kk = k[lo:hi]
                block, vague = self._pairs(a, b, lines, s, f, heights, kk, np.cumsum(kk))
                blocked[s[block]] = True
                unsure[s[vague]] = True

    def _pairs(self, a, b, lines, seg, shape, heights, k, ends):
        """For (line, shape) pairs: whether the shape surely blocks the line, and whether the
        pair is undecided (`sightline._pieces` and `SightLines._blocks` in arrays); `k` is
        each pair's count of edges, `ends` their running sum."""
        pid = np.repeat(np.arange(len(seg)), k)
        rows = np.arange(ends[-1]) + np.repeat(self.start[shape] - (ends - k), k)
        cx, cy, dx, dy, vx, vy, fall = self.edge_rows.take(rows, axis=1)
        ax, ay, bx, by = lines.ends.take(seg[pid], axis=1)
        length = lines.length[seg]
        d1 = vx * (ay - cy) - vy * (ax - cx)
        d2 = vx * (by - cy) - vy * (bx - cx)
        # even-odd count of the line's start in each area (rows that straddle its y; the
        # others' quotient is not read)
        hit = ((cy > ay) != (dy > ay)) & (ax < vx * (ay - cy) / fall + cx)
        area = self.area[shape]
        inside = area & (np.bincount(pid, hit, len(seg)) % 2 == 1)
        # only rows whose edge's line the line's ends do not clearly lie on one side of
        live = ~(((d1 > TOUCH) & (d2 > TOUCH)) | ((d1 < -TOUCH) & (d2 < -TOUCH)))
        ux, uy = bx - ax, by - ay
        d3 = ux * (cy - ay) - uy * (cx - ax)
        d4 = ux * (dy - ay) - uy * (dx - ax)
        small = np.minimum(np.minimum(np.abs(d1), np.abs(d2)), np.minimum(np.abs(d3), np.abs(d4)))
        flat = small < TOUCH
        vague = np.zeros(len(seg), bool)
        w = np.flatnonzero(live & flat)
        if len(w):  # a point within a hair of the other segment: the core's
            ends_ = (v[w] for v in (ax, ay, bx, by, cx, cy, dx, dy))
            touch = _touching(*ends_, d1[w], d2[w], d3[w], d4[w])
            vague[pid[w[touch]]] = True
        cross = np.flatnonzero(live & ~flat & ((d3 > 0) != (d4 > 0)))
        t = d1[cross] / (d1[cross] - d2[cross]) * length[pid[cross]]
        piece, t0, t1 = _pieces(pid[cross], t, inside, area, length)
        block, tie = self._blocks(a, b, seg, shape, length, piece, t0, t1, heights)
        blocks = np.zeros(len(seg), bool)
        blocks[piece[block & ~tie]] = True
        vague[piece[tie]] = True
        return blocks & ~vague, vague

    def _blocks(self, a, b, seg, shape, length, piece, t0, t1, heights):
        """Whether each piece [t0, t1] of its pair's line inside its shape blocks, and whether
        that is a height tie (`SightLines._blocks` in arrays)."""
        f = shape[piece]
        L = length[piece]
        si = self.see_into
        lo, hi = np.maximum(t0, si), np.minimum(t1, L - si)
        area = self.area[f]
        lo = np.where(area & (t0 <= EPS), np.maximum(lo, self.own), lo)
        hi = np.where(area & (t1 >= L - EPS), np.minimum(hi, L - self.own), hi)
        ok = np.where(area, hi - lo > EPS, (t0 > si + EPS) & (t1 < L - si - EPS))
        tie = np.zeros(len(piece), bool)
        if heights is None:  # plain shapes: any piece on the line blocks at every height
            return ok, tie
        ga, gb, za, zb = (h[seg[piece]] for h in heights)
        hill = self.hill[f]
        top = self.height[f]
        lo = np.where(hill, np.clip(t0, 0.0, L), np.clip(lo, 0.0, L))
        hi = np.where(hill, np.clip(t1, 0.0, L), np.clip(hi, 0.0, L))
        z = np.minimum(za + (zb - za) * (lo / L), za + (zb - za) * (hi / L))
        tall = ~hill & ok & ~np.isnan(top)
        if tall.any():  # a tall feature stands on the ground at the middle of its stretch
            i = np.flatnonzero(tall)
            s = seg[piece[i]]
            mid = ((lo[i] + hi[i]) / 2 / L[i])[:, None]
            ground, vague = self.ground(a[s] + (b[s] - a[s]) * mid)
            top[i] += ground
            tie[i] |= vague
        near_top = np.abs(z - top) <= 2 * EPS
        below = z < top - EPS
        if self.crest:
            edge = np.abs(z - top - EPS) <= EPS
            crest = (ga < top - EPS) & (gb < top - EPS)
            below = np.where(hill, crest & (z <= top + EPS), below)
            near_top = np.where(hill, crest & edge, near_top)
        block = np.where(hill, True, ok) & below
        tie |= np.where(hill, True, ok) & near_top
        return block, tie

    def ground(self, pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Ground height at each point (the highest hill holding it) and whether the point
        lies within a hair of a hill's edge (`SightLines.ground`'s Undecided)."""
        top = np.zeros(len(pts))
        vague = np.zeros(len(pts), bool)
        if not len(self.hills) or not len(pts):
            return top, vague
        box = self.boxes[self.hills]
        x, y = pts[:, 0, None], pts[:, 1, None]
        pt, h = np.nonzero(
            (box[:, 0] - NEAR <= x)
            & (x <= box[:, 2] + NEAR)
            & (box[:, 1] - NEAR <= y)
            & (y <= box[:, 3] + NEAR)
        )
        if not len(pt):
            return top, vague
        shape = self.hills[h]
        k = self.count[shape]
        pid = np.repeat(np.arange(len(pt)), k)
        rows = np.arange(len(pid)) - (np.cumsum(k) - k)[pid] + self.start[shape][pid]
        cx, cy, dx, dy, vx, vy = (c[rows] for c in self.cols)
        px, py = pts[pt, 0][pid], pts[pt, 1][pid]
        off = vx * (py - cy) - vy * (px - cx)
        close = np.flatnonzero(np.abs(off) < NEAR * (np.abs(vx) + np.abs(vy) + 1.0))
        if len(close):
            p = np.stack([px[close], py[close]], 1)
            c, d = np.stack([cx[close], cy[close]], 1), np.stack([dx[close], dy[close]], 1)
            vague[pt[pid[close[_near(p, c, d)]]]] = True
        fall = np.where(vy == 0, 1.0, vy)
        hit = ((cy > py) != (dy > py)) & (px < vx * (py - cy) / fall + cx)
        held = np.bincount(pid, hit, len(pt)) % 2 == 1
        np.maximum.at(top, pt[held], self.height[shape[held]])
        return top, vague


def _touching(ax, ay, bx, by, cx, cy, dx, dy, d1, d2, d3, d4) -> np.ndarray:
    """For (line a-b, edge c-d) rows with an orientation product within TOUCH of zero:
    whether that point lies within NEAR of the other segment (the scalar's Undecided)."""
    p, q = np.stack([ax, ay], 1), np.stack([bx, by], 1)
    c, d = np.stack([cx, cy], 1), np.stack([dx, dy], 1)
    return (
        (np.abs(d1) < TOUCH) & _near(p, c, d)
        | (np.abs(d2) < TOUCH) & _near(q, c, d)
        | (np.abs(d3) < TOUCH) & _near(c, p, q)
        | (np.abs(d4) < TOUCH) & _near(d, p, q)
    )


def _pieces(pair, t, inside, area, length):
    """The stretches [t0, t1] of each pair's line inside its shape, as (pair, t0, t1) arrays:
    for an area the sorted crossings, opened at the start if it holds the start and closed at
    the end if the count is odd; for a line feature, a point at each crossing."""
    count = np.bincount(pair, minlength=len(area))
    line = ~area[pair]
    pts = [pair[line], t[line], t[line]]
    on = ~line
    start = np.flatnonzero(inside)
    end = np.flatnonzero(area & ((count + inside) % 2 == 1))
    pa, ta = pair[on], t[on]  # by pair (rows come in pair order), not yet by t
    if len(pa) and count[pa].max() > 2:  # a concave area crossed more than twice
        p = np.concatenate([pa, start, end])
        v = np.concatenate([ta, np.zeros(len(start)), length[end]])
        order = np.lexsort((v, p))
    else:  # at most two crossings a pair: put each two in order, then a stable sort by
        # pair keeps the start (0) before them and the end (length) after
        swap = np.flatnonzero((pa[1:] == pa[:-1]) & (ta[1:] < ta[:-1]))
        ta = ta.copy()
        ta[swap], ta[swap + 1] = ta[swap + 1], ta[swap]
        p = np.concatenate([start, pa, end])
        v = np.concatenate([np.zeros(len(start)), ta, length[end]])
        order = np.argsort(p, kind="stable")
    p, v = p[order], v[order]
    return (
        np.concatenate([pts[0], p[0::2]]),
        np.concatenate([pts[1], v[0::2]]),
        np.concatenate([pts[2], v[1::2]]),
    )


def _meets_box(a: np.ndarray, b: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """Whether each line's infinite extension has box corners on both sides (or one on it):
    a line with all four corners clearly on one side misses the box."""
    ux, uy = (b - a).T
    ax, ay = a.T
    x0, y0, x1, y1 = boxes.T
    c = [ux * (y - ay) - uy * (x - ax) for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1))]
    lo = np.minimum(np.minimum(c[0], c[1]), np.minimum(c[2], c[3]))
    hi = np.maximum(np.maximum(c[0], c[1]), np.maximum(c[2], c[3]))
    slack = NEAR * np.hypot(ux, uy)
    return (lo <= slack) & (hi >= -slack)


def _near(p: np.ndarray, s0: np.ndarray, s1: np.ndarray) -> np.ndarray:
    """`sightline._near` in arrays: whether each point lies within NEAR of its segment."""
    v = s1 - s0
    n = (v * v).sum(axis=1)
    t = np.clip(((p - s0) * v).sum(axis=1) / np.where(n == 0, 1.0, n), 0.0, 1.0)
    t = np.where(n == 0, 0.0, t)
    off = p - s0 - t[:, None] * v
    return np.hypot(off[:, 0], off[:, 1]) < NEAR
