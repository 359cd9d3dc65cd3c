"""The rules' tables over the loaded data, and the d20 roll conventions (digest §1).

`Rules` bundles the catalogue (shipped data plus overlays) with the options; it is hashable so
exact odds are memoised per rules and query. `get` is a generator: it yields a `Cite` when the
cell is a placeholder, so every result that used one lists it.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ....chance import Cite, Modifier, Note, Roll
from ....data.catalogue import Catalogue
from ....data.errors import RuleError
from ...rules_base import CatalogueRules
from ..models import Table
from ..options import Options

QUALITIES = ("green", "regular", "veteran", "elite")
SIZES = ("VS", "S", "M", "L", "VL")
SEVERITY = {"normal": Fraction(1), "half": Fraction(1, 2), "quarter": Fraction(1, 4)}


@dataclass(frozen=True, eq=False)
class Rules(CatalogueRules):
    """The catalogue and options of one Battleground query (hash and equality: the base)."""

    cat: Catalogue
    opts: Options = field(default_factory=Options)

    def table(self, ident: str) -> Table:
        rec = self.cat.get("table", ident)
        assert isinstance(rec, Table)
        return rec

    def peek(self, ident: str, row: str, col: str) -> Any:
        """A cell's value with no citation (for choices made before any roll)."""
        try:
            return self.table(ident).cells[str(row)][col]
        except KeyError:
            raise RuleError(f"table {ident} has no cell {row}/{col}") from None

    def get(self, ident: str, row: str, col: str) -> Generator[Any, Any, Any]:
        """`value = yield from rules.get(table, row, column)`: cites a placeholder cell."""
        t = self.table(ident)
        value = self.peek(ident, row, col)
        labels = t.placeholders(f"cells.{row}.{col}")
        if labels:
            if not self.opts.placeholder_tables:
                raise RuleError(
                    f"{t.name} ({t.section}) cell {row}/{col} was lost in the seed; "
                    "option placeholder_tables=false refuses to play it"
                )
            yield Cite(tuple(labels))
        return value

    def drm(self, ident: str, name: str, col: str = "drm") -> Generator[Any, Any, Modifier]:
        """A named modifier from a modifier table, as an explanation step."""
        value = yield from self.get(ident, name, col)
        mod = Modifier(name.replace("_", " "), int(value), self.table(ident).section)
        yield mod
        return mod

    def drms(self, ident: str, names: Any) -> Generator[Any, Any, list[Modifier]]:
        """Several named modifiers of one table."""
        out = []
        for name in names:
            out.append((yield from self.drm(ident, name)))
        return out

    def band(self, ident: str, roll: int, col: str) -> Generator[Any, Any, Any]:
        """The cell of the `lo-hi` row containing `roll` (rolls clamp to the table's ends)."""
        rows = [(tuple(map(int, k.split("-"))), k) for k in self.table(ident).cells]
        lo = min(r[0][0] for r in rows)
        hi = max(r[0][1] for r in rows)
        roll = max(lo, min(hi, roll))
        for (a, b), key in rows:
            if a <= roll <= b:
                return (yield from self.get(ident, key, col))
        raise RuleError(f"table {ident}: no row holds {roll}")

    def scale(self, value: int | Fraction, fraction: Fraction) -> int:
        """A halved or quartered number, rounded by the option (decision BG-ROUND)."""
        exact = Fraction(value) * fraction
        if self.opts.halving == "down":
            return exact.numerator // exact.denominator
        return int(exact + Fraction(1, 2)) if exact >= 0 else -int(-exact + Fraction(1, 2))


def mods_total(mods: list[Modifier]) -> int:
    return sum(m.value for m in mods)


def quality_of(value: str) -> str:
    v = value.casefold()
    if v not in QUALITIES:
        raise RuleError(f"quality {value!r}: expected one of {QUALITIES}")
    return v


def d20_under(
    target: int, label: str, page: str, extra_cuts: tuple[int, ...] = ()
) -> Generator[Any, Any, int]:
    """A d20 whose sequel depends on `roll <= target`, on naturals 1 and 20 and on `extra_cuts`;
    exact mode walks one value per band (digest §1: succeed when roll + mods <= target)."""
    cuts = sorted({1, 19, *(max(0, min(20, c)) for c in (target, *extra_cuts))} - {20})
    roll = yield Roll("1d20", label, page, cuts=tuple(cuts))
    return roll


def check(
    target: int, mods: list[Modifier], label: str, page: str
) -> Generator[Any, Any, tuple[bool, int]]:
    """`d20 + mods <= target`: (passed, natural roll)."""
    eff = target - mods_total(mods)
    roll = yield from d20_under(eff, label, page)
    yield Note(f"{label}: d20 {roll} {mods_total(mods):+d} against {target}", page)
    return roll <= eff, roll


def d3(d6: int) -> int:
    """A d3 read from a d6: 1-2 -> 1, 3-4 -> 2, 5-6 -> 3 (digest §1)."""
    return (d6 + 1) // 2


def parse_ml(ml: str) -> tuple[int, int]:
    """ "12-1" -> (12, -1); "10" -> (10, 0) (digest §3.2 notation)."""
    text = str(ml).strip()
    try:
        if "-" in text:
            m, lead = text.split("-", 1)
            return int(m), -int(lead)
        return int(text), 0
    except ValueError:
        raise RuleError(f"morale {ml!r}: expected e.g. 12 or 12-1") from None
