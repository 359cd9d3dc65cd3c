"""Panzerfaust battle benchmark (issue 19 "Done when"): the time of one random-bot battle of each
Panzerfaust scenario on one core (target <= 1 s), and its cost per element on the table as the
forces double (1x, 2x, 4x: every platoon copied beside itself), printed as ratios from one run.

    .venv/bin/python benchmarks/bench_pf.py [--battles N] [--scenario PATH ...] [--profile]

Scenarios: the shipped ones (rulesets/panzerfaust/scenarios/) when there are any, else the game
core's test scenarios. `cpu ms/battle` is the mean over N seeded battles, each the best of two runs
(the first warms the process-wide memos), in CPU seconds of this process (`time.process_time`:
one core's work, which wall time on a shared machine overstates). Nothing here is asserted by
the tests.
"""

from __future__ import annotations

import argparse
import copy
import cProfile
import pstats
import tempfile
import time
from pathlib import Path

import yaml

from kriegsspiel.engine import registry
from kriegsspiel.sim import BattleSpec, battle_seed, run_battle

TESTS = Path(__file__).parents[1] / "tests" / "rulesets" / "panzerfaust" / "game" / "scenarios"
STEP = 2.5  # cm between a platoon and its copy (x), kept inside the table


def scenarios() -> list[Path]:
    shipped = registry.entry("panzerfaust").scenarios
    found = sorted(shipped.glob("*.yaml")) if shipped and shipped.is_dir() else []
    return found or sorted(TESTS.glob("*.yaml"))


def scaled(raw: dict, times: int) -> dict:
    """The scenario with each platoon present `times` times, copies shifted along x."""
    out = copy.deepcopy(raw)
    width = float(out["table"]["width"])
    for force in out["forces"].values():
        ids = {t["id"] for c in force["companies"] for p in c["platoons"] for t in p["teams"]}
        for arrival in force.get("arrivals", []):  # a copied platoon arrives with its original
            arrival["platoons"] += [
                f"{p}-x{k}" for k in range(1, times) for p in arrival["platoons"]
            ]
        for company in force["companies"]:
            copies = []
            for k in range(1, times):
                for p in company["platoons"]:
                    q = copy.deepcopy(p)
                    q["id"] = f"{p['id']}-x{k}"
                    for t in q["teams"]:
                        t["id"] = f"{t['id']}-x{k}"
                        if t.get("transport") in ids:  # riders go with their copied carrier
                            t["transport"] = f"{t['transport']}-x{k}"
                        if t.get("hq") == "company":  # one company HQ: its copy is a team
                            del t["hq"]
                        if "x" in t:  # arrivals have no place until they come on
                            t["x"] = min(max(t["x"] + STEP * k, 1.0), width - 1.0)
                    copies.append(q)
            company["platoons"] += copies
    return out


def elements(raw: dict) -> int:
    return sum(
        len(p["teams"])
        for f in raw["forces"].values()
        for c in f["companies"]
        for p in c["platoons"]
    )


def one(path: str, i: int) -> float:
    spec = spec_with_sides(BattleSpec(path, i, battle_seed(3, i)))
    best = float("inf")
    for _ in range(2):
        t = time.process_time()
        result = run_battle(spec)
        best = min(best, time.process_time() - t)
    assert result["reason"], result
    return best


def spec_with_sides(spec: BattleSpec) -> BattleSpec:
    raw = yaml.safe_load(Path(spec.scenario).read_text())
    sides = [s["id"] for s in raw["sides"]]
    return BattleSpec(spec.scenario, spec.index, spec.seed, {s: "random" for s in sides})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--battles", type=int, default=5)
    ap.add_argument("--scenario", action="append", type=Path)
    ap.add_argument("--profile", action="store_true", help="profile the 1x battles")
    args = ap.parse_args()
    prof = cProfile.Profile() if args.profile else None
    print(
        f"{'scenario':<16}{'forces':>7}{'elements':>9}{'cpu ms/battle':>15}{'ms/element':>12}{'per-el ratio':>14}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        for path in args.scenario or scenarios():
            raw = yaml.safe_load(path.read_text())
            base = None
            for times in (1, 2, 4):
                f = Path(tmp) / f"{path.stem}-{times}x.yaml"
                big = scaled(raw, times)
                big["id"] = f"{raw['id']}-{times}x"
                f.write_text(yaml.safe_dump(big, sort_keys=False))
                if prof and times == 1:
                    prof.enable()
                ms = 1000 * sum(one(str(f), i) for i in range(args.battles)) / args.battles
                if prof and times == 1:
                    prof.disable()
                per = ms / elements(big)
                base = base or per
                print(
                    f"{path.stem:<16}{times:>6}x{elements(big):>9}{ms:>15.1f}{per:>12.2f}{per / base:>13.2f}x"
                )
    if prof:
        pstats.Stats(prof).sort_stats("cumulative").print_stats(25)


if __name__ == "__main__":
    main()
