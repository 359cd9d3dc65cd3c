"""The rules' tables as lookups over the loaded data (seed 000), each reported with provenance.

`Rules` bundles the catalogue (shipped data plus overlays) with the options; it is hashable so
exact odds are memoised per rules and query. A lookup returns the value and the placeholder
labels it used; resolutions yield those as `Cite` steps so every result lists them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from ....chance import Cite
from ....data.catalogue import Catalogue
from ....data.errors import RuleError
from ..models import RangeBands, RulesTable
from ..options import Options

CLASSES = ("veteran", "regular", "conscript")
RATINGS = ("elite", "reliable", "poor")


@dataclass(frozen=True, eq=False)
class Rules:
    cat: Catalogue
    opts: Options = field(default_factory=Options)

    def __hash__(self) -> int:
        return hash((id(self.cat), self.opts))

    def __repr__(self) -> str:
        changed = self.opts.model_dump(exclude_defaults=True)
        return f"Rules({self.cat.ruleset}, options={changed})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rules) and other.cat is self.cat and other.opts == self.opts

    def with_options(self, **changes: object) -> Rules:
        return Rules(self.cat, self.opts.model_copy(update=changes))

    # ------------------------------------------------------------------ tables
    def table(self, ident: str) -> RulesTable:
        """A rules table by slug; LookupError when the data (and overlays) have none."""
        memo = self._tables
        if ident not in memo and f"common/{ident}" not in self.cat.entries.get("table", {}):
            memo[ident] = LookupError(f"no table common/{ident} in the data or overlays")
        if ident not in memo:
            try:
                rec = self.cat.get("table", f"common/{ident}")
            except LookupError as e:
                memo[ident] = e
            else:
                assert isinstance(rec, RulesTable)
                memo[ident] = rec
        found = memo[ident]
        if isinstance(found, LookupError):
            raise found
        return found

    @cached_property
    def _tables(self) -> dict[str, RulesTable | LookupError]:
        return {}

    @cached_property
    def _rows(self) -> dict[tuple[str, str], tuple[int, dict]]:
        return {}

    def row(self, ident: str, key: str) -> tuple[int, dict[str, Any]]:
        """(row index, values) of a table row by key."""
        memo = self._rows.get((ident, key))
        if memo is None:
            t = self.table(ident)
            for i, r in enumerate(t.rows):
                if r.key == key:
                    memo = self._rows[(ident, key)] = (i, r.values)
                    break
            else:
                raise LookupError(f"table {ident} has no row {key!r}")
        return memo

    def cell(
        self, ident: str, key: str, column: str, fallback: Any = None
    ) -> tuple[Any, tuple[str, ...]]:
        """A table cell and its placeholder labels; a null cell takes `fallback` (a rules
        placeholder, see placeholders.py) or is refused when there is none."""
        i, values = self.row(ident, key)
        value = values.get(column)
        t = self.table(ident)
        if value is None:
            if fallback is None or not self.opts.placeholder_tables:
                raise RuleError(
                    f"table {t.name} ({ident}, p{t.page}): the value for {key}/{column} was lost "
                    "in the seed and no overlay supplies it"
                )
            return fallback, (f"rules-placeholder:{ident}.{key}.{column}",)
        return value, tuple(t.placeholders(f"rows.{i}.values.{column}", f"rows.{i}.values"))

    def lost(self, ident: str, key: str, column: str, fallback: Any) -> tuple[Any, tuple[str, ...]]:
        """A value the seed lost that the shipped data has no table for: the rules placeholder
        `fallback` (placeholders.py), reported as `rules-placeholder:<ident>.<key>.<column>`,
        unless an overlay adds the table `common/<ident>` with the cell filled (then the
        overlay's value, with its provenance, wins: no code change)."""
        try:
            self.row(ident, key)
        except LookupError:
            if not self.opts.placeholder_tables:
                raise RuleError(
                    f"{ident} {key}/{column}: the value was lost in the seed and no overlay "
                    "supplies it (option placeholder_tables=false)"
                ) from None
            return fallback, (f"rules-placeholder:{ident}.{key}.{column}",)
        return self.cell(ident, key, column, fallback)

    def modifier(self, ident: str, key: str, column: str) -> int:
        value, _ = self.cell(ident, key, column)
        return int(value)

    # ------------------------------------------------------------------ range bands
    def bands(self, ident: str) -> RangeBands:
        rec = self.cat.get("range_bands", f"common/{ident}")
        assert isinstance(rec, RangeBands)
        return rec

    def band(self, ident: str, distance: float, n_values: int, who: str) -> tuple[int, int, Cite]:
        """(band index, band edge, cite) for a range: rounded up to the next edge (p29)."""
        if distance < 0:
            raise RuleError(f"range {distance:g} cm is negative")
        rec = self.bands(ident)
        for i, edge in enumerate(rec.edges_cm[:n_values]):
            if edge is not None and distance <= edge:
                return i, edge, Cite(tuple(rec.placeholders(f"edges_cm.{i}")))
        longest = max((e for e in rec.edges_cm[:n_values] if e is not None), default=0)
        raise RuleError(f"{who}: range {distance:g} cm is beyond its longest band ({longest} cm)")


def rules(cat: Catalogue | None = None, opts: Options | None = None) -> Rules:
    """The shipped Panzerfaust rules (and overlays of $KRIEGSSPIEL_DATA_OVERLAY)."""
    from ... import load

    return Rules(cat or load("panzerfaust"), opts or Options())


def cite(labels: tuple[str, ...] | list[str]) -> Cite:
    return Cite(tuple(labels))


def band_of_2d6(value: int, bands: dict[str, tuple[int | None, int | None]]) -> str:
    """The name of the band (min, max inclusive; None = open) holding value."""
    for name, (lo, hi) in bands.items():
        if (lo is None or value >= lo) and (hi is None or value <= hi):
            return name
    raise LookupError(value)
