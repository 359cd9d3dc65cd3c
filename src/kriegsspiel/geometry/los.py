"""Line of sight with heights, over a :class:`~kriegsspiel.geometry.terrain.Table`.

Which features block is the caller's (ruleset's) choice, given as a set of kinds or a
predicate. Hills (the table's ``hill_kinds``) always act as ground: they block when the sight
line passes below their top between the endpoints. A blocking feature with a ``height``
blocks only where the line passes below ``ground + height``; one without blocks outright.

One vectorised core (:func:`_evaluate`) serves single checks and batches.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import shapely

from kriegsspiel.geometry.footprint import Footprint
from kriegsspiel.geometry.footprint import Point as XY
from kriegsspiel.geometry.sightline import SightLines
from kriegsspiel.geometry.terrain import BlockRule, Feature, Table, blocking_predicate

EPS = 1e-9
Mode = Literal["centre", "any"]
HillRule = Literal["below_top", "crest"]
SETTLED_SIZE = 100_000  # grazing lines remembered per table and rules


@dataclass(frozen=True)
class LOSResult:
    """Outcome of one sight line: ``blocked_by`` and ``passes_through`` are feature ids in
    order along the line; ``inside`` maps each passed-through area feature to the length of
    line inside it (for rulesets that charge modifiers for seeing through thin cover)."""

    visible: bool
    blocked_by: tuple[str, ...]
    passes_through: tuple[str, ...]
    inside: dict[str, float]


@dataclass(frozen=True)
class SightRules:
    """How sight lines treat terrain.

    ``blocks``: kinds or predicate for blocking features. ``see_into``: along the line, a
    blocking feature within this distance of either endpoint is ignored (seeing into / out
    of cover, over a wall one lines). ``own_depth``: a blocking area containing an endpoint
    is ignored for the stretch adjoining that endpoint if the stretch is at most this long;
    None = always ignored (an endpoint's own terrain never blocks it). ``hills``:
    ``"below_top"`` = a hill blocks where the line passes below its top; ``"crest"`` = only
    where both ends stand below its top and the line at its edge is at or below the top (a
    crest hides what is behind it from the low ground, never from a higher observer: the
    quickref hill rule).
    """

    blocks: BlockRule
    see_into: float = 0.0
    own_depth: float | None = None
    hills: HillRule = "below_top"

    def mask(self, table: Table) -> np.ndarray:
        """Which of the table's features block, cached per table and rule."""
        key = self.blocks if callable(self.blocks) else frozenset(self.blocks)
        cache = table.cache.setdefault("blocks", {})
        if key not in cache:
            pred: Callable[[Feature], bool] = blocking_predicate(self.blocks)
            cache[key] = np.array([pred(f) for f in table.features], dtype=bool)
        return cache[key]

    def lines(self, table: Table) -> SightLines:
        """The table's scalar sight under these rules, built once per table and rules (looked
        up first by this very rules object: single checks ask for it every time)."""
        mine = table.cache.setdefault("lines by rules", {}).get(id(self))
        if mine is not None and mine[0] is self:
            return mine[1]
        key = (
            self.blocks if callable(self.blocks) else frozenset(self.blocks),
            self.see_into,
            self.own_depth,
            self.hills,
        )
        cache = table.cache.setdefault("lines", {})
        if key not in cache:
            crest = self.hills == "crest"
            cache[key] = SightLines(table, self.mask(table), self.see_into, self.own_depth, crest)
        mine = table.cache["lines by rules"]
        if len(mine) >= 64:  # batch calls make a rules object each
            mine.clear()
        mine[id(self)] = (self, cache[key])  # holds self, so the id is not reused
        return cache[key]


def visible(
    table: Table, a: XY, b: XY, rules: SightRules, ha: float = 0.0, hb: float = 0.0
) -> bool:
    """Whether one sight line a→b is clear (eyes ``ha``/``hb`` above the ground): plain
    arithmetic (:class:`SightLines`) where it is sure, else the vectorised core; the same
    answer as :func:`visible_many` either way."""
    seen = rules.lines(table).visible(a, b, ha, hb)
    if seen is None:
        arr = np.array
        seen = bool(
            _evaluate(
                table, arr([a], float), arr([b], float), arr([ha], float), arr([hb], float),
                rules, details=False,
            )[0][0]
        )  # fmt: skip
    return seen


def line_of_sight(
    table: Table,
    observer: XY,
    target: XY,
    blocks: BlockRule,
    observer_height: float = 0.0,
    target_height: float = 0.0,
    see_into: float = 0.0,
    own_depth: float | None = None,
    hills: HillRule = "below_top",
) -> LOSResult:
    """Line of sight from an eye ``observer_height`` above the ground at ``observer`` to a
    point ``target_height`` above the ground at ``target``."""
    rules = SightRules(blocks, see_into, own_depth, hills)
    return _evaluate(
        table, np.array([observer], float), np.array([target], float),
        np.array([observer_height], float), np.array([target_height], float),
        rules, details=True,
    )[1][0]  # fmt: skip


def line_of_sight_to_footprint(
    table: Table,
    observer: XY,
    target: Footprint,
    blocks: BlockRule,
    observer_height: float = 0.0,
    target_height: float = 0.0,
    mode: Mode = "any",
    see_into: float = 0.0,
    own_depth: float | None = None,
    hills: HillRule = "below_top",
) -> LOSResult:
    """Sight to a footprint: ``"centre"`` = to its centre only, ``"any"`` = to its centre,
    corners or edge midpoints (the first visible one wins; else all blockers are reported)."""
    points = [target.centre] if mode == "centre" else _sample_points(target)
    n = len(points)
    _, results = _evaluate(
        table, np.repeat([observer], n, axis=0).astype(float), np.array(points, float),
        np.full(n, observer_height, float), np.full(n, target_height, float),
        SightRules(blocks, see_into, own_depth, hills), details=True,
    )  # fmt: skip
    for r in results:
        if r.visible:
            return r
    blocked = tuple(dict.fromkeys(i for r in results for i in r.blocked_by))
    return LOSResult(False, blocked, results[0].passes_through, results[0].inside)


def visible_many(
    table: Table,
    observers: np.ndarray | Sequence[XY],
    targets: np.ndarray | Sequence[XY],
    blocks: BlockRule,
    observer_heights: float | np.ndarray = 0.0,
    target_heights: float | np.ndarray = 0.0,
    see_into: float = 0.0,
    own_depth: float | None = None,
    use_index: bool = True,
    hills: HillRule = "below_top",
) -> np.ndarray:
    """Vectorised visibility for ``n`` (observer, target) pairs: a bool array of length n.

    ``use_index=False`` tests every segment against every feature (for benchmarks/tests).
    """
    a, b = np.asarray(observers, float), np.asarray(targets, float)
    ha = np.full(len(a), observer_heights, float)
    hb = np.full(len(a), target_heights, float)
    rules = SightRules(blocks, see_into, own_depth, hills)
    batch = rules.lines(table).batch if use_index else None
    if batch is None or not len(a):
        return _evaluate(table, a, b, ha, hb, rules, details=False, use_index=use_index)[0]
    seen, decided = batch.decide(a, b, ha, hb)
    rest = (~decided).nonzero()[0]
    if len(rest):
        seen[rest] = _settled(table, rules, a[rest], b[rest], ha[rest], hb[rest])
    return seen


def _settled(
    table: Table, rules: SightRules, a: np.ndarray, b: np.ndarray, ha: np.ndarray, hb: np.ndarray
) -> np.ndarray:
    """The exact core's answer for lines the arithmetic left undecided (they graze an edge
    or a corner), remembered per table and rules: pieces standing still are looked at
    again and again along the same grazing lines."""
    memo = rules.lines(table).settled
    ends = zip(map(tuple, a.tolist()), map(tuple, b.tolist()), strict=True)
    keys = [(p, q, x, y) for (p, q), x, y in zip(ends, ha.tolist(), hb.tolist(), strict=True)]
    new = [i for i, k in enumerate(keys) if k not in memo]
    if new:
        if len(memo) >= SETTLED_SIZE:
            memo.clear()
        got = _evaluate(table, a[new], b[new], ha[new], hb[new], rules, details=False)[0]
        memo.update(zip([keys[i] for i in new], got.tolist(), strict=True))
    return np.array([memo[k] for k in keys], dtype=bool)


def _sample_points(fp: Footprint) -> list[XY]:
    corners = fp.corners()
    mids = [
        ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)
        for p, q in zip(corners, corners[1:] + corners[:1], strict=True)
    ]
    return [fp.centre, *corners, *mids]


