"""Write in-service windows into the Panzerfaust equipment rows whose printed dates were lost (P113).

    .venv/bin/python scripts/pf_dates.py [--check]

Reads `rulesets/panzerfaust/sources/dates.yaml` and, for each AFV or gun it names, rewrites only the
`dates` of the equipment rows that list that record for its own army (a US Pacific row counts as the
US Army's) and whose printed dates were lost, with `rulesets.panzerfaust.sources.dates.window`. A
row whose dates the book prints (seed, seed-inferred) or an overlay gives is never touched; a
foreign army's row keeps its own (lost) window, since a captured or bought vehicle entered that
army's service later. `--check` exits 1 if any file would change.
"""

from __future__ import annotations

import sys
from pathlib import Path

import yaml

from kriegsspiel.data.yamlsplice import record, rewrite, set_value
from kriegsspiel.rulesets import load
from kriegsspiel.rulesets.panzerfaust.sources.dates import load_sources, window

DATA = Path(__file__).resolve().parents[1] / "src/kriegsspiel/rulesets/panzerfaust/data"
SAME_ARMY = {"usa_pacific": "usa_europe"}


def own_army(row) -> bool:
    army = row.item_ref.split(":")[1].split("/")[0]
    return army in (row.nation, SAME_ARMY.get(row.nation))


def ours(row) -> bool:
    """Dates lost in the seed, or written by this script before."""
    if row.dates is None:
        return True
    note = row.prov_entry("dates.start").note or ""
    return not row.dates.raw and note.startswith("P113")


def targets(cat) -> dict[Path, list[tuple[str, dict]]]:
    by_item = {e["item"]: e for e in load_sources()["items"]}
    out: dict[Path, list[tuple[str, dict]]] = {}
    for row in cat.all("equipment"):
        entry = by_item.get(row.item_ref or "")
        if entry and own_army(row) and ours(row):
            path = DATA / row.nation / "equipment.yaml"
            out.setdefault(path, []).append((row.id, window(entry)))
    return out


def main(check: bool = False) -> int:
    cat = load("panzerfaust", ())

    def edit(text: str, rows: list[tuple[str, dict]]) -> str:
        for rid, dates in rows:
            text = set_value(text, record(yaml.compose(text), rid), "dates", dates, after="pv")
        return text

    changed = [
        rewrite(path, lambda text, r=rows: edit(text, r), check, DATA.parents[3])
        for path, rows in targets(cat).items()
    ]
    return 1 if check and any(changed) else 0


if __name__ == "__main__":
    sys.exit(main(check="--check" in sys.argv[1:]))
