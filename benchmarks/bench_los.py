"""Line-of-sight throughput: STRtree index vs a naive loop over all features.

A seeded 200-feature table (woods, buildings, walls, hills) on a 72 x 48 in table, N random
sight lines (eye height 1 in at both ends). Prints checks per second, in one run, for:

- naive single: per check, a Python loop over every feature, then the unindexed evaluation;
- single checks: `visible` (plain arithmetic, near-touching lines to the exact core), and one
  line at a time through the vectorised core (visibility only, and full results);
- vectorised batch without the index (every line against every feature) and `visible_many`
  (array arithmetic over every (line, feature) pair the box prefilter keeps: crossings,
  stretches inside each feature, ground heights; the exact core only for grazing lines);

each the best of three runs, and the ratios. Targets (issue 14 item 5): batch >= 200,000 checks/s, single >= 10x naive. Run: .venv/bin/python benchmarks/bench_los.py [N]
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

import numpy as np
from shapely import LineString, Point, box

from kriegsspiel.geometry import Feature, SightRules, Table, line_of_sight, visible, visible_many
from kriegsspiel.geometry.los import _evaluate

BLOCKS = frozenset({"woods", "building", "wall"})
W, D = 72.0, 48.0


def random_table(rng: np.random.Generator, n: int = 200) -> Table:
    features = []
    kinds = rng.choice(["woods", "building", "wall", "hill"], size=n, p=[0.35, 0.3, 0.2, 0.15])
    for i, kind in enumerate(kinds):
        x, y = rng.uniform(0, W), rng.uniform(0, D)
        if kind == "wall":
            a = rng.uniform(0, np.pi)
            length = rng.uniform(2, 8)
            dx, dy = np.cos(a) * length, np.sin(a) * length
            geom = LineString([(x, y), (x + dx, y + dy)])
            attrs = {"height": 0.5}
        elif kind == "woods":
            geom = Point(x, y).buffer(rng.uniform(1.5, 4), quad_segs=4)
            attrs = {"density": str(rng.choice(["thick", "thin"]))}
        elif kind == "building":
            w, d = rng.uniform(1, 3, 2)
            geom = box(x, y, x + w, y + d)
            attrs = {"height": float(rng.uniform(1, 3))}
        else:
            geom = Point(x, y).buffer(rng.uniform(3, 8), quad_segs=6)
            attrs = {"height": float(rng.integers(1, 3))}
        features.append(Feature(f"f{i}", str(kind), geom, attrs))
    return Table(W, D, "in", features)


def python_loop_visible(table: Table, a: np.ndarray, b: np.ndarray) -> bool:
    """Naive candidate search: a Python loop testing the sight line against every feature,
    then the same evaluation as the indexed path on the features it found."""
    line = LineString([a, b])
    if not any(line.intersects(f.geometry) for f in table.features):
        return True
    return bool(visible_many(table, a[None], b[None], BLOCKS, 1.0, 1.0, use_index=False)[0])


def rate(fn: Callable[[], object], n: int, table: Table | None = None, repeat: int = 3) -> float:
    """Checks per second: the best of `repeat` timed runs (this machine's speed drifts), each
    with the table's memo of the exact core's answers emptied first (a run measures the
    work, not a memo hit)."""
    best = float("inf")
    for _ in range(repeat):
        if table is not None:
            for lines in table.cache.get("lines", {}).values():
                lines.settled.clear()
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return n / best


def main(n: int = 20_000) -> None:
    rng = np.random.default_rng(20261202)
    table = random_table(rng)
    a, b = rng.uniform(0, [W, D], (n, 2)), rng.uniform(0, [W, D], (n, 2))
    pairs = [(tuple(p), tuple(q)) for p, q in zip(a, b, strict=True)]
    k = min(n, 2_000)  # the slow single paths run on a subset
    one = list(zip(a[:k, None], b[:k, None], strict=True))
    floats = [(tuple(map(float, p)), tuple(map(float, q))) for p, q in pairs]
    rules = SightRules(BLOCKS)
    h1 = np.ones(1)
    naive = rate(lambda: [python_loop_visible(table, p[0], q[0]) for p, q in one], k)
    scalar = rate(lambda: [visible(table, p, q, rules, 1.0, 1.0) for p, q in floats[:k]], k, table)
    single = rate(lambda: [_evaluate(table, p, q, h1, h1, rules, False) for p, q in one], k)
    full = rate(lambda: [line_of_sight(table, p, q, BLOCKS, 1, 1) for p, q in pairs[:k]], k)
    batch_naive = rate(lambda: visible_many(table, a, b, BLOCKS, 1.0, 1.0, use_index=False), n)
    batch = rate(lambda: visible_many(table, a, b, BLOCKS, 1.0, 1.0), n, table)
    seen = visible_many(table, a, b, BLOCKS, 1.0, 1.0)
    print(f"table: {len(table.features)} features, {n} random checks, {seen.mean():.1%} visible")
    rows = [
        ("naive loop, single", naive),
        ("single, visible()", scalar),
        ("single, vectorised core", single),
        ("indexed, single (full LOSResult)", full),
        ("vectorised batch, no index", batch_naive),
        ("vectorised batch, indexed", batch),
    ]
    for name, r in rows:
        print(f"{name:34}: {r:10,.0f} checks/s  ({r / naive:5.1f}x naive loop)")
    print(f"single visible() vs naive loop: {scalar / naive:.1f}x (target >= 10x)")
    print(f"batch visible_many: {batch:,.0f} checks/s (target >= 200,000)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20_000)
