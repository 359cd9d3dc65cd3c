"""The sheet's tables as lookups over the loaded data, each lookup an explanation step.

`Rules` bundles the catalogue (shipped data plus overlays) with the chosen options; every
resolution takes one. It is hashable, so exact odds can be memoised per rules and query.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from ...chance import Lookup
from ...data.catalogue import Catalogue
from .models import BandTable, Constant, EffectsTable, Infantry, Steps, Terrain, Vehicle
from .options import Options

P_EFFECTS = "L2 Small Arms and HE Effects Table"
P_TANK = "L2 Tank Hit Effect"
P_HE = "L4 HE Rules"
P_TERRAIN = "L7 Terrain Effects and Fire Chart"
SEVERITY = {"-": 0, "Sp": 1, "Rt": 2, "H": 3, "KIA": 4}


@dataclass(frozen=True, eq=False)
class Rules:
    cat: Catalogue
    opts: Options = field(default_factory=Options)

    def __hash__(self) -> int:
        return hash((id(self.cat), self.opts))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rules) and other.cat is self.cat and other.opts == self.opts

    @cached_property
    def unit_records(self) -> dict[tuple[str, str], Vehicle | Infantry]:
        """Memo of `game.units.record`: (unit kind, type id) -> its data record."""
        return {}

    def with_options(self, **changes: object) -> Rules:
        return Rules(self.cat, self.opts.model_copy(update=changes))

    # ------------------------------------------------------------------ data access
    def const(self, ident: str) -> float:
        rec = self.cat.get("constant", ident)
        assert isinstance(rec, Constant)
        return rec.value

    @cached_property
    def _terrain_rows(self) -> dict[str, Terrain]:
        """Memo of `terrain` by the name asked: a name that is not an id costs the catalogue a
        scan of every record, and sight and movement ask for the same few rows all game."""
        return {}

    def terrain(self, ident: str | None) -> Terrain:
        key = ident or "open"
        rec = self._terrain_rows.get(key)
        if rec is None:
            rec = self.cat.get("terrain", key)
            assert isinstance(rec, Terrain)
            self._terrain_rows[key] = rec
        return rec

    @cached_property
    def effects(self) -> EffectsTable:
        rec = self.cat.get("effects_table", "sa-he-effects")
        assert isinstance(rec, EffectsTable)
        return rec

    def band_table(self, ident: str) -> BandTable:
        rec = self.cat.get("band_table", ident)
        assert isinstance(rec, BandTable)
        return rec

    # ------------------------------------------------------------------ lookups
    def column(self, strength: int) -> int:
        """The printed column a strength uses: the next lower one by default (Q4)."""
        cols = self.effects.columns
        if strength < cols[0]:
            return 0
        if self.opts.strength_rounding == "up":
            return next((c for c in cols if c >= strength), cols[-1])
        return max(c for c in cols if c <= strength)

    def effects_cell(self, modified: int, strength: int) -> tuple[str, Lookup]:
        """Result of a modified 2d10 roll at a strength, with the lookup step."""
        col = self.column(strength)
        table = self.effects
        if col == 0:
            return "-", Lookup(table.name, f"strength {strength} (no column)", "-", P_EFFECTS)
        rows = table.rows
        lo, hi = min(rows), max(rows)
        row = modified
        if row < lo:
            row = lo
        elif row > hi:
            if self.opts.off_table == "none":
                return "-", Lookup(
                    table.name, f"roll {modified} > {hi}, column {col}", "-", P_EFFECTS
                )
            row = hi
        result = rows[row][table.columns.index(col)]
        if self.opts.row16_col10_sp and row == 16 and col == 10:
            result = "Sp"
        key = f"roll {modified}" + (f" (row {row})" if row != modified else "") + f", column {col}"
        return result, Lookup(table.name, key, result, P_EFFECTS)

    def tank_hit(self, modified: int) -> tuple[str, Lookup]:
        table = self.band_table("tank-hit-effect")
        result = table.lookup(modified)
        return result, Lookup(table.name, f"modified d10 {modified}", result, P_TANK)

    def he_penetration(self, strength: int) -> tuple[int, Lookup]:
        rec = self.cat.get("steps", "he-penetration")
        assert isinstance(rec, Steps)
        pen = rec.at(strength)
        return pen, Lookup(rec.name, f"HE {strength}", pen, P_HE)

    def he_parts(self, strength: int) -> list[int]:
        """Strength above 24 splits into 24s plus the remainder (L4); e.g. 29 -> [24, 5]."""
        top = int(self.const("he-max-column"))
        parts = []
        while strength > top:
            parts.append(top)
            strength -= top
        if strength > 0:
            parts.append(strength)
        return parts


_RULES: dict[tuple, Rules] = {}


def rules(cat: Catalogue | None = None, opts: Options | None = None) -> Rules:
    """The Rules for a catalogue (default: shipped quickref data plus env overlays)."""
    from .. import load

    cat = cat or load("quickref")
    opts = opts or Options()
    key = (id(cat), opts)
    if key not in _RULES:
        _RULES[key] = Rules(cat, opts)
    return _RULES[key]
