"""What the army builder reads from the Panzerfaust catalogue: entries, dates, FR, prices, rules.

Organisation nodes come from `organisation.yaml` (kind, buyable, troop profile and slots per
issue 16.6); item PVs from `rulesets.panzerfaust.points.base_price` (the book, else the
placeholder PV model); dates and FR from each nation's equipment list (p44).
"""

from __future__ import annotations

import hashlib
import os
import pickle
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import Any

import yaml

from ...data.catalogue import Catalogue, Entry, overlay_paths_from_env
from ...rulesets import load, ruleset_module
from ...rulesets.panzerfaust import pv_model
from ...rulesets.panzerfaust.models import DateRange, NationRecord, Organisation, TroopRatingRule
from ...rulesets.panzerfaust.points import Price, base_price
from ...rulesets.panzerfaust.transport import TRANSPORT_CLASSES, transport_class  # noqa: F401
from ...rulesets.panzerfaust.windows import item_window

RULES_FILE = Path(__file__).with_name("rules.yaml")
ADHOC = "adhoc:company"
LEAF_KINDS = (
    "afv",
    "infantry_team",
    "infantry_weapon",
    "gun",
    "softskin",
    "motorised_gun",
    "battery",
    "aircraft",
    "fieldwork",
)
TOP_LEVEL_KINDS = ("organisation", "battery", "aircraft", "fieldwork", "adhoc")


@cache
def construction_rules() -> dict[str, Any]:
    """rules.yaml with `@fbr.KEY` parameters read from table:common/force-building-rules."""
    return yaml.safe_load(RULES_FILE.read_text())


@dataclass
class ArmyCatalogue:
    """The Panzerfaust catalogue seen by the army builder, with cached look-ups."""

    cat: Catalogue

    @classmethod
    def load(cls, overlays: tuple[Path, ...] | None = None) -> ArmyCatalogue:
        return _cached(overlays)

    # --- records ---------------------------------------------------------------------------
    def record(self, ref: str) -> Any:
        if ref == ADHOC:
            return None
        return self.cat.resolve(ref)

    def nation(self, nation: str) -> NationRecord:
        rec = self.cat.entries.get("nation", {}).get(nation)
        if rec is None:
            known = ", ".join(sorted(self.cat.entries.get("nation", {})))
            raise LookupError(f"unknown nation {nation!r}; known: {known}")
        return rec.record  # type: ignore[return-value]

    def label(self, ref: str) -> str:
        if ref == ADHOC:
            return "Ad-hoc company"
        try:
            return self.record(ref).name
        except LookupError:
            return f"{ref} (not in the data)"

    def known(self, ref: str) -> bool:
        try:
            self.record(ref)
        except LookupError:
            return False
        return True

    def page(self, ref: str) -> str | None:
        if not self.known(ref):
            return None
        rec = self.record(ref)
        page = getattr(rec, "page", None) or (rec.source.page if rec and rec.source else None)
        return f"p{page}" if page else None

    @cached_property
    def _equipment(self) -> dict[str, list]:
        return pv_model.equipment_index(self.cat)

    def dates(self, ref: str) -> DateRange | None:
        """The entry's service window (p44 step 3), None when the seed lost it. A softskin
        with no row of its own takes its transport class row's (decision P107), an HQ or AT
        rifle team its list's by rule (P232, `rulesets.panzerfaust.windows`)."""
        rec = self.record(ref)
        if isinstance(rec, Organisation):
            return rec.valid
        own = getattr(rec, "dates", None) or getattr(rec, "available", None)
        if own is not None:
            return own
        for e in self._rows(ref):
            if e.dates is not None:
                return e.dates
        return item_window(self.cat, rec.nation, ref)

    def dates_placeholder(self, ref: str) -> list[str]:
        """Which ends of the entry's window rest on a placeholder (decisions P113, P323): the
        ends of the equipment row the window comes from whose provenance is `placeholder`, so a
        builder can say so; [] for a printed, sourced or organisation window."""
        if isinstance(self.record(ref), Organisation):
            return []
        for e in self._rows(ref):
            if e.dates is not None:
                return [
                    end
                    for end in ("start", "end")
                    if getattr(e.dates, end) is not None
                    and e.prov(f"dates.{end}").value == "placeholder"
                ]
        return []

    def fr(self, ref: str) -> int | None:
        frs = [e.fr for e in self._rows(ref) if e.fr is not None]
        return max(frs) if frs else None

    def _rows(self, ref: str) -> list:
        rows = self._equipment.get(ref, [])
        if rows or not ref.startswith("softskin:"):
            return rows
        rec = self.record(ref)
        cls = transport_class(rec.name)
        return self._class_rows.get((rec.nation, cls), []) if cls else []

    @cached_property
    def _class_rows(self) -> dict[tuple[str, str], list]:
        out: dict[tuple[str, str], list] = {}
        for e in self.cat.all("equipment"):
            if e.category == "transport" and not e.item_ref:
                cls = transport_class(e.name)
                if cls:
                    out.setdefault((e.nation, cls), []).append(e)
        return out

    def price(self, ref: str) -> Price:
        return _price(self, ref)

    def organisations(self, nation: str) -> list[Organisation]:
        return [o for o in self.cat.all("organisation") if o.nation == nation]  # type: ignore[misc]

    def parents(self, ref: str) -> list[Organisation]:
        """Organisation nodes with a slot for `ref` (for ad-hoc company HQs, p5)."""
        return self._parents.get(ref, [])

    @cached_property
    def _parents(self) -> dict[str, list[Organisation]]:
        out: dict[str, list[Organisation]] = {}
        for org in self.cat.all("organisation"):
            for slot in org.slots:  # type: ignore[attr-defined]
                out.setdefault(slot.ref, []).append(org)  # type: ignore[arg-type]
        return out

    def rating_rules(self, nation: str, selector: str) -> list[TroopRatingRule]:
        name, _, group = selector.partition("@")
        rules = [r for r in self.nation(nation).rating_rules if r.selector == name]
        if group:
            rules = [r for r in rules if r.exclusive_group == group]
        return rules

    def fbr(self, key: str) -> Any:
        table = self.cat.resolve("table:common/force-building-rules")
        for row in table.rows:  # type: ignore[attr-defined]
            if row.key == key:
                return row.values["value"]
        raise LookupError(f"force-building-rules has no row {key!r}")

    def fr_limits(self) -> list[tuple[str, dict[str, Any]]]:
        table = self.cat.resolve("table:common/frequency-rating-limits")
        return [(row.key, row.values) for row in table.rows]  # type: ignore[attr-defined]

    def table_value(self, table: str, key: str, column: str) -> Any:
        rec = self.cat.resolve(f"table:{table}")
        for row in rec.rows:  # type: ignore[attr-defined]
            if row.key == key:
                return row.values[column]
        raise LookupError(f"table {table} has no row {key!r}")

    @cached_property
    def revision(self) -> str:
        """A short hash of the data files and the PV model: what a roster was built against."""
        return data_revision()


