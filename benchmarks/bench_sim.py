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
import statistics
import time

from kriegsspiel.sim import BattleSpec, battle_seed, run_battle

SCENARIOS = ("qr-crossroads-armour", "qr-village-assault")


def specs(sid: str, n: int) -> list[BattleSpec]:
    return [BattleSpec(sid, i, battle_seed(1, i), {}) for i in range(n)]


def _worker(sid: str, battles: list[BattleSpec], taken, start, out) -> None:
    """One process: warm up (imports, data, the process-wide memos of terrain grids and exact
    odds, as in a long simulation run), wait for the others, then take the next battle not yet
    taken until none is left (as the local executor hands them out one by one); reports its
    seconds and peak RSS (KiB)."""
    run_battle(BattleSpec(sid, -1, battle_seed(2, 0), {}))
    start.wait()
    t = time.perf_counter()
    while True:
        with taken.get_lock():
            i = taken.value
            taken.value += 1
        if i >= len(battles):
            break
        run_battle(battles[i])
    out.put((time.perf_counter() - t, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss))


def run(sid: str, battles: list[BattleSpec], workers: int) -> tuple[float, list[int]]:
    """Seconds until the last warmed process finishes, and each one's peak RSS."""
    taken, start, out = mp.Value("i", 0), mp.Barrier(workers), mp.Queue()
    procs = [
        mp.Process(target=_worker, args=(sid, battles, taken, start, out)) for _ in range(workers)
    ]
    for p in procs:
        p.start()
    results = [out.get() for _ in procs]
    for p in procs:
        p.join()
    return max(t for t, _ in results), [kib for _, kib in results]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--battles", type=int, default=40)
    ap.add_argument("--profile", action="store_true", help="cProfile one battle per scenario")
    args = ap.parse_args()
    n = args.battles
    print(
        f"{'scenario':24} {'ms/battle':>10} {'battles/s/core':>15} {'speed-up 2w':>12} {'peak MiB/worker':>16}"
    )
    for sid in SCENARIOS:
        s = specs(sid, n)
        # this machine's speed drifts between runs: one and two workers are run back to back
        # three times; the time per battle is the best one-worker run, the speed-up the
        # median of the three back-to-back ratios
        pairs = [(run(sid, s, 1), run(sid, s, 2)) for _ in range(3)]
        t1 = min(one[0] for one, _ in pairs)
        ratio = statistics.median(one[0] / two[0] for one, two in pairs)
        mem = max(kib for one, two in pairs for kib in one[1] + two[1])
        per = t1 / n
        print(f"{sid:24} {per * 1000:10.0f} {1 / per:15.2f} {ratio:11.2f}x {mem / 1024:16.0f}")
        if args.profile:
            prof = cProfile.Profile()
            prof.runcall(run_battle, s[0])
            pstats.Stats(prof).sort_stats("cumulative").print_stats(15)


if __name__ == "__main__":
    main()
