"""Write in-service windows into the Panzerfaust equipment rows whose printed dates were lost (P113,
P230, P231).

    .venv/bin/python scripts/pf_dates.py [--check]

Reads `rulesets/panzerfaust/sources/dates.yaml` and, for each AFV or gun it names, rewrites only the
`dates` of the equipment rows that list that record for its own army (a US Pacific row counts as the
US Army's) and whose printed dates were lost, with `rulesets.panzerfaust.sources.dates.window`. A
row whose dates the book prints (seed, seed-inferred) or an overlay gives is never touched; a
foreign army's row keeps its own (lost) window, since a captured or bought vehicle entered that
army's service later. A window's open end stops at the last year the row's own list prints (P231);
a row naming its own army's model by a dated designation (Japanese "Type 97", Hungarian "38M")
starts in that year (P233); a row of a one-campaign list (Poland, Belgium, France) that nothing
else dates takes the list's period (P230). `--check` exits 1 if any file would change.
"""

from __future__ import annotations

import sys
from pathlib import Path

import yaml

from kriegsspiel.data.yamlsplice import record, rewrite, set_value
from kriegsspiel.rulesets import load
from kriegsspiel.rulesets.panzerfaust.sources.dates import (
    load_sources,
    sister_window,
)
from kriegsspiel.rulesets.panzerfaust.sources.dates import lost_window as sources_window
from kriegsspiel.rulesets.panzerfaust.windows import is_campaign_list, list_period

DATA = Path(__file__).resolve().parents[1] / "src/kriegsspiel/rulesets/panzerfaust/data"
SAME_ARMY = {"usa_pacific": "usa_europe"}
OURS = ("P113", "P230", "P233", "P301", "P302", "P303", "P323")


def own_army(row) -> bool:
    army = row.item_ref.split(":")[1].split("/")[0]
    return army in (row.nation, SAME_ARMY.get(row.nation))


def ours(row) -> bool:
    """Dates lost in the seed, or written by this script before."""
    if row.dates is None:
        return True
    note = row.prov_entry("dates.start").note or ""
    return not row.dates.raw and note.startswith(OURS)


def lost_window(cat, row) -> dict | None:
    """The window a row whose printed dates were lost takes from the sources, or None."""
    period = list_period(cat, row.nation)
    named = cat.resolve(row.item_ref)
    name = named.name if named else ""
    return sources_window(
        row.nation, row.item_ref, name, period, own_army(row), is_campaign_list(period)
    )


def dumped(row) -> dict | None:
    """A row's dates as the data file holds them (years only: the sources print no month)."""
    if row.dates is None:
        return None
    return {
        end: {
            "value": {"year": getattr(row.dates, end).year},
            "provenance": row.prov(f"dates.{end}").value,
            "note": row.prov_entry(f"dates.{end}").note,
        }
        for end in ("start", "end")
        if getattr(row.dates, end) is not None
    }


def targets(cat) -> dict[Path, list[tuple[str, dict]]]:
    out: dict[Path, list[tuple[str, dict]]] = {}
    written: dict[tuple[str, str], dict] = {}
    rows = [r for r in cat.all("equipment") if r.item_ref and ours(r)]
    for row in rows:
        dates = lost_window(cat, row)
        if dates is not None:
            written[(row.nation, row.item_ref)] = dates
            out.setdefault(DATA / row.nation / "equipment.yaml", []).append((row.id, dates))
    # P302, last: a version takes its model's window in the same list, as written above or printed
    sisters = {e["item"]: e for e in load_sources().get("sisters", ())}
    for row in rows:
        entry = sisters.get(row.item_ref)
        if not entry or (row.nation, row.item_ref) in written or not own_army(row):
            continue
        base = written.get((row.nation, entry["sister"]))
        if base is None:
            base = next(
                (
                    dumped(r)
                    for r in cat.all("equipment")
                    if r.nation == row.nation and r.item_ref == entry["sister"] and r.dates
                ),
                None,
            )
        if base:
            out.setdefault(DATA / row.nation / "equipment.yaml", []).append(
                (row.id, sister_window(entry, base))
            )
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
