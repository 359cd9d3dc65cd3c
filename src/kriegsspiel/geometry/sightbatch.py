"""Many sight lines at once in array arithmetic: the scalar rule of
:mod:`kriegsspiel.geometry.sightline` over every (line, feature) pair in one pass.

The features' edges are flat arrays; a box prefilter (each line's box against each feature's,
then, for features of many edges, the line against the box's corners) keeps the (line,
feature) pairs that may meet, and each pair is expanded into (line, edge) rows. Each vertex's
side of the line drops the edges clearly on one side of it; on the rest, orientation tests find
where each line crosses each edge, even-odd counts which end an area holds, and the sorted
crossings give the stretches of line inside each feature. The blocking rule is then the scalar
one, piece by piece: plain blockers (no height) first, and only lines they leave open go on to
hills and tall features, whose ground heights are counted the same way. Wherever the scalar path
would hand a line to the exact core (an end or a vertex within a hair of an edge, a height tie)
the line is left undecided here too, so the answers are the core's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import shapely

from kriegsspiel.geometry.sightline import EPS, NEAR, TOUCH

CHUNK = 400_000  # (line, edge) rows worked out in one pass; more go in several
ROUNDS = 2000  # (line, plain shape) pairs beyond which each line's likeliest goes first
CORNERS = 8  # sight rows of a shape beyond which its box's corners are tested first


class _Lines(NamedTuple):
    """The lines of one `decide`: ``cols``, contiguous rows (ax, ay, ux, uy, far, bx, by,
    length; ``far`` = 2 NEAR length, the scalar's skip) gathered per pair and per (line, edge)
    row, and ``box``, rows (least x, y, greatest x, y) for the prefilter."""

    cols: np.ndarray
    box: np.ndarray

    @classmethod
    def of(cls, a: np.ndarray, b: np.ndarray) -> _Lines:
        cols = np.empty((8, len(a)))
        ax, ay, ux, uy, far, bx, by, length = cols
        cols[:2], cols[5:7] = a.T, b.T
        np.subtract(bx, ax, out=ux)
        np.subtract(by, ay, out=uy)
        np.hypot(ux, uy, out=length)
        np.multiply(2 * NEAR, length, out=far)
        box = np.empty((4, len(a)))
        np.minimum(ax, bx, out=box[0])
        np.minimum(ay, by, out=box[1])
        np.maximum(ax, bx, out=box[2])
        np.maximum(ay, by, out=box[3])
        return cls(cols, box)


class SightBatch:
    """Every sight shape of one table and rules as arrays (built once, by ``SightLines``)."""

    def __init__(self, shapes: Sequence, see_into: float, own: float, crest: bool):
        self.see_into, self.own, self.crest = see_into, own, crest
        edges = [np.asarray(s.edges, float).reshape(-1, 6) for s in shapes]
        self.count = np.array([len(e) for e in edges], int)
        self.start = _starts(self.count)
        flat = np.concatenate(edges) if edges else np.zeros((0, 6))
        self.cols = tuple(np.ascontiguousarray(c) for c in flat.T)  # cx, cy, dx, dy, vx, vy
        # the sight rows: each shape's edges, and after each polyline a row at its last
        # vertex with a NaN run (out of every test), so that every edge's end is the start of
        # the row `step` on: the line's side of each vertex is worked out once
        walks = [_walk(s) for s in shapes]
        self.k = np.array([len(w) for w, _ in walks], int)
        self.first = _starts(self.k)
        self.few = not len(self.k) or self.k.max() <= CORNERS
        rows = np.concatenate([w for w, _ in walks]) if walks else np.zeros((0, 6))
        self.sight = np.ascontiguousarray(rows.T)  # cx, cy, dx, dy, vx, vy
        self.step = np.concatenate([st for _, st in walks]) if walks else np.zeros(0, int)
        self.boxes = np.asarray([s.box for s in shapes], float).reshape(-1, 4)
        self.wide = np.hstack([self.boxes[:, :2] - NEAR, self.boxes[:, 2:] + NEAR])
        self.area = np.array([s.area for s in shapes], bool)
        # areas whose start's side is counted for plain pieces (not for one convex ring)
        self.counted = self.area & ~np.array([_convex(s) for s in shapes], bool)
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
        lines = _Lines.of(a, b)
        unsure = lines.cols[7] == 0  # a point, not a line: the core's
        # plain blockers settle most lines without any ground height; among many lines,
        # first each line's likeliest blocker (the one whose box centre lies nearest the
        # line), then the others of the lines still open
        seg, shape = self._candidates(lines, (~unsure).nonzero()[0], self.plain_ids)
        if len(seg) > ROUNDS:
            order = seg.argsort(kind="stable")
            seg, shape = seg.take(order), shape.take(order)
            first = self._likeliest(lines, seg, shape)
            self._settle(a, b, lines, seg[first], shape[first], None, blocked, unsure)
            more = ~first & ~blocked[seg]
            self._settle(a, b, lines, seg[more], shape[more], None, blocked, unsure)
        else:
            self._settle(a, b, lines, seg, shape, None, blocked, unsure)
        # the lines still open and sure meet hills and tall features
        if not len(self.tall_ids):
            return ~blocked, blocked | ~unsure
        seg, shape = self._candidates(lines, (~blocked & ~unsure).nonzero()[0], self.tall_ids)
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

    def _candidates(self, lines: _Lines, idx, shapes) -> tuple[np.ndarray, np.ndarray]:
        """(line, shape) pairs, by shape, of the given lines and shapes (indexes) that the box
        prefilter keeps: the line's box meets the shape's and the line the box."""
        if not len(idx) or not len(shapes):
            return np.zeros(0, int), np.zeros(0, int)
        # each line's box meets each (widened) box: no side of one lies beyond the other's;
        # shapes down, lines across (long rows)
        box = lines.box if len(idx) == lines.box.shape[1] else lines.box.take(idx, axis=1)
        x0, y0, x1, y1 = box
        w = self.wide.take(shapes, axis=0)[:, :, None]
        meet = (x1 >= w[:, 0]) & (x0 <= w[:, 2]) & (y1 >= w[:, 1]) & (y0 <= w[:, 3])
        j, i = np.divmod(meet.ravel().nonzero()[0], len(idx))
        seg, shape = idx.take(i), shapes.take(j)
        if self.few or self.k.take(shapes).max() <= CORNERS:
            return seg, shape  # few vertices: their own test costs no more than the corners
        ax, ay, ux, uy = (c.take(seg) for c in lines.cols[:4])
        length = lines.cols[7].take(seg)
        keep = _meets_box(ax, ay, ux, uy, length, self.boxes.take(shape, axis=0))
        return seg[keep], shape[keep]

    def _likeliest(self, lines, seg, shape) -> np.ndarray:
        """For (line, shape) pairs sorted by line: True at each line's pair(s) whose shape's
        box centre lies nearest the line, for its size (only an order of work)."""
        if not len(seg):
            return np.zeros(0, bool)
        x0, y0, x1, y1 = self.boxes.take(shape, axis=0).T
        ax, ay, ux, uy = (c.take(seg) for c in lines.cols[:4])
        off = np.abs(ux * ((y0 + y1) / 2 - ay) - uy * ((x0 + x1) / 2 - ax))
        score = off / lines.cols[7].take(seg) / ((x1 - x0) + (y1 - y0) + 1e-12)
        starts = np.concatenate([[0], (seg[1:] != seg[:-1]).nonzero()[0] + 1])
        least = np.minimum.reduceat(score, starts)
        return score == least.repeat(np.diff(np.append(starts, len(seg))))

    def _settle(self, a, b, lines, seg, shape, heights, blocked, unsure) -> None:
        """Mark the lines that a (line, shape) pair surely blocks, and the lines a pair leaves
        undecided, in passes of at most CHUNK (line, edge) rows."""
        if not len(seg):
            return
        k = self.k.take(shape)
        ends = k.cumsum()
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
        each pair's count of sight rows, `ends` their running sum."""
        pair, t, touch = self._met(lines, *self._near(lines, seg, shape, k, ends))
        vague = np.zeros(len(seg), bool)
        vague[touch] = True
        area = self.area.take(shape)
        length = lines.cols[7].take(seg)
        blocks = np.zeros(len(seg), bool)
        if heights is None and self.own == np.inf:
            # plain shapes, the ends' own areas ignored: a piece from an end never blocks,
            # so only pairs crossed twice or more may, and only they need the start's side,
            # but for a convex area (crossed twice, the start is outside it)
            count = np.bincount(pair, minlength=len(seg))
            held = self.counted.take(shape) & (count > 1)
            inside = self._inside(lines, seg, shape, held)
            blocks[self._between(pair, t, inside, area, length, count.max())] = True
            return blocks & ~vague, vague
        inside = self._inside(lines, seg, shape, area)
        piece, t0, t1 = _pieces(pair, t, inside, area, length)
        block, tie = self._blocks(a, b, seg, shape, length, piece, t0, t1, heights)
        blocks[piece[block & ~tie]] = True
        vague[piece[tie]] = True
        return blocks & ~vague, vague

    def _between(self, pair, t, inside, area, length, most) -> np.ndarray:
        """The pairs that a piece between two crossings blocks (`_blocks` for plain shapes
        with the ends' own areas ignored): for an area each stretch from a crossing to the
        next inside it, for a line feature each crossing; `most` is the most crossings of a
        pair (beyond two, a concave area: its crossings are sorted first)."""
        if most > 2:
            order = np.lexsort((t, pair))
            pair, t = pair.take(order), t.take(order)
        si = self.see_into
        i = (pair[1:] == pair[:-1]).nonzero()[0]  # a crossing followed by one of its pair
        hit = None
        if not area.all():  # a line feature: each crossing clear of the ends
            line = ~area.take(pair)
            hit = pair[line & (t > si + EPS) & (t < length.take(pair) - si - EPS)]
            i = i[~line.take(i)]
        # an area: the stretch from each crossing to the next, inside it where the first
        # one's rank in the pair plus the start's side is even (of two: the first, outside)
        p = pair.take(i)
        if most > 2 or inside.any():
            even = ~inside.take(p)
            if most > 2:  # the rank: how far on from its pair's first crossing (sorted)
                even ^= (i - pair.searchsorted(p)) % 2 == 1
            i, p = i[even], p[even]
        t0, t1 = t.take(i), t.take(i + 1)
        t0, t1 = np.minimum(t0, t1), np.maximum(t0, t1)  # two crossings: in either order
        L = length.take(p)
        # without see_into, clipping to [0, L] changes no stretch with t0 > EPS, t1 < L - EPS
        span = np.minimum(t1, L - si) - np.maximum(t0, si) if si else t1 - t0
        ok = (t0 > EPS) & (t1 < L - EPS) & (span > EPS)
        return p[ok] if hit is None else np.concatenate([hit, p[ok]])

    def _rows(self, shape, k, ends) -> tuple[np.ndarray, np.ndarray]:
        """The pairs' sight rows one after another, and 0, 1, ... along them."""
        j = np.arange(ends[-1])
        rows = (self.first.take(shape) - (ends - k)).repeat(k)
        rows += j
        return rows, j

    def _near(self, lines, seg, shape, k, ends):
        """The (line, edge) rows that may cross or touch, as (pair, row, line, ax, ay, cx, cy,
        d3, d4): each vertex against the line's extension (d3, and d4 of the edge's end),
        then each edge by its two ends: with both more than 2 NEAR to one side it can
        neither cross the line nor touch it (the scalar's skip)."""
        pid = np.arange(len(seg)).repeat(k)
        rows, j = self._rows(shape, k, ends)
        line = seg.take(pid)
        ax, ay, ux, uy, far = (c.take(line) for c in lines.cols[:5])
        cx, cy = (c.take(rows) for c in self.sight[:2])
        d3 = _orient(ux, uy, ax, ay, cx, cy)
        j += self.step.take(rows)
        d4 = d3.take(j)
        near = np.minimum(d3, d4)
        np.maximum(near, np.negative(np.maximum(d3, d4, out=ux), out=ux), out=near)
        w = (near <= far).nonzero()[0]
        return [v.take(w) for v in (pid, rows, line, ax, ay, cx, cy, d3, d4)]

    def _met(self, lines, pid, rows, line, ax, ay, cx, cy, d3, d4):
        """For (line, edge) rows: where the line crosses the edge, as (pair, distance along
        the line), and the pairs with a point within a hair of the other segment (the
        scalar's Undecided)."""
        vx, vy = (c.take(rows) for c in self.sight[4:6])
        bx, by = (c.take(line) for c in lines.cols[5:7])
        d1 = _orient(vx, vy, cx, cy, ax, ay)
        d2 = _orient(vx, vy, cx, cy, bx, by)
        # only rows whose edge's line the line's ends do not clearly lie on one side of
        live = (np.minimum(d1, d2) <= TOUCH) & (np.maximum(d1, d2) >= -TOUCH)
        small = np.abs(d1)
        for d in (d2, d3, d4):
            np.minimum(small, np.abs(d, out=vx), out=small)
        flat = small < TOUCH
        lf = live & flat
        w = lf.nonzero()[0]
        touch = w[:0]
        if len(w):
            dx, dy = (c.take(rows.take(w)) for c in self.sight[2:4])
            ends = (v.take(w) for v in (ax, ay, bx, by, cx, cy))
            touch = pid.take(w[_touching(*ends, dx, dy, *(d.take(w) for d in (d1, d2, d3, d4)))])
        cross = ((live ^ lf) & ((d3 > 0) != (d4 > 0))).nonzero()[0]  # live, not flat
        d1, d2 = d1.take(cross), d2.take(cross)
        return pid.take(cross), d1 / (d1 - d2) * lines.cols[7].take(line.take(cross)), touch

    def _inside(self, lines, seg, shape, area) -> np.ndarray:
        """Whether each pair's line starts inside its area (where ``area``): the scalar's
        even-odd count of the edges that the ray from the start to +x crosses, on the pairs
        whose (widened) box holds the start (outside it every ring's count is even)."""
        if not area.any():
            return area
        x0, y0, x1, y1 = self.wide.take(shape, axis=0).T
        px, py = (c.take(seg) for c in lines.cols[:2])
        held = area & (px >= x0) & (px <= x1) & (py >= y0) & (py <= y1)
        p = held.nonzero()[0]
        if not len(p):
            return held
        k = self.k.take(shape.take(p))
        ends = k.cumsum()
        pid = p.repeat(k)
        rows = self._rows(shape.take(p), k, ends)[0]
        x, y = px.take(pid), py.take(pid)
        cy, dy = self.sight[1].take(rows), self.sight[3].take(rows)
        h = ((cy > y) != (dy > y)).nonzero()[0]  # the rows straddling the start's y
        cx, vx, vy = (self.sight[i].take(rows.take(h)) for i in (0, 4, 5))
        hit = x.take(h) < vx * (y.take(h) - cy.take(h)) / vy + cx
        return held & (np.bincount(pid.take(h)[hit], minlength=len(seg)) % 2 == 1)

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


def _convex(s) -> bool:
    """Whether a shape is one convex ring: its boundary meets a line at most twice, a segment
    crossing it twice (clear of its edges: no near touch) starts and ends outside it."""
    if not s.area or len(s.rings) != 1:
        return False
    ring = shapely.Polygon(s.rings[0])
    return ring.is_valid and ring.area > 0 and ring.equals(ring.convex_hull)


def _starts(count: np.ndarray) -> np.ndarray:
    """Where each run of ``count`` rows starts."""
    return np.concatenate([[0], count.cumsum()[:-1]]).astype(int)


def _walk(s) -> tuple[np.ndarray, np.ndarray]:
    """A shape's sight rows (its edges, and a NaN-run row after each polyline) and, for each
    row, how far on the row that starts at its end is (a polyline's last row: itself)."""
    rows, step = [], []
    for ring in s.rings:
        m = len(ring)
        if s.area:
            ends = zip(ring[-1:] + ring[:-1], ring, strict=True)
            step += [1] * (m - 1) + [1 - m]
        else:
            ends = zip(ring, ring[1:] + ((np.nan, np.nan),), strict=True)
            step += [1] * (m - 1) + [0]
        rows += [(cx, cy, dx, dy, dx - cx, dy - cy) for (cx, cy), (dx, dy) in ends]
    return np.array(rows, float).reshape(-1, 6), np.array(step, int)


def _orient(ux, uy, px, py, qx, qy) -> np.ndarray:
    """u x (q - p), written ``ux * (qy - py) - uy * (qx - px)`` as the scalar does (the same
    values), with two temporaries."""
    s = qy - py
    s *= ux
    t = qx - px
    t *= uy
    s -= t
    return s


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


def _meets_box(ax, ay, ux, uy, length, boxes: np.ndarray) -> np.ndarray:
    """Whether each line (start, run, length) has box corners on both sides of its infinite
    extension (or one on it): a line with all four corners clearly on one side misses the box.
    The corners' orientation products u x (corner - a) are the scalar's; their least and
    greatest are taken over the terms (rounding is monotonic, so the same values)."""
    x0, y0, x1, y1 = boxes.T
    p0, p1 = ux * (y0 - ay), ux * (y1 - ay)
    q0, q1 = uy * (x0 - ax), uy * (x1 - ax)
    slack = NEAR * length
    lo = np.minimum(p0, p1) - np.maximum(q0, q1)
    hi = np.maximum(p0, p1) - np.minimum(q0, q1)
    return (lo <= slack) & (hi >= -slack)


def _near(p: np.ndarray, s0: np.ndarray, s1: np.ndarray) -> np.ndarray:
    """`sightline._near` in arrays: whether each point lies within NEAR of its segment."""
    v = s1 - s0
    n = (v * v).sum(axis=1)
    t = np.clip(((p - s0) * v).sum(axis=1) / np.where(n == 0, 1.0, n), 0.0, 1.0)
    t = np.where(n == 0, 0.0, t)
    off = p - s0 - t[:, None] * v
    return np.hypot(off[:, 0], off[:, 1]) < NEAR
