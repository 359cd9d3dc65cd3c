"""Exact odds vs Monte Carlo for one quickref direct-fire action (issue 2, item 9).

Prints the time of an exact (uncached) evaluation, of a 100,000-sample Monte Carlo of the same
resolution, their ratio, the largest probability difference, and the time of a repeated (cached)
exact query. Run: .venv/bin/python benchmarks/bench_odds.py
"""

from __future__ import annotations

import time

from kriegsspiel.chance import clear_cache, exact, monte_carlo
from kriegsspiel.rulesets import load
from kriegsspiel.rulesets.quickref.direct_fire import Shot, direct_fire
from kriegsspiel.rulesets.quickref.tables import rules

SAMPLES = 100_000


def main() -> None:
    cat = load("quickref")
    r = rules(cat)
    shot = Shot(
        cat.get("vehicle", "PzKw IV H"),
        cat.get("vehicle", "usa/m4-medium-tank"),
        30.0,
        aspect="front",
        firer_moved="half",
        terrain="woods",
    )
    clear_cache()
    t0 = time.perf_counter()
    d = exact(direct_fire, r, shot)
    t_exact = time.perf_counter() - t0

    t0 = time.perf_counter()
    est = monte_carlo(direct_fire, r, shot, n=SAMPLES, seed=1)
    t_mc = time.perf_counter() - t0

    repeats = 1000
    t0 = time.perf_counter()
    for _ in range(repeats):
        exact(direct_fire, r, shot)
    t_cached = (time.perf_counter() - t0) / repeats

    keys = set(d.probs) | set(est.counts)
    diff = max(abs(float(d.p(k)) - est.p(k)) for k in keys)
    print('query: PzKw IV H at an M4 in woods, 30", front, firer moved half')
    print(f"exact (uncached):       {t_exact * 1e3:9.3f} ms   ({d.leaves} leaves)")
    print(f"Monte Carlo {SAMPLES:,}:  {t_mc * 1e3:9.1f} ms")
    print(f"ratio MC / exact:       {t_mc / t_exact:9.0f} x   (target >= 100 x)")
    print(f"cached exact query:     {t_cached * 1e6:9.2f} us  (target < 1 ms)")
    print(f"largest |exact - MC|:   {diff:9.5f}")
    for k in ("miss", "ineffective", "tracked", "damaged", "ko"):
        lo, hi = est.interval(k)
        print(f"  {k:12} exact {float(d.p(k)):.5f}  MC {est.p(k):.5f}  [{lo:.5f}, {hi:.5f}]")


if __name__ == "__main__":
    main()
