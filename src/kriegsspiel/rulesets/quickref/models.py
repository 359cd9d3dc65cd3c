"""Record kinds of the quickref sheet (seed 002_d45d373124c70bfa.txt, sheet lines L1-L7)."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, NonNegativeInt, model_validator

from ...data.provenance import Record

Nation = Literal["germany", "ussr", "britain", "usa"]
Result = Literal["-", "Sp", "Rt", "H", "KIA"]  # "-": blank cell, no effect


class _Part(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class QRecord(Record):
    """A sheet record: the sheet prints "---" where a value does not apply, and lost nothing
    else unflagged, so a null means "does not apply" unless its provenance says otherwise."""

    NULL_MEANS: ClassVar[str] = "n/a"


class Gun(_Part):
    """A gun profile: range bands, to-hit and penetration by band (short, long), HE strength.

    Single-number weapons (PIAT, bazookas) have one band: `range: [4]`.
    """

    range: list[int] = Field(min_length=1, max_length=2)
    to_hit: list[int] | None = Field(default=None, min_length=1, max_length=2)
    pen: list[int] | None = Field(default=None, min_length=1, max_length=2)
    he: int | None = None

    @model_validator(mode="after")
    def _bands(self) -> Gun:
        for name in ("to_hit", "pen"):
            v = getattr(self, name)
            if v is not None and len(v) != len(self.range):
                raise ValueError(f"{name} needs one value per range band ({len(self.range)})")
        if self.range != sorted(self.range):
            raise ValueError("range bands must be ascending (short, long)")
        return self

    def band(self, distance: float) -> int | None:
        """Index of the band the distance falls in (short band inclusive), None if out of range."""
        for i, limit in enumerate(self.range):
            if distance <= limit:
                return i
        return None


class Armour(_Part):
    front: NonNegativeInt
    side: NonNegativeInt


class Vehicle(QRecord):
    """A row of a nation's vehicle and gun chart (tanks, TDs, cars, carriers, towed guns, AT teams)."""

    nation: Nation
    category: Literal[
        "tank",
        "tank_destroyer",
        "assault_gun",
        "spg",
        "armoured_car",
        "carrier",
        "halftrack",
        "flame_tank",
        "towed_gun",
        "infantry_at",
        "gun_option",
    ]
    printed: str  # the row's cells as printed on the sheet, for audit against the seed
    gun: Gun | None = None
    alt_guns: dict[str, Gun] = Field(default_factory=dict)  # e.g. M3 Medium's 75 mm
    armour: Armour | None = None
    mg: NonNegativeInt | None = None  # MG / small-arms strength of the vehicle
    speed: NonNegativeInt | None = None  # inches per move phase
    flame: int | None = None  # flame strength (flame tanks); range is gun.range
    open_topped: bool = False
    wheeled: bool = False
    parent: str | None = None  # gun_option rows: the vehicle they belong to
    variants: dict[str, dict] = Field(
        default_factory=dict
    )  # e.g. late_armour: {front: 10, side: 7}

    @property
    def is_vehicle(self) -> bool:
        return self.category not in ("towed_gun", "infantry_at", "gun_option")

    @property
    def soft(self) -> bool:
        """No armour value, or armour 0/0 (towed guns): SA can hurt it (sheet L7, Soft Vehicles)."""
        return self.armour is None or (self.armour.front == 0 and self.armour.side == 0)


class Infantry(QRecord):
    """An infantry unit type from the small-arms rules (sheet L2)."""

    kind: Literal["squad", "command", "special_assault", "at_team", "mg_team", "fo"]
    sa: int  # small-arms strength
    range: list[int] = Field(
        min_length=1, max_length=2
    )  # SA 9/27, MG 12/36; assault squads short only
    stands: int = 1
    assault: int = 1  # close-assault strength (regular squad 1, sheet L7)
    mg: Literal["lmg", "mmg", "hmg"] | None = None
    at_weapon: str | None = None  # AT teams: the Vehicle id of their weapon
    calls_fire: bool = False  # may call for indirect fire (FOs, command stands)
    hmg_at: Gun | None = None  # HMG close-range AT attack (to-hit 8, pen 1)


class EffectsTable(QRecord):
    """The Small Arms and HE Effects Table: modified 2d10 rows x strength columns (sheet L2)."""

    dice: str
    columns: list[int]
    rows: dict[int, list[Result]]  # modified roll -> one cell per column

    @model_validator(mode="after")
    def _shape(self) -> EffectsTable:
        for roll, cells in self.rows.items():
            if len(cells) != len(self.columns):
                raise ValueError(
                    f"row {roll} has {len(cells)} cells for {len(self.columns)} columns"
                )
        return self


class Band(_Part):
    upto: int | None  # highest (modified) roll of the band; None = and above
    result: str


class BandTable(QRecord):
    """A table of result bands over a modified roll (Tank Hit Effect, Assault Hit Effect columns)."""

    dice: str
    bands: list[Band]

    def lookup(self, roll: int) -> str:
        for band in self.bands:
            if band.upto is None or roll <= band.upto:
                return band.result
        raise ValueError(f"{self.id}: roll {roll} above every band")


class Steps(QRecord):
    """A step table: value for keys at or above each printed key (HE Penetration, sheet L4)."""

    steps: dict[int, int]

    def at(self, key: int) -> int:
        best = 0
        for k in sorted(self.steps):
            if key >= k:
                best = self.steps[k]
        return best


class Artillery(QRecord):
    """One of the seven HE classes, or a flamethrower (sheet L4)."""

    kind: Literal["mortar", "gun", "flamethrower"]
    calibre: str | None = None
    strength: int
    min_range: int | None = None
    max_range: int | None = None  # None: off-board only, no range check
    to_hit: int | None = None  # direct-fire hit number; None = no to-hit roll
    vehicle_bonus: int | None = None  # flamethrower vs vehicle: + on Tank Hit Effect


class Terrain(QRecord):
    """A row of the Terrain Effects and Fire Chart (sheet L7). None = N/A."""

    at: int | None
    he: int | None
    he_soft: int | None = None  # woods: HE against non-armoured targets
    sa: int | None
    air: int | None
    blocks_los: bool
    move_fraction_vehicle: float = 1.0
    move_fraction_infantry: float = 1.0
    move_penalty_vehicle: float = 0.0  # inches off the move
    move_penalty_infantry: float = 0.0
    vehicles_prohibited: bool = False


class Constant(QRecord):
    """A single number of the sheet (morale number, infantry move, call-for-fire targets ...)."""

    value: float | int
    unit: str | None = None


class ToHitModifier(QRecord):
    """A printed direct-fire to-hit modifier of one nation's chart."""

    nation: Nation
    condition: Literal[
        "target_moved", "firer_moved_half", "firer_buttoned", "target_moved_or_buttoned"
    ]
    value: int


KINDS: dict[str, type[Record]] = {
    "vehicle": Vehicle,
    "infantry": Infantry,
    "effects_table": EffectsTable,
    "band_table": BandTable,
    "steps": Steps,
    "artillery": Artillery,
    "terrain": Terrain,
    "constant": Constant,
    "to_hit_modifier": ToHitModifier,
}
