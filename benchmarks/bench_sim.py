"""Battle simulator benchmark (issue 5 item 6): bot-vs-bot battles per second per core for each
quickref scenario, speed-up of 2 local workers over 1, peak memory per worker.

    .venv/bin/python benchmarks/bench_sim.py [--battles N] [--profile]

Targets: a full battle <= 100 ms on one core; 2 workers >= 1.7x one. Ratios are measured in
one run; nothing here is asserted by the tests.
"""

from __future__ import annotations

import argparse
import cProfile
import multiprocessing as mp
import pstats
import resource
import time

from kriegsspiel.sim import BattleSpec, battle_seed, run_battle

SCENARIOS = ("qr-crossroads-armour", "qr-village-assault")


def specs(sid: str, n: int) -> list[BattleSpec]:
    return [BattleSpec(sid, i, battle_seed(1, i), {}) for i in range(n)]


def _worker(sid: str, batch: list[BattleSpec], start, out) -> None:
    """One process: warm up (imports, data, the process-wide memos of terrain grids and exact
    odds, as in a long simulation run), wait for the others, then run the batch; reports its
    seconds and peak RSS (KiB)."""
    run_battle(BattleSpec(sid, -1, battle_seed(2, 0), {}))
    start.wait()
    t = time.perf_counter()
    for s in batch:
        run_battle(s)
    out.put((time.perf_counter() - t, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss))


def run(sid: str, batches: list[list[BattleSpec]]) -> tuple[float, list[int]]:
    """Seconds until the last warmed process finishes its batch, and each one's peak RSS."""
    start, out = mp.Barrier(len(batches)), mp.Queue()
    procs = [mp.Process(target=_worker, args=(sid, b, start, out)) for b in batches]
    for p in procs:
        p.start()
    results = [out.get() for _ in procs]
    for p in procs:
        p.join()
    return max(t for t, _ in results), [kib for _, kib in results]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--battles", type=int, default=24)
    ap.add_argument("--profile", action="store_true", help="cProfile one battle per scenario")
    args = ap.parse_args()
    n = args.battles
    print(
        f"{'scenario':24} {'ms/battle':>10} {'battles/s/core':>15} {'speed-up 2w':>12} {'peak MiB/worker':>16}"
    )
    for sid in SCENARIOS:
        s = specs(sid, n)
        t1, mem1 = run(sid, [s])
        t2, mem2 = run(sid, [s[0::2], s[1::2]])
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
