"""Decision P113 (issue 16 item 5): in-service windows the seed lost, from a cited chart.

`dates.yaml` (beside this module) holds, for each AFV or gun chart record, the stand of the
Command Decision: Test of Battle charts (SpaceCudet/ChartGenerator) that names the same vehicle or
gun, with the two-digit year of introduction exactly as the chart prints it. A window starts in
that year (`historical`; a year before the book's 1930-1946 scale starts the window in 1930) and,
as the chart gives no last year, runs to 1945 (`placeholder`) unless an entry's `last` names the
book's own last year for the same vehicle (P116) or the row's own list prints no year after an
earlier one (P231: Poland 1939, Belgium and France 1940, Finland and Rumania 1944). The army lists
print their own windows in the equipment rows (p44); only a row whose printed dates were lost
takes this one. `campaign_window` dates a lost row of a one-campaign list by the list (P230).
"""

from __future__ import annotations

import re
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


def window(entry: dict[str, Any], list_end: int = LAST_YEAR) -> dict[str, Any]:
    """The equipment row's `dates` for one source entry, each end with its provenance;
    `list_end` is the last year the row's own list prints (P231)."""
    src = load_sources()["source"]
    printed = int(entry["year"])
    year = 1900 + printed
    start_note = f"P113: chart stand '{entry['name']}' prints year {entry['year']}"
    if year < FIRST_YEAR:
        start_note += f" ({year}, before the book's scale: from {FIRST_YEAR})"
        year = FIRST_YEAR
    return {
        "raw": "",
        "start": {
            "value": {"year": year},
            "provenance": "historical",
            "ref": f"{src['repo']}@{src['commit']}:{entry['path']}",
            "note": start_note,
        },
        "end": _end(entry.get("last"), max(list_end, year)),
    }


def campaign_window(nation: str, period: tuple[int, int]) -> dict[str, Any]:
    """Decision P230: a row of a one-campaign list (every printed window within two years) whose
    dates were lost serves for the list's period, as every printed row of the list does."""
    years = str(period[0]) if period[0] == period[1] else f"{period[0]}-{period[1]}"
    note = f"P230: the {nation} list prints every window within {years}; this row's was lost"
    return {
        "raw": "",
        "start": {"value": {"year": period[0]}, "provenance": "seed-inferred", "note": note},
        "end": {"value": {"year": period[1]}, "provenance": "seed-inferred", "note": note},
    }


def _end(
    last: dict[str, Any] | None, list_end: int = LAST_YEAR, gives: str = "P113: the chart"
) -> dict[str, Any]:
    """The chart prints no last year: 1945 (`placeholder`), unless the entry names the book's own
    printed window of the same vehicle in another army's list in the same theatre (decision P116),
    or the row's own list prints no later year (P231)."""
    if last is None and list_end < LAST_YEAR:
        return {
            "value": {"year": list_end},
            "provenance": "seed-inferred",
            "note": f"P231: the row's own list prints no year after {list_end}",
        }
    if last is None:
        return {
            "value": {"year": LAST_YEAR},
            "provenance": "placeholder",
            "note": f"{gives} gives no last year; open to the end of the war",
        }
    return {
        "value": {"year": int(last["year"])},
        "provenance": "seed-inferred",
        "note": f"P116: the book's last year for the same tank, equipment row {last['row']} ({last['printed']})",
    }


# Decision P233: the year a model's own designation names. Japanese "Type N" counts the Imperial
# (Koki) year from 1927 on (Type 97 = 2597 = 1937, Type 1 = 2601 = 1941), the Meiji year before
# (Type 38 = 1905) and the Taisho year between (Type 11 = 1922); Hungarian "38M" is the 1938 model
# (the second figure of "40/43M", the model the vehicle itself is); Soviet "m1939"/"M1938" is the
# model of that year, "M41" of 1941 (two figures only from 36 to 45: "M30" and "M13" are factory
# or rocket indices; a pair such as "M41 & M43" takes the earlier). A name marking a later modification of the named model (Special, Kai, 89B, IIa,
# Modified) is left undated: the year is not its own.
_JAPAN = re.compile(r"\bType (\d{1,2})(?:/(\d{1,2}))?i?\b")
_HUNGARY = re.compile(r"\b(?:(\d{2})/)?(\d{2})M\b")
_USSR = re.compile(r"\b[mM](19\d{2}|3[6-9]|4[0-5])\b")
_MODIFIED = re.compile(r"(?i:special|\bkai\b|modified)|\bType \d+[A-Z]\b|\b[IVX]+a\b")


def _imperial(n: int) -> int | None:
    if 1 <= n <= 5:
        return 1940 + n  # Koki 2601-2605
    if 86 <= n <= 99:
        return 1840 + n  # Koki 2586-2599
    if 6 <= n <= 15:
        return 1911 + n  # Taisho
    if 30 <= n <= 45:
        return 1867 + n  # Meiji
    return None


def designation_year(nation: str, name: str) -> tuple[int, str] | None:
    """The year the model's designation names, and the designation as printed, or None."""
    if _MODIFIED.search(name):
        return None
    if nation == "japan" and (m := _JAPAN.search(name)):
        years = [_imperial(int(g)) for g in m.groups() if g]
        known = [y for y in years if y]
        return (min(known), m.group(0)) if known and len(known) == len(years) else None
    if nation == "hungary" and (m := _HUNGARY.search(name)):
        return 1900 + int(m.group(2)), m.group(0)
    if nation == "ussr" and (found := _USSR.findall(name)):
        year = min(int(y) if len(y) == 4 else 1900 + int(y) for y in found)
        return year, _USSR.search(name).group(0)
    return None


