"""Battleground exact odds against a 100,000-sample Monte Carlo, in one run:

- a ROF-4 burst (MG-42 LMG at 20 inches, target behind a hedge) with a per-hit effect roll;
- a squad's fire action (8 rifles, an LMG and an SMG: 10 figures) counted as casualties;
- a tank shot (Panther at an M4 Sherman's side, 40 inches) with to-hit, hit location,
  penetration and penetration effects.

Exact is walked with a fresh memo each time (best of 5); Monte Carlo samples the same
resolution. Target: exact at least 100x faster. Run: .venv/bin/python benchmarks/bench_bg_odds.py
"""

from __future__ import annotations

from cold import best_of
from kriegsspiel.chance import exact, monte_carlo
from kriegsspiel.rulesets import load
from kriegsspiel.rulesets.battleground.actions import query
from kriegsspiel.rulesets.battleground.options import Options

CASES = (
    ("ROF-4 burst with per-hit effects", "fire", dict(weapon="mg42_lmg", range=20, cover="hedge")),
    (
        "squad fire, 10 figures",
        "squad-fire",
        dict(weapons="8 x kar98k, 1 x mg34_lmg, 1 x mp40", range=12, cover="light_woods"),
    ),
    (
        "tank shot: location + penetration",
        "tank-fire",
        dict(firer="panther_g", target="m4_sherman", range=40, facing="side"),
    ),
)


def main() -> None:
    cat = load("battleground", overlays=())
    for title, name, params in CASES:
        q = query(cat, name, Options(), **params)
        kw = {"key": q.key} if q.key else {}
        d = exact(q.fn, *q.args, **kw)
        assert d.is_exact
        t_exact = best_of(lambda q=q, kw=kw: exact(q.fn, *q.args, **kw))
        t_mc = best_of(lambda q=q, kw=kw: monte_carlo(q.fn, *q.args, n=100_000, **kw), repeat=1)
        print(f"{title}")
        print(
            f"  exact            {t_exact * 1e3:9.2f} ms  ({d.leaves} leaves, {len(d.probs)} outcomes)"
        )
        print(f"  Monte Carlo 100k {t_mc * 1e3:9.2f} ms")
        print(f"  ratio MC / exact {t_mc / t_exact:9.0f}x  (target >= 100x)")


if __name__ == "__main__":
    main()
