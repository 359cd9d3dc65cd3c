"""Panzerfaust odds: exact against Monte Carlo for every action (issue 17, item 7).

For each action of `odds panzerfaust` (a typical query), prints the time of an exact
(uncached) evaluation, of a Monte Carlo of the same resolution (100,000 samples by default),
their ratio (target >= 100x) and the largest probability difference; then the time of a cached
query (target < 1 ms), an indirect beaten zone over 20 units and a 20-team infantry fire
exchange, both exact and uncached (target < 50 ms). Ratios come from one run on one machine.
Run: .venv/bin/python benchmarks/bench_pf_odds.py [SAMPLES]
"""

from __future__ import annotations

import sys
import time

from kriegsspiel.chance import clear_cache, exact, monte_carlo
from kriegsspiel.rulesets import load
from kriegsspiel.rulesets.panzerfaust.actions import ACTIONS
from kriegsspiel.rulesets.panzerfaust.options import Options
from kriegsspiel.rulesets.panzerfaust.rules import indirect, infantry_fire
from kriegsspiel.rulesets.panzerfaust.rules.tables import Rules
from kriegsspiel.rulesets.panzerfaust.rules.teams import parse_teams

PAK40 = {"firer": "germany/75mm-l46-pak-40"}
QUERIES = {  # the required parameters of each action; the rest take their defaults
    "at-fire": PAK40 | {"target": "usa_europe/m4", "range": 65.0, "aspect": "side"},
    "infantry-at": {"weapon": "Panzerfaust 30/60", "target": "usa_europe/m4", "range": 5.0},
    "area-fire": PAK40 | {"range": 65.0},
    "smoke": PAK40 | {"range": 65.0},
    "infantry-fire": {"teams": "common/rifle-team:6,common/lmg-team-belt:2", "range": 40.0},
    "cqc": {"attackers": "common/rifle-team:3", "defenders": "common/smg-team:2"},
    "observe": {"distance": 100.0, "night": True},
    "flash": {"distance": 30.0, "calibre_mm": 75.0},
}


def query(cat, name: str):
    action = ACTIONS[name]
    params = {p.name: p.default for p in action.params} | QUERIES.get(name, {})
    return action.build(cat, Options(), **params)


def timed(fn, *args, **kwargs):
    t0 = time.perf_counter()
    out = fn(*args, **kwargs)
    return out, time.perf_counter() - t0


def main(samples: int) -> None:
    cat = load("panzerfaust")
    print(f"{'action':16} {'exact ms':>9} {'MC ms':>10} {'MC/exact':>9} {'max |diff|':>10}")
    worst = None
    for name in ACTIONS:
        q = query(cat, name)
        kw = {"key": q.key} if q.key else {}
        clear_cache()
        d, t_exact = timed(exact, q.fn, *q.args, **kw)
        est, t_mc = timed(monte_carlo, q.fn, *q.args, n=samples, seed=1, **kw)
        diff = max(abs(float(d.p(k)) - est.p(k)) for k in set(d.probs) | set(est.counts))
        ratio = t_mc / t_exact
        worst = ratio if worst is None else min(worst, ratio)
        print(f"{name:16} {t_exact * 1e3:9.3f} {t_mc * 1e3:10.1f} {ratio:8.0f}x {diff:10.5f}")
    print(f"smallest ratio: {worst:.0f}x (target >= 100x; {samples:,} samples)")

    q = query(cat, "at-fire")
    exact(q.fn, *q.args)
    repeats = 1000
    t0 = time.perf_counter()
    for _ in range(repeats):
        exact(q.fn, *q.args)
    print(f"cached at-fire query: {(time.perf_counter() - t0) / repeats * 1e6:.1f} us (< 1 ms)")

    rules = Rules(cat)
    kinds = ("infantry", "gun", "softskin", "afv", "open_afv")
    zone = tuple(
        indirect.BZTarget(
            kind=kinds[i % 5],
            calibre_mm=(81, 105, 150)[i % 3],
            pairs=1 + i % 4,
            partial=i % 2 == 0,
            protection=("none", "soft", "entrenched")[i % 3],
        )
        for i in range(20)
    )
    clear_cache()
    dist, t_zone = timed(indirect.beaten_zone, rules, zone)
    print(
        f"beaten zone over 20 units, exact: {t_zone * 1e3:.1f} ms (< 50 ms); P(all spared) "
        f"= {float(dist[0]):.4f}"
    )

    def exchange():
        a = parse_teams(cat, "common/rifle-team:12,common/lmg-team-belt:4,common/smg-team:4")
        b = parse_teams(cat, "common/rifle-team:14,common/lmg-team-mag:4,common/mmg:2")
        key = {"key": lambda r: int(r.name.split("_")[1])}
        fa = exact(infantry_fire.infantry_fire, rules, infantry_fire.Fire(a, 40.0), **key)
        fb = exact(
            infantry_fire.infantry_fire, rules, infantry_fire.Fire(b, 40.0, cover="soft"), **key
        )
        return {(x, y): p * q for x, p in fa.probs.items() for y, q in fb.probs.items()}

    clear_cache()
    joint, t_fight = timed(exchange)
    print(
        f"20-team fire exchange (both sides), exact: {t_fight * 1e3:.1f} ms (< 50 ms); "
        f"{len(joint)} joint outcomes"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100_000)
