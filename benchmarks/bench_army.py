"""Army builder speed (issue 18 item 7): loading every nation's catalogue and validating a
60-selection roster. Prints times from one run and their ratios to the targets (< 1 s, < 50 ms):

- YAML load: every Panzerfaust data file parsed and validated (the data layer's loader);
- cached load: what `army` commands do, the validated records from the revision-keyed pickle;
- first look-ups: PV (placeholder model included), dates and FR of every item a list names;
- validation of a German roster of 60+ selections (median of 20 runs);
- the web builder's first paint of /army on loopback in Chromium (first contentful paint, and
  the page ready with the organisation tree loaded), first visit and a warm one (< 1 s).

Run: .venv/bin/python benchmarks/bench_army.py
"""

from __future__ import annotations

import statistics
import sys
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


def web_first_paint() -> None:
    """/army in Debian's Chromium against a loopback server (tests/infra.py starts both)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    try:
        from playwright.sync_api import sync_playwright

        import infra
    except ImportError as e:
        print(f"web first paint: skipped ({e})")
        return
    from tempfile import TemporaryDirectory

    from kriegsspiel.server import create_app

    with (
        TemporaryDirectory() as tmp,
        infra.live_server(lambda: create_app(f"sqlite:///{tmp}/bench.db")) as base,
        sync_playwright() as pw,
    ):
        browser = pw.chromium.launch(executable_path=infra.CHROMIUM, args=infra.CHROMIUM_ARGS)
        for visit in ("first", "warm"):
            page = browser.new_page(viewport={"width": 1024, "height": 768})
            t = time.perf_counter()
            page.goto(base + "/army")
            page.wait_for_selector("body[data-ready='1']")
            ready_s = time.perf_counter() - t
            fcp = page.evaluate(
                "performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null"
            )
            fcp_s = (fcp or 0) / 1000
            print(
                f"/army {visit:5} visit: paint {fcp_s * 1000:6.0f} ms, ready {ready_s * 1000:6.0f} ms"
                f"  ({ready_s / 1.0:.2f} x the 1 s target)"
            )
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
    web_first_paint()
