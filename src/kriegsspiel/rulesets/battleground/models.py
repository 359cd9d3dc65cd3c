"""Record kinds of Battleground World War II (seed 003_0a7dd8be461615a3.txt).

Sections (§) are those of the engineering digest research/battleground.md, which follows the
rulebook's chapters. A null field is a value the seed lost unless the record kind says otherwise.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ...data.provenance import Record

Cell = int | float | str | None
WeaponClass = Literal["P", "SMG", "R", "SLR", "AR", "PMG", "LMG", "MMG", "HMG", "LCMG", "AC"]
Size = Literal["VS", "S", "M", "L", "VL"]
Barrel = Literal["S", "STD", "L", "XL"]
COLUMNS = ("H", "G", "F", "E", "D", "C", "B", "A")  # effects chart, weakest to strongest


class _Part(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class BGRecord(Record):
    NOT_APPLICABLE: ClassVar[frozenset[str]] = frozenset(
        {"section", "nation", "notes", "set", "jam", "effect_mod", "he_size", "capacity"}
    )


class Table(BGRecord):
    """kind `table`: a chart as rows of cells (`cells.<row>.<column>`), each cell with its own
    provenance where it differs from the table's. A null cell is a blank of the chart."""

    NULL_MEANS: ClassVar[str] = "n/a"

    section: str
    columns: list[str]
    cells: dict[str, dict[str, Cell]]

    @property
    def nation(self) -> str:
        """Tables are nation-independent: `data audit` groups them by their own id, so every
        chart shows its own provenance shares (`--nation effects_chart` picks one)."""
        return self.id

    @model_validator(mode="after")
    def _columns(self) -> Table:
        for row, values in self.cells.items():
            extra = set(values) - set(self.columns)
            if extra:
                raise ValueError(f"row {row!r}: unknown column(s) {sorted(extra)}")
        return self


class SmallArm(BGRecord):
    """kind `small_arm`: a row of the Small Arms List (§3.7, §4.1); weapons the scenarios name
    without a row take their class's defaults (provenance seed-inferred, see the decisions)."""

    nation: str
    type: WeaponClass
    rof: int = Field(ge=1)
    crew: int = Field(ge=1)
    range_row: str  # row of table small_arms_bands
    effect: str  # effects-chart column letter
    effect_mod: int = 0
    jam: int = 20
    set: int | None = None
    range_bonus: int = 0  # inches added to every band but point blank


class Vehicle(BGRecord):
    """kind `vehicle`: a Vehicle Statistics row (§3.22, §4.3-4.4)."""

    NOT_APPLICABLE: ClassVar[frozenset[str]] = BGRecord.NOT_APPLICABLE | {
        "gun",
        "gun_mm",
        "barrel",
        "hull_mg",
        "coax",
        "aamg",
        "load",
        "turret",
        "smoke",
        "APCR",
        "HEAT",
        "HE",
        "AP",
        "top",
        "armor_mm",
    }

    nation: str
    type: Literal["T", "AG", "SP", "TD", "AC", "HT", "TR", "J", "M"]
    size: Size
    weight: float | None
    armor: dict[str, int | Literal["auto"] | None]  # HF TF HS TS HR TR (+ top)
    armor_mm: dict[str, str] = Field(default_factory=dict)  # historical plate "mm@slope"
    speed: int | None
    load: int | None = None
    turret: Literal["N", "S", "2", "1", "-"] | None = None
    smoke: int | None = None
    hull_mg: str | None = None
    coax: str | None = None
    aamg: str | None = None
    gun: str | None = None
    gun_mm: int | None = None
    barrel: Barrel | None = None
    pen: dict[str, int | None] = Field(default_factory=dict)  # AP APCR HEAT HE
    he_size: str | None = None
    crew: int
    capacity: int | None = None
    locations: str  # hit_location id
    skirt_locations: dict[str, list[int]] = Field(default_factory=dict)  # Schurzen/sandbags
    specials: list[str] = Field(default_factory=list)


class Location(_Part):
    part: Literal["hull", "turret", "auto", "compartment"]
    non_pen: str
    pen: str


class HitLocations(BGRecord):
    """kind `hit_location`: a vehicle's d20 hit-location chart per facing (§3.29, §4.4)."""

    facings: dict[str, dict[str, Location]]

    @model_validator(mode="after")
    def _rows(self) -> HitLocations:
        for facing, rows in self.facings.items():
            if sorted(map(int, rows)) != list(range(1, 21)):
                raise ValueError(f"facing {facing!r} needs locations 1-20")
        return self


class ATWeapon(BGRecord):
    """kind `at_weapon`: infantry AT weapons (§3.19) and MG/ATR vs AFV rows (§3.20)."""

    NOT_APPLICABLE: ClassVar[frozenset[str]] = BGRecord.NOT_APPLICABLE | {"pen_by_band", "pen"}

    nation: str
    family: Literal["rocket", "panzerfaust", "atr", "mg"]
    bands: list[int]  # upper limits in inches, PB first
    to_hit: list[int]
    pen: int | None = None
    pen_by_band: list[int] | None = None
    heat: bool = False
    crew: int = 1

    @model_validator(mode="after")
    def _same_length(self) -> ATWeapon:
        if len(self.bands) != len(self.to_hit):
            raise ValueError("one to-hit number per band")
        if self.pen_by_band is not None and len(self.pen_by_band) != len(self.bands):
            raise ValueError("one penetration per band")
        return self


class Gun(BGRecord):
    """kind `gun`: a row of the Artillery and AT Gun chart (§4.2), all values lost."""

    NOT_APPLICABLE: ClassVar[frozenset[str]] = BGRecord.NOT_APPLICABLE | {"AP", "APCR", "HEAT"}

    nation: str
    type: Literal["M", "G", "ATG", "AA"]
    gun_mm: int
    barrel: Barrel
    load: int
    crew: int
    set: int | None = None
    pen: dict[str, int | None]
    he_size: str | None = None


class Force(_Part):
    unit: str
    count: int = 1
    quality: str | None = None
    ml: str | None = None
    arms: list[str] = Field(default_factory=list)
    grenades: int | None = None
    note: str | None = None


class Scenario(BGRecord):
    """kind `scenario`: one of the seven scenarios' forces and conditions (§4.5)."""

    NOT_APPLICABLE: ClassVar[frozenset[str]] = BGRecord.NOT_APPLICABLE | {
        "quality",
        "ml",
        "grenades",
        "note",
        "arms",
    }

    date: str
    place: str
    turns: int
    sides: dict[str, list[Force]]
    victory: dict[str, str]
    special: list[str] = Field(default_factory=list)


KINDS: dict[str, type[Record]] = {
    "table": Table,
    "small_arm": SmallArm,
    "vehicle": Vehicle,
    "hit_location": HitLocations,
    "at_weapon": ATWeapon,
    "gun": Gun,
    "scenario": Scenario,
}
