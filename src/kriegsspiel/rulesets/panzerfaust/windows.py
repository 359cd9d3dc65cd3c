"""The in-service window of an item in one nation's army list (p44 step 3; issue 16 item 5).

An item serves in a list for the window of that list's own equipment rows that name it (printed,
or written by `scripts/pf_dates.py` under decisions P113, P116, P230, P231). Two kinds of item
have no row of their own and take a window by rule:

- a softskin takes its nation's transport class row (decision P107);
- a team that only fills a role in the organisations (decision P232): an HQ team serves for its
  list's whole period; an AT rifle team for the window of its own list's AT rifle rows; a basic
  rifle, LMG, MMG or HMG team whose row lost its dates for its list's whole period (P294); last, the window another army's list prints for it (P300).

An item of the army's own that no row of its list names takes, at load, the window the sources
would write into a lost row (decision P303: a chart stand, the book's notes, an outside file, its
designation, a one-campaign list's period). Last (decision P234), an item no row or rule dates, whose every slot in its nation's organisations
is dated (the slot's own window, else its node's), serves within the span of those windows: the
book sells it only inside them. Failing that, an item from another army's list serves where its
home list dates it (P293: the builder already reads it so), and a battery named only by its calibre
for its list's whole period (P294); last, the window another army's list prints for it (P300). Those windows are never written into the rows, so the node dating
of `scripts/classify_orgs.py` (P114), which reads the rows, never feeds on them.

A list's period is the span of the windows its own rows print (p44-110: Poland 1939, Belgium and
France 1939-1940, Finland and Rumania 1939-1944, ...).
"""

from __future__ import annotations

import re

from ...data import Catalogue, Provenance
from .models import DateRange, YearMonth
from .sources.dates import lost_window
from .transport import transport_class

PRINTED = {Provenance.SEED, Provenance.SEED_INFERRED}
# Decision P294: the basic infantry teams every list fields from its first year to its last.
BASIC_TEAM = re.compile(r"(rifle|lmg|mmg|hmg)( team)?\b")
# Decision P232: an AT rifle row, printed "AT Rifle" or "ATR" (Finland: "20mm S18 ATR Team", p102)
AT_RIFLE = re.compile(r"\bat ?r(ifle)?\b")


def _rows(cat: Catalogue, nation: str) -> list:
    return [e for e in cat.all("equipment") if e.nation == nation]


def printed_window(row) -> bool:
    """The row's window is the book's: a printed date token, read as seed or seed-inferred."""
    d = row.dates
    return bool(d and d.raw and d.start and row.prov("dates.start") in PRINTED)


def list_period(cat: Catalogue, nation: str) -> tuple[int, int] | None:
    """First and last year of the windows the nation's equipment list prints, or None."""
    return _periods(cat).get(nation)


def _periods(cat: Catalogue) -> dict[str, tuple[int, int]]:
    spans: dict[str, tuple[int, int]] = {}
    for row in cat.all("equipment"):
        if not printed_window(row):
            continue
        first = row.dates.start.year
        last = row.dates.end.year if row.dates.end else first
        lo, hi = spans.get(row.nation, (first, last))
        spans[row.nation] = (min(lo, first), max(hi, last))
    return spans


def is_campaign_list(period: tuple[int, int] | None) -> bool:
    """A list the book prints for one campaign: every printed window within two calendar years
    (Poland 1939, Belgium and France 1939-1940; decision P230)."""
    return period is not None and period[1] - period[0] <= 1


def dated(d: DateRange | None) -> bool:
    return d is not None and (d.start is not None or d.end is not None)


def row_window(cat: Catalogue, nation: str, ref: str) -> DateRange | None:
    """The first dated row of the nation's list that names `ref`."""
    for row in _rows(cat, nation):
        if row.item_ref == ref and dated(row.dates):
            return row.dates
    return None


def _span(windows: list[DateRange], raw: str) -> DateRange | None:
    if not windows:
        return None
    start = min((w.start for w in windows if w.start), key=YearMonth.key, default=None)
    end = max((w.end for w in windows if w.end), key=lambda y: y.key(end=True), default=None)
    return DateRange(raw=raw, start=start, end=end)