def data_revision() -> str:
    data_dir = Path(ruleset_module("panzerfaust").__file__).parent / "data"
    h = hashlib.sha256()
    for path in sorted(data_dir.rglob("*.yaml")):
        h.update(path.relative_to(data_dir).as_posix().encode())
        h.update(path.read_bytes())
    h.update(pv_model.MODEL_FILE.read_bytes())
    return h.hexdigest()[:12]


_PRICES: dict[tuple[int, str], Price] = {}


def _price(ac: ArmyCatalogue, ref: str) -> Price:
    key = (id(ac.cat), ref)
    if key not in _PRICES:
        _PRICES[key] = base_price(ac.cat, ref)
    return _PRICES[key]


CACHE_ENV = "KRIEGSSPIEL_CACHE"


def cache_dir() -> Path:
    base = os.environ.get(CACHE_ENV) or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "kriegsspiel"
    )
    return Path(base)


@cache
def _cached(overlays: tuple[Path, ...] | None) -> ArmyCatalogue:
    """The catalogue; without overlays, the validated records are kept in a pickle keyed by
    the data revision (a hash of every data file), so a builder starts in a fraction of the
    YAML load time and never reads stale data."""
    if overlays or (overlays is None and overlay_paths_from_env()):
        return ArmyCatalogue(load("panzerfaust", overlays))
    path = cache_dir() / f"panzerfaust-records-{data_revision()}.pickle"
    try:
        cat = pickle.loads(path.read_bytes())
        if isinstance(cat, Catalogue):
            return ArmyCatalogue(cat)
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError):
        pass
    full = load("panzerfaust", ())
    slim = Catalogue(
        full.ruleset,
        full.kinds,
        {
            kind: {i: Entry(e.record, {}, e.file, e.line) for i, e in table.items()}
            for kind, table in full.entries.items()
        },
    )
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(pickle.dumps(slim, protocol=pickle.HIGHEST_PROTOCOL))
        tmp.replace(path)
    except OSError:
        pass  # a read-only home: no cache, same result
    return ArmyCatalogue(slim)


def in_window(dates: DateRange | None, year: int, month: int) -> bool | None:
    """True/False when the window is known, None when the seed lost it."""
    if dates is None or (dates.start is None and dates.end is None):
        return None
    if dates.start and (year, month) < dates.start.key():
        return False
    return not (dates.end and (year, month) > dates.end.key(end=True))
