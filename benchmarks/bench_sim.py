"""Battle simulator benchmark (issue 5 item 6): bot-vs-bot battles per second per core for each
quickref scenario, speed-up of 2 local workers over 1, peak memory per worker.

    .venv/bin/python benchmarks/bench_sim.py [--battles N] [--profile]

Targets: a full battle <= 100 ms on one core; 2 workers >= 1.7x one. Ratios are measured in
one run; nothing here is asserted by the tests.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import resource
import time
from concurrent.futures import ProcessPoolExecutor

from kriegsspiel.sim import BattleSpec, battle_seed, run_battle

SCENARIOS = ("qr-crossroads-armour", "qr-village-assault")


def specs(sid: str, n: int) -> list[BattleSpec]:
    return [BattleSpec(sid, i, battle_seed(1, i), {}) for i in range(n)]


def _worker(batch: list[BattleSpec]) -> tuple[float, int]:
    """Run a batch in a fresh process; its seconds and its peak RSS (KiB)."""
    t = time.perf_counter()
    for s in batch:
        run_battle(s)
    return time.perf_counter() - t, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def run(batches: list[list[BattleSpec]]) -> tuple[float, list[int]]:
    t = time.perf_counter()
    with ProcessPoolExecutor(max_workers=len(batches)) as pool:
        out = list(pool.map(_worker, batches))
    return time.perf_counter() - t, [kib for _, kib in out]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--battles", type=int, default=12)
    ap.add_argument("--profile", action="store_true", help="cProfile one battle per scenario")
    args = ap.parse_args()
    n = args.battles
    print(
        f"{'scenario':24} {'ms/battle':>10} {'battles/s/core':>15} {'speed-up 2w':>12} {'peak MiB/worker':>16}"
    )
    for sid in SCENARIOS:
        s = specs(sid, n)
        t1, mem1 = run([s])
        t2, mem2 = run([s[0::2], s[1::2]])
        per = t1 / n
        print(
            f"{sid:24} {per * 1000:10.0f} {1 / per:15.2f} {t1 / t2:11.2f}x "
            f"{max(mem1 + mem2) / 1024:16.0f}"
        )
        if args.profile:
            prof = cProfile.Profile()
            prof.runcall(run_battle, s[0])
            pstats.Stats(prof).sort_stats("cumulative").print_stats(15)


if __name__ == "__main__":
    main()
