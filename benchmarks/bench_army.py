"""Army builder speed (issue 18 item 7): loading every nation's catalogue and validating a
60-selection roster. Prints times from one run and their ratios to the targets (< 1 s, < 50 ms):

- YAML load: every Panzerfaust data file parsed and validated (the data layer's loader);
- cached load: what `army` commands do, the validated records from the revision-keyed pickle;
- first look-ups: PV (placeholder model included), dates and FR of every item a list names;
- validation of a German roster of 60+ selections (median of 20 runs).

Run: .venv/bin/python benchmarks/bench_army.py
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

from kriegsspiel.armylist.panzerfaust import Builder
from kriegsspiel.armylist.panzerfaust import catalogue as army_catalogue
from kriegsspiel.data.catalogue import load_catalogue
from kriegsspiel.rulesets import panzerfaust


def timed(fn) -> tuple[float, object]:
    t = time.perf_counter()
    out = fn()
    return time.perf_counter() - t, out


def main() -> None:
    data = Path(panzerfaust.__file__).parent / "data"
    yaml_s, _ = timed(lambda: load_catalogue("panzerfaust", data, panzerfaust.KINDS, []))
    army_catalogue._cached(None)  # make sure the pickle exists
    army_catalogue._cached.cache_clear()
    cached_s, ac = timed(lambda: army_catalogue.ArmyCatalogue.load())
    refs = {s.ref for o in ac.cat.all("organisation") for s in o.slots}
    lookup_s, _ = timed(lambda: [(ac.price(r), ac.dates(r), ac.fr(r)) for r in refs])

    b = Builder()
    r = b.new("germany", "1943-06", None, 6000, "benchmark")
    for entry in (
        "organisation:germany/infantry-company",
        "organisation:germany/infantry-company",
        "organisation:germany/panzer-grenadier-company",
        "organisation:germany/medium-panzer-company-1943",
    ):
        b.add(r, "", entry)
    b.add(r, "", "battery:germany/81mm-mortar", count=4)
    n = sum(1 for _ in r.walk())
    b.validate(r)  # warm
    runs = [timed(lambda: b.validate(r))[0] for _ in range(20)]
    validate_s = statistics.median(runs)

    print(
        f"catalogue YAML load        {yaml_s * 1000:8.0f} ms  ({yaml_s / 1.0:.2f} x the 1 s target)"
    )
    print(
        f"catalogue cached load      {cached_s * 1000:8.0f} ms  ({cached_s / 1.0:.2f} x the 1 s target)"
    )
    print(f"first look-ups ({len(refs)} refs) {lookup_s * 1000:8.0f} ms")
    print(f"YAML / cached              {yaml_s / cached_s:8.1f} x")
    print(
        f"validate {n} selections     {validate_s * 1000:8.1f} ms  "
        f"({validate_s / 0.05:.2f} x the 50 ms target)"
    )


if __name__ == "__main__":
    main()