def designation_window(nation: str, name: str, list_end: int = LAST_YEAR) -> dict[str, Any] | None:
    """Decision P233: a row whose dates were lost, naming its own army's model by a dated
    designation, serves from the designation's year (the model's adoption: a lower bound, as
    deliveries could come later) to P113's open end (or P231's list end)."""
    found = designation_year(nation, name)
    if found is None:
        return None
    year, printed = found
    note = f"P233: the designation '{printed}' names {year}, the model's year of adoption"
    if year < FIRST_YEAR:
        note += f" (before the book's scale: from {FIRST_YEAR})"
    start = {"value": {"year": max(year, FIRST_YEAR)}, "provenance": "seed-inferred", "note": note}
    return {"raw": "", "start": start, "end": _end(None, max(list_end, year))}


def note_window(
    entry: dict[str, Any], period: tuple[int, int] | None, list_end: int = LAST_YEAR
) -> dict[str, Any] | None:
    """Decision P301: a row whose dates were lost, whose model the book's own notes date (the
    year a version appeared, went into production or is known to serve by; or held since before
    the war, which dates it from the list's first year). The end is P113's open end (or P231's)."""
    note = f"P301: p{entry['page']} notes: {entry['says']}"
    if entry.get("from_list"):
        if period is None:
            return None
        year, last = period
        start = {
            "value": {"year": year},
            "provenance": "seed-inferred",
            "note": f"{note}: from the list's first year",
        }
        end = {
            "value": {"year": last},
            "provenance": "seed-inferred",
            "note": f"{note}: to the list's last year",
        }
        return {"raw": "", "start": start, "end": end}
    year = int(entry["year"])
    start = {"value": {"year": year}, "provenance": "seed-inferred", "note": note}
    return {"raw": "", "start": start, "end": _end(None, max(list_end, year), "P301: the note")}


def outside_window(entry: dict[str, Any], list_end: int = LAST_YEAR) -> dict[str, Any]:
    """Decision P303: a window from a cited outside file (repository, commit, path) whose text
    dates the model's service; each end keeps the phrase it rests on (`quote`). Decision P323:
    the same from a public web page (`url`), under the entry's `decision`."""
    ref = entry.get("url") or f"{entry['repo']}@{entry['commit']}:{entry['path']}"
    tag = entry.get("decision", "P303")
    what = "the page" if "url" in entry else "the file"
    start = {
        "value": {"year": int(entry["start"])},
        "provenance": "historical",
        "ref": ref,
        "note": f"{tag}: {what} says '{entry['quote']}'"
        + (f"; {entry['why']}" if "why" in entry else ""),
    }
    if "end" in entry:
        end = {
            "value": {"year": int(entry["end"])},
            "provenance": "historical",
            "ref": ref,
            "note": f"{tag}: {what} says '{entry['end_quote']}'",
        }
    else:
        end = _end(None, max(list_end, int(entry["start"])), f"{tag}: {what}")
    return {"raw": "", "start": start, "end": end}


def placeholder_window(entry: dict[str, Any]) -> dict[str, Any]:
    """Decision P323: an item no source dates, whose only dated organisation slot gives its
    window (`start`, `end`, `says`: which node); `placeholder` at both ends."""
    note = f"P323: placeholder: {entry['says']}"
    out: dict[str, Any] = {"raw": ""}
    for end in ("start", "end"):
        out[end] = {"value": {"year": int(entry[end])}, "provenance": "placeholder", "note": note}
    return out


def sister_window(entry: dict[str, Any], base: dict[str, Any]) -> dict[str, Any]:
    """Decision P302: a version the book's notes describe as a dated model of the same army
    changed in one respect (an armoured cab, a plate welded on, the first production batch)
    serves in the window of that model: its start is a lower bound, as the change could come
    later. `base` is the model's row `dates` (as written in the data).

    Decision P323 uses the same step under its own tag (`decision`): the book naming the item as
    the same weapon as another row (`seed-inferred`), or, with `placeholder: true`, a model family
    window that no source confirms for this version (`placeholder` at both ends)."""
    tag = entry.get("decision", "P302")
    note = f"{tag}: p{entry['page']} notes: {entry['says']}; the window of {entry['sister']}"
    if entry.get("placeholder"):
        note = f"{tag}: placeholder: {entry['says']} (p{entry['page']}); the window of {entry['sister']}"
    out: dict[str, Any] = {"raw": ""}
    for end in ("start", "end"):
        if not base.get(end):
            continue
        if base[end].get("provenance") == "placeholder":  # the model's own open end stays open
            out[end] = {k: base[end][k] for k in ("value", "provenance", "note")}
        else:
            out[end] = {
                "value": dict(base[end]["value"]),
                "provenance": "placeholder" if entry.get("placeholder") else "seed-inferred",
                "note": note,
            }
    return out


def lost_window(
    nation: str, ref: str, name: str, period: tuple[int, int] | None, own: bool, campaign: bool
) -> dict[str, Any] | None:
    """The window an item of `nation`'s list whose printed dates were lost takes from the sources:
    for its own army's model a chart stand (P113), the book's notes (P301), an outside file (P303)
    or web page (P323), a documented placeholder (P323) or its designation (P233); in a one-campaign list the list's period (P230); else None."""
    end = period[1] if period else LAST_YEAR
    if own:
        src = load_sources()
        for key, make in (
            ("items", lambda e: window(e, end)),
            ("notes", lambda e: note_window(e, period, end)),
            ("outside", lambda e: outside_window(e, end)),
            ("placeholders", placeholder_window),
        ):
            entry = next((e for e in src.get(key, ()) if e["item"] == ref), None)
            if entry:
                return make(entry)
        if designation_year(nation, name):
            return designation_window(nation, name, end)
    if campaign and period:
        return campaign_window(nation, period)
    return None