def _candidate_pairs(
    table: Table, segments: np.ndarray, use_index: bool, relevant: np.ndarray | None = None
) -> np.ndarray:
    """(2, m) array of (segment, feature) pairs whose envelopes meet (index) or all pairs,
    restricted to ``relevant`` features if given; geometries are not yet tested."""
    if use_index:
        seg, feat = table.tree.query(segments)
    else:
        seg, feat = np.divmod(np.arange(len(segments) * len(table.features)), len(table.features))
    if relevant is not None:
        keep = relevant[feat]
        seg, feat = seg[keep], feat[keep]
    return np.vstack([seg, feat])


def _intersecting(table: Table, segments: np.ndarray, pairs: np.ndarray) -> np.ndarray:
    seg, feat = pairs
    hit = shapely.intersects(table.geometries[feat], segments[seg])
    return pairs[:, hit]


def _plainly_blocked(
    table: Table,
    segments: np.ndarray,
    ends: tuple[np.ndarray, np.ndarray],
    pairs: np.ndarray,
    blocking: np.ndarray,
    rules: SightRules,
) -> np.ndarray:
    """Segments surely blocked, found by predicates alone (no intersections computed): a
    blocking area without height, holding neither endpoint, whose interior the line crosses."""
    out = np.zeros(len(segments), dtype=bool)
    if rules.see_into > 0:
        return out
    seg, feat = pairs
    k = blocking[feat] & table.is_area[feat] & np.isnan(table.heights[feat]) & ~table.is_hill[feat]
    s, g = seg[k], table.geometries[feat[k]]
    hit = shapely.intersects(g, segments[s])
    s, f = s[hit], feat[k][hit]
    nf = len(table.features)
    held = np.concatenate(
        [ps * nf + pf for ps, pf in (table.tree.query(e, predicate="intersects") for e in ends)]
    )
    sure = ~np.isin(s * nf + f, held)  # neither endpoint stands in the feature
    s, first = np.unique(s[sure], return_index=True)  # one witness per segment is enough
    g = table.geometries[f[sure][first]]
    s = s[~shapely.touches(g, segments[s])]
    out[s] = True
    return out


