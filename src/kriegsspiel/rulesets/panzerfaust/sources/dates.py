"""Decision P113 (issue 16 item 5): in-service windows the seed lost, from a cited chart.

`dates.yaml` (beside this module) holds, for each AFV or gun chart record, the stand of the
Command Decision: Test of Battle charts (SpaceCudet/ChartGenerator) that names the same vehicle or
gun, with the two-digit year of introduction exactly as the chart prints it. A window starts in
that year (`historical`; a year before the book's 1930-1946 scale starts the window in 1930) and,
as the chart gives no last year, runs to 1945 (`placeholder`) unless an entry's `last` names the
book's own last year for the same vehicle (P116). The army lists print their own
windows in the equipment rows (p44); only a row whose printed dates were lost takes this one.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import yaml

SOURCES_FILE = Path(__file__).with_name("dates.yaml")
FIRST_YEAR, LAST_YEAR = 1930, 1945


@cache
def load_sources(path: Path = SOURCES_FILE) -> dict[str, Any]:
    with open(path, encoding="utf-8") as fh:
        return yaml.safe_load(fh)


def window(entry: dict[str, Any]) -> dict[str, Any]:
    """The equipment row's `dates` for one source entry, each end with its provenance."""
    src = load_sources()["source"]
    printed = int(entry["year"])
    year = 1900 + printed
    start_note = f"P113: chart stand '{entry['name']}' prints year {entry['year']}"
    if year < FIRST_YEAR:
        start_note += f" (19{entry['year']}, before the book's scale: from {FIRST_YEAR})"
        year = FIRST_YEAR
    return {
        "raw": "",
        "start": {
            "value": {"year": year},
            "provenance": "historical",
            "ref": f"{src['repo']}@{src['commit']}:{entry['path']}",
            "note": start_note,
        },
        "end": _end(entry.get("last")),
    }


def _end(last: dict[str, Any] | None) -> dict[str, Any]:
    """The chart prints no last year: 1945 (`placeholder`), unless the entry names the book's own
    printed window of the same vehicle in another army's list in the same theatre (decision P116)."""
    if last is None:
        return {
            "value": {"year": LAST_YEAR},
            "provenance": "placeholder",
            "note": "P113: the chart gives no last year; open to the end of the war",
        }
    return {
        "value": {"year": int(last["year"])},
        "provenance": "seed-inferred",
        "note": f"P116: the book's last year for the same tank, equipment row {last['row']} ({last['printed']})",
    }
