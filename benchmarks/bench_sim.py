"""Battle simulator benchmark (issue 5 item 6): bot-vs-bot battles per second per core for each
quickref scenario, speed-up of 2 local workers over 1, peak memory per worker.

    .venv/bin/python benchmarks/bench_sim.py [--battles N] [--profile] [--old SRC]

`--old SRC` times a second code tree beside this one in the same run: SRC is a directory
holding another commit's `kriegsspiel` package, e.g. `git archive <commit> src | tar -x -C
/tmp/old` then `--old /tmp/old/src`. "Before issue 14" is 793a86d, the parent of its first
commits (613da8b, 1b7faf1; main's 2483f18 has the same quickref code). Later main also
brought issue 13's dice (keyed by the secret seed and the line of play), so the two trees play
different battles: compare the commands per battle too (`run_battle`'s "commands"). Each tree plays the same battles in its own interpreter
(one worker), the trees taking turns (each going first half the time); the table shows each battle's
best time per tree, averaged, and new/old, then the commands per battle of each tree and the time
per command (ms/battle over commands/battle) with its new/old: where the trees' battles differ in
length, the per-command ratio is the engine's and the bot's speed.

Targets: a full battle <= 100 ms on one core; 2 workers >= 1.7x one. Ratios are measured in
one run; nothing here is asserted by the tests. `ms/battle` is each battle's best time of three
one-worker runs, averaged; `best run` the best of the three whole runs per battle.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import multiprocessing as mp
import os
import pstats
import resource
import statistics
import subprocess
import sys
import time

from kriegsspiel.sim import BattleSpec, battle_seed, run_battle

SCENARIOS = ("qr-crossroads-armour", "qr-village-assault")


def specs(sid: str, n: int) -> list[BattleSpec]:
    return [BattleSpec(sid, i, battle_seed(1, i), {}) for i in range(n)]


def _worker(sid: str, battles: list[BattleSpec], taken, start, out) -> None:
    """One process: warm up (imports, data, the process-wide memos of terrain grids and exact
    odds, as in a long simulation run), wait for the others, then take the next battle not yet
    taken until none is left (as the local executor hands them out one by one); reports its
    seconds, peak RSS (KiB), the seconds of each battle it played and its commands."""
    run_battle(BattleSpec(sid, -1, battle_seed(2, 0), {}))
    start.wait()
    t = time.perf_counter()
    each, cmds = {}, {}
    while True:
        with taken.get_lock():
            i = taken.value
            taken.value += 1
        if i >= len(battles):
            break
        b = time.perf_counter()
        cmds[i] = run_battle(battles[i])["commands"]
        each[i] = time.perf_counter() - b
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    out.put((time.perf_counter() - t, rss, each, cmds))


def run(sid: str, battles: list[BattleSpec], workers: int) -> tuple[float, list[int], dict, dict]:
    """Seconds until the last warmed process finishes, each one's peak RSS, the seconds of
    each battle and its commands (by index)."""
    taken, start, out = mp.Value("i", 0), mp.Barrier(workers), mp.Queue()
    procs = [
        mp.Process(target=_worker, args=(sid, battles, taken, start, out)) for _ in range(workers)
    ]
    for p in procs:
        p.start()
    results = [out.get() for _ in procs]
    for p in procs:
        p.join()
    each = {i: t for _, _, times, _ in results for i, t in times.items()}
    cmds = {i: c for *_, counts in results for i, c in counts.items()}
    return max(r[0] for r in results), [r[1] for r in results], each, cmds


def _tree_times(src: str, sid: str, n: int) -> list[list[float]]:
    """[seconds, commands] of each battle of a one-worker run with the package in ``src``."""
    env = {**os.environ, "PYTHONPATH": src}
    cmd = [sys.executable, __file__, "--child", sid, "--battles", str(n)]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def compare(old: str, n: int) -> None:
    """Old and new code trees side by side: each battle's best of four runs per tree, per
    battle and per command (the trees may play battles of different lengths: a longer battle
    is not a slower engine)."""
    import kriegsspiel

    new = os.path.dirname(os.path.dirname(kriegsspiel.__file__))
    print(f"new: {new}\nold: {old}")
    print(
        f"{'scenario':24} {'new ms/battle':>14} {'old ms/battle':>14} {'new/old':>8}"
        f" {'new cmds':>9} {'old cmds':>9} {'new us/cmd':>11} {'old us/cmd':>11} {'new/old':>8}"
    )
    for sid in SCENARIOS:
        runs = {"new": [], "old": []}
        for r in range(4):  # the trees take turns going first (the machine's speed drifts)
            order = (("old", old), ("new", new))
            for name, src in order if r % 2 == 0 else order[::-1]:
                runs[name].append(_tree_times(src, sid, n))
        best = {k: sum(min(r[i][0] for r in v) for i in range(n)) / n for k, v in runs.items()}
        cmds = {k: sum(v[0][i][1] for i in range(n)) / n for k, v in runs.items()}
        per = {k: best[k] / cmds[k] for k in best}
        print(
            f"{sid:24} {best['new'] * 1000:14.0f} {best['old'] * 1000:14.0f}"
            f" {best['new'] / best['old']:8.2f} {cmds['new']:9.1f} {cmds['old']:9.1f}"
            f" {per['new'] * 1e6:11.0f} {per['old'] * 1e6:11.0f} {per['new'] / per['old']:8.2f}"
        )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--battles", type=int, default=40)
    ap.add_argument("--profile", action="store_true", help="cProfile one battle per scenario")
    ap.add_argument("--old", help="another commit's src directory, timed beside this one")
    ap.add_argument("--child", help=argparse.SUPPRESS)  # one tree's run of one scenario
    args = ap.parse_args()
    n = args.battles
    if args.child:
        _, _, each, cmds = run(args.child, specs(args.child, n), 1)
        print(json.dumps([[each[i], cmds[i]] for i in range(n)]))
        return
    if args.old:
        compare(args.old, n)
        return
    print(
        f"{'scenario':24} {'ms/battle':>10} {'best run':>9} {'battles/s/core':>15}"
        f" {'speed-up 2w':>12} {'peak MiB/worker':>16}"
    )
    for sid in SCENARIOS:
        s = specs(sid, n)
        # this machine's speed drifts between runs and within one: one and two workers are
        # run back to back three times, each one-worker run in a fresh process (no battle
        # meets the memos of its own earlier run); the time per battle is each battle's best
        # of its three one-worker runs (the least disturbed), beside the best whole run; the
        # speed-up is the median of the three back-to-back ratios
        pairs = [(run(sid, s, 1), run(sid, s, 2)) for _ in range(3)]
        best = sum(min(one[2][i] for one, _ in pairs) for i in range(n)) / n
        whole = min(one[0] for one, _ in pairs) / n
        ratio = statistics.median(one[0] / two[0] for one, two in pairs)
        mem = max(kib for one, two in pairs for kib in one[1] + two[1])
        print(
            f"{sid:24} {best * 1000:10.0f} {whole * 1000:9.0f} {1 / best:15.2f}"
            f" {ratio:11.2f}x {mem / 1024:16.0f}"
        )
        if args.profile:
            prof = cProfile.Profile()
            prof.runcall(run_battle, s[0])
            pstats.Stats(prof).sort_stats("cumulative").print_stats(15)


if __name__ == "__main__":
    main()