def _evaluate(
    table: Table,
    a: np.ndarray,
    b: np.ndarray,
    ha: np.ndarray,
    hb: np.ndarray,
    rules: SightRules,
    details: bool,
    use_index: bool = True,
) -> tuple[np.ndarray, list[LOSResult]]:
    """Visibility of n sight lines ``a[i]`` → ``b[i]`` (eye heights ``ha``/``hb`` above the
    ground), plus full results if ``details``. A tall blocking feature stands on the ground at
    the middle of the stretch of line inside it."""
    n = len(a)
    za = table.ground_heights(a) + ha
    zb = table.ground_heights(b) + hb
    d = b - a
    length = np.hypot(d[:, 0], d[:, 1])
    segments = shapely.linestrings(np.stack([a, b], axis=1))
    blocking = rules.mask(table)
    if details:
        seg, feat = _intersecting(table, segments, _candidate_pairs(table, segments, use_index))
    else:  # only hills and blocking features matter, and only on lines not surely blocked
        pairs = _candidate_pairs(table, segments, use_index, blocking | table.is_hill)
        ends = (shapely.points(a), shapely.points(b))
        blocked = _plainly_blocked(table, segments, ends, pairs, blocking, rules)
        seg, feat = _intersecting(table, segments, pairs[:, ~blocked[pairs[0]]])
    # Pieces of each (segment, feature) intersection, as [t0, t1] distances along the segment.
    pieces, pair = shapely.get_parts(
        shapely.intersection(segments[seg], table.geometries[feat]), return_index=True
    )
    nonempty = ~shapely.is_empty(pieces)
    pieces, pair = pieces[nonempty], pair[nonempty]
    coords, cidx = shapely.get_coordinates(pieces, return_index=True)
    s_c = seg[pair][cidx]
    safe = np.where(length > 0, length, 1.0)
    t = np.einsum("ij,ij->i", coords - a[s_c], d[s_c]) / safe[s_c]
    t0 = np.full(len(pieces), np.inf)
    t1 = np.full(len(pieces), -np.inf)
    np.minimum.at(t0, cidx, t)
    np.maximum.at(t1, cidx, t)
    ps, pf = seg[pair], feat[pair]
    L = length[ps]
    hill = table.is_hill[pf]
    block = blocking[pf] & ~hill
    # Ignore anything within see_into of an endpoint, and an endpoint's own area feature for
    # own_depth along the line from that endpoint.
    own = np.inf if rules.own_depth is None else rules.own_depth
    area = table.is_area[pf]
    lo = np.maximum(t0, rules.see_into)
    hi = np.minimum(t1, L - rules.see_into)
    lo = np.where(area & (t0 <= EPS), np.maximum(lo, own), lo)
    hi = np.where(area & (t1 >= L - EPS), np.minimum(hi, L - own), hi)
    # an area blocks only on a stretch of positive length; a line only strictly inside
    clear_of_ends = (t0 > rules.see_into + EPS) & (t1 < L - rules.see_into - EPS)
    block &= np.where(area, hi - lo > EPS, clear_of_ends)
    lo, hi = np.clip(lo, 0.0, L), np.clip(hi, 0.0, L)
    # Heights: a hill's height is its absolute top; others stand on the ground beneath them.
    h = table.heights[pf]
    top = np.where(np.isnan(h), np.inf, h)
    lo, hi = np.where(hill, np.clip(t0, 0.0, L), lo), np.where(hill, np.clip(t1, 0.0, L), hi)
    tall = block & np.isfinite(top)
    if tall.any():
        mid = (lo[tall] + hi[tall]) / 2 / safe[ps[tall]]
        top[tall] += table.ground_heights(a[ps[tall]] + d[ps[tall]] * mid[:, None])
    frac_lo, frac_hi = lo / safe[ps], hi / safe[ps]
    z_lo = za[ps] + (zb[ps] - za[ps]) * frac_lo
    z_hi = za[ps] + (zb[ps] - za[ps]) * frac_hi
    z_min = np.minimum(z_lo, z_hi)
    below = z_min < top - EPS
    if rules.hills == "crest":  # both ends below the crest, the line at or below it
        low = (za[ps] - ha[ps] < top - EPS) & (zb[ps] - hb[ps] < top - EPS)
        below = np.where(hill, low & (z_min <= top + EPS), below)
    blocked_piece = (block | hill) & below
    visible = np.ones(n, dtype=bool) if details else ~blocked
    visible[ps[blocked_piece]] = False
    if not details:
        return visible, []
    return visible, _results(table, visible, ps, pf, t0, t1, blocked_piece, area, n)


def _results(
    table: Table,
    visible: np.ndarray,
    ps: np.ndarray,
    pf: np.ndarray,
    t0: np.ndarray,
    t1: np.ndarray,
    blocked_piece: np.ndarray,
    area: np.ndarray,
    n: int,
) -> list[LOSResult]:
    order = np.lexsort((t0, ps))
    blocked: list[dict[str, None]] = [{} for _ in range(n)]
    through: list[dict[str, float]] = [{} for _ in range(n)]
    for k in order:
        fid = table.features[pf[k]].id
        s = ps[k]
        inside = float(t1[k] - t0[k]) if area[k] else 0.0
        through[s][fid] = through[s].get(fid, 0.0) + inside
        if blocked_piece[k]:
            blocked[s][fid] = None
    return [
        LOSResult(
            bool(visible[s]),
            tuple(blocked[s]),
            tuple(through[s]),
            {k: v for k, v in through[s].items() if table.by_id[k].is_area},
        )
        for s in range(n)
    ]