def period_window(cat: Catalogue, nation: str) -> DateRange | None:
    """The nation's list period as a window (years only), or None."""
    period = list_period(cat, nation)
    if period is None:
        return None
    return DateRange(raw="", start=YearMonth(year=period[0]), end=YearMonth(year=period[1]))


def role_window(cat: Catalogue, nation: str, rec) -> DateRange | None:
    """Decision P232: an HQ team serves for its list's period; an AT rifle team while its list's
    AT rifle rows serve."""
    name = rec.name.casefold()
    if "hq" in name.split() or BASIC_TEAM.match(name):
        return period_window(cat, nation)
    if "at rifle team" in name:
        rifles = [
            r.dates
            for r in _rows(cat, nation)
            if r.item_ref
            and r.item_ref.startswith("infantry_weapon:")
            and AT_RIFLE.search(r.name.casefold())
            and dated(r.dates)
        ]
        return _span(rifles, "")
    return None


def item_window(cat: Catalogue, nation: str, ref: str) -> DateRange | None:
    """The window `ref` serves in `nation`'s list, or None where neither the book nor a rule
    gives one."""
    rec = cat.resolve(ref)
    if rec is None:
        return None
    own = getattr(rec, "dates", None) or getattr(rec, "available", None)
    if dated(own):
        return own
    found = row_window(cat, nation, ref)
    if found is not None:
        return found
    kind = ref.partition(":")[0]
    if kind == "softskin":
        found = class_window(cat, nation, rec)
    elif kind == "infantry_team":
        found = role_window(cat, nation, rec)
    found = found or rowless_window(cat, nation, ref, rec)
    found = found or org_window(cat, nation, ref)
    if found is None and rec.nation != nation:
        found = item_window(cat, rec.nation, ref)
    if found is None:
        found = allied_window(cat, nation, ref)
    if found is None and kind == "battery":
        found = period_window(cat, nation)
    return found


def rowless_window(cat: Catalogue, nation: str, ref: str, rec) -> DateRange | None:
    """Decision P303: an item of the nation's own army that no equipment row of the list names
    (the Rolls Royce, p49; the FCM36 of the French list) takes the window the sources give a row
    whose dates were lost (`sources.dates.lost_window`: P113, P301, P303, P233, P230) at load."""
    if rec.nation != nation or any(r.item_ref == ref for r in _rows(cat, nation)):
        return None
    period = list_period(cat, nation)
    found = lost_window(nation, ref, rec.name, period, True, is_campaign_list(period))
    if found is None:
        return None
    return DateRange(
        raw="",
        start=YearMonth(year=found["start"]["value"]["year"]),
        end=YearMonth(year=found["end"]["value"]["year"]),
    )


def allied_window(cat: Catalogue, nation: str, ref: str) -> DateRange | None:
    """Decision P300: the window another army's list prints for the same item (lend-lease: the
    British list dates the M5A1 43-45, p45), when no list of its own dates it."""
    for row in cat.all("equipment"):
        if row.nation != nation and row.item_ref == ref and printed_window(row):
            return row.dates
    return None


def class_window(cat: Catalogue, nation: str, rec) -> DateRange | None:
    """Decision P107: a softskin with no row of its own serves while its nation's transport class
    row ("Medium Truck") does."""
    cls = transport_class(rec.name)
    rows = [r for r in _rows(cat, nation) if r.category == "transport" and not r.item_ref]
    return next(
        (r.dates for r in rows if cls and transport_class(r.name) == cls and dated(r.dates)),
        None,
    )


def org_window(cat: Catalogue, nation: str, ref: str) -> DateRange | None:
    """Decision P234: the span of the windows of every slot of the nation's organisations that
    names `ref` (the slot's `valid`, else its node's), when each one is dated."""
    windows = []
    for node in cat.all("organisation"):
        if node.nation != nation:
            continue
        for slot in node.slots:
            if slot.ref == ref:
                w = slot.valid if dated(slot.valid) else node.valid
                if not dated(w):
                    return None
                windows.append(w)
    return _span(windows, "")
