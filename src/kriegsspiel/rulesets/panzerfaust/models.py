"""Record models of the Panzerfaust army lists (seed 000, pp. 22-23, 26-35, 38-39, 43-45, 44-110).

Every record has a `nation` ("common" for nation-independent tables) so `data audit` groups by
nation. Values are plain typed fields; provenance of a value lives in `field_provenance`
(inline `{value:, provenance:, ref:, note:}` wrappers in YAML). A value the seed lost is `None`.
Armour is in the book's unit: effective cm, slope already folded in (p27).
"""

from __future__ import annotations

import re
from typing import ClassVar, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    NonNegativeFloat,
    NonNegativeInt,
    model_validator,
)

from ...data import Record

Size = Literal["A", "B", "C", "D"]
Nation = Literal[
    "common",
    "britain",
    "france",
    "germany",
    "italy",
    "japan",
    "ussr",
    "usa_europe",
    "usa_pacific",
    "belgium",
    "finland",
    "hungary",
    "poland",
    "rumania",
]
TroopClass = Literal["veteran", "regular", "conscript", "as_unit"]
Morale = Literal["elite", "reliable", "poor", "as_unit"]


class _Part(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class YearMonth(_Part):
    year: int = Field(ge=1930, le=1946)
    month: int | None = Field(default=None, ge=1, le=12)

    def key(self, end: bool = False) -> tuple[int, int]:
        return (self.year, self.month or (12 if end else 1))


class DateRange(_Part):
    """Inclusive service dates; `raw` is the seed's token ("39-40?"). `uncertain` marks a `?`."""

    raw: str
    start: YearMonth | None = None
    end: YearMonth | None = None
    uncertain: bool = False

    @model_validator(mode="after")
    def _ordered(self) -> DateRange:
        if self.start and self.end and self.start.key() > self.end.key(end=True):
            raise ValueError(f"date range {self.raw!r} ends before it starts")
        return self


class PanzerfaustRecord(Record):
    nation: Nation

    # optional attributes whose null means "does not apply", not "lost" (data audit)
    NOT_APPLICABLE: ClassVar[frozenset[str]] = frozenset(
        {
            "note",
            "valid",
            "exclusive_group",
            "multiplier_by_class",
            "radio_policy",
            "item_ref",
            "support_level",
            "choice_group",
            "historical_note",
            "max_in_force",
            "group",
            "radios",
            "location",
            "arc_deg",
            "gun_ref",
            "mg",
            "feed",
            "turret_traverse_deg",
            "page",
            "troop_profile",
            "role",
            "weapon",
            "portee",
            "small_towers",
            "offboard_allowed",
            "available",
            "name",
            # lists whose emptiness is a fact, not a loss (data audit)
            "constraints",
            "policies",
            "conditions",
            "open",
            "pv_options",
            "armament",
            "ammo",
        }
    )


# --- nations and nation-independent tables -------------------------------------------------


class TroopRatingRule(_Part):
    """One row of a compulsory troop class / morale table (p22-23 and each army list)."""

    selector: str  # offboard_artillery | onboard_artillery | all_other | guards | ss | ...
    troop_class: TroopClass
    morale: Morale
    multiplier: float | None  # None when the printed factor was lost
    multiplier_by_class: dict[str, float] | None = None  # offboard "as unit class"
    valid: DateRange | None = None
    exclusive_group: str | None = None
    constraints: list[str] = Field(default_factory=list)
    note: str | None = None


class NationRecord(PanzerfaustRecord):
    """kind `nation`: a nation's compulsory ratings and list-wide policies."""

    pages: list[int]
    rating_rules: list[TroopRatingRule]
    offboard_batteries_per_company: int = 1
    aircraft_per_company: int = 1
    allows: dict[str, bool] = Field(default_factory=dict)  # horse_teams, cavalry, smg, flamethrower
    radio_policy: str | None = None
    max_in_force: dict[str, int] = Field(default_factory=dict)  # org id -> max count
    chart_borrowing: dict[str, str] = Field(default_factory=dict)  # item -> nation chart
    policies: list[str] = Field(default_factory=list)


class RangeBands(PanzerfaustRecord):
    """kind `range_bands`: the band edges (cm) that index to-hit, penetration and fire factors."""

    applies_to: Literal["gun", "infantry", "aa"]
    edges_cm: list[int | None]  # upper edge of each band; None where lost


class TableRow(_Part):
    key: str
    values: dict[str, float | int | str | None]


class RulesTable(PanzerfaustRecord):
    """kind `table`: a nation-independent table (fire factors, troop class effects, FR p44, p45)."""

    page: int
    columns: list[str]
    rows: list[TableRow]


# --- equipment list ------------------------------------------------------------------------

EquipCategory = Literal["afv", "gun", "artillery", "transport", "infantry", "aircraft", "other"]


class EquipmentEntry(PanzerfaustRecord):
    """kind `equipment`: one row of a nation's equipment list (PV, dates, PROD, FR)."""

    category: EquipCategory
    raw: str  # the row as printed (damage included)
    item_ref: str | None = None  # "<kind>:<id>" of the chart record, when there is one
    pv: int | None
    pv_basis: str | None = None  # each | per_pair | per_team | ...
    dates: DateRange | None
    prod: str | None = None  # always lost / "?" in this edition
    fr: int | None = Field(default=None, ge=0, le=7)


# --- vehicles ------------------------------------------------------------------------------


class Armour(_Part):
    """Effective thickness in cm (slope included, p27)."""

    hf: NonNegativeFloat | None = None
    hs: NonNegativeFloat | None = None
    hr: NonNegativeFloat | None = None
    tf: NonNegativeFloat | None = None
    ts: NonNegativeFloat | None = None
    tr: NonNegativeFloat | None = None


class Mount(_Part):
    """One armament entry: a gun (ref to a gun record) or a machine gun."""

    raw: str
    gun_ref: str | None = None
    calibre_mm: float | None = None
    calibre_len: int | None = None
    mg: Literal["LMG", "MMG", "HMG"] | None = None
    count: int = 1
    feed: Literal["mag", "belt"] | None = None
    location: str | None = None  # turret | hull | coax | rear_half_turret ...
    arc_deg: int | None = None


class PVOption(_Part):
    id: str
    kind: Literal["add", "mult"] = "add"
    value: float
    basis: str = "per_vehicle"
    page: int | None = None


class AFV(PanzerfaustRecord):
    """kind `afv`: a tank, SP gun or APC/recon vehicle (legend p27)."""

    chart: Literal["tank", "spg", "apc_recon"]
    pv: int | None
    armament: list[Mount]
    armour: Armour
    speed_road: NonNegativeInt | None
    speed_cc: NonNegativeInt | None
    size: Size | None
    fire_order: int | None
    capacity: int | None
    radio: Literal["standard", "command_only", "none"] | None
    smoke_dischargers: bool
    one_man_turret: bool
    open: list[Literal["top", "sides", "rear"]] = Field(default_factory=list)
    # the passengers' cover against small arms where the AFV notes give one (p16-17, P349)
    passenger_cover: Literal["none", "soft", "hard"] | None = None
    turret_traverse_deg: int | None = None
    pv_options: list[PVOption] = Field(default_factory=list)


class Softskin(PanzerfaustRecord):
    """kind `softskin` (legend p26)."""

    pv: int | None
    drive: str | None  # 4x2 | 4x4 | 3x2 | trk | ht | -
    size: Size | None
    speed_road: NonNegativeInt | None
    speed_cc: NonNegativeInt | None
    capacity: int | None
    tow: Size | None
    armament: list[Mount] = Field(default_factory=list)
    horse_team: bool = False  # a horse team drawing a gun (p13, p25, p35; decision P317)


class MotorisedGun(PanzerfaustRecord):
    """kind `motorised_gun` (legend p27)."""

    pv: int | None
    drive: str | None
    size: Size | None
    speed_road: NonNegativeInt | None
    speed_cc: NonNegativeInt | None
    armament: list[Mount]
    stabilisers: bool = False
    gun_shield: bool = False
    armoured_cab: bool = False


# --- guns ----------------------------------------------------------------------------------


# rounds that pierce armour: a row of these kinds has (or lost) a penetration row (p34-35)
AP_AMMO = frozenset({"APCR", "HVAP", "APDS", "HEAT", "SPIGOT"})


class SpecialAmmo(_Part):
    kind: Literal["APCR", "HVAP", "APDS", "HEAT", "SPIGOT", "SMOKE", "WP", "CANISTER", "HE"]
    name: str | None = None
    available: DateRange | None = None
    basis: Literal["pp", "pg", "included"] | None = None  # per platoon / per gun (p34)
    pv_delta: int | None = None
    to_hit: list[int | None] | None = None
    penetration: list[float | None] | None = None


class Gun(PanzerfaustRecord):
    """kind `gun`: AT/tank gun, howitzer/field gun or AA/auto-cannon (legend p29, p34-35)."""

    category: Literal["at_tank", "howitzer_field", "aa_auto"]
    designation: str
    calibre_mm: float | None
    calibre_len: int | None
    pv: int | None
    size: Literal["A", "B", "C", "D", "AFV"] | None
    fire_order: int | None
    to_hit: list[int | None]  # index = gun range band; None where lost
    penetration: list[float | None]  # cm per band; None where lost or no AP round
    he: bool | None = None
    smoke: bool | None = None
    wp: bool | None = None
    gun_shield: bool = True
    horse_drawn_only: bool = False
    limbered_fire: bool = False  # the gun notes: fired by its crew without unlimbering (p33)
    portee: str | None = None  # the gun notes: carried and fired en portee, on what (p34)
    small_towers: list[str] = Field(default_factory=list)  # notes: may tow it though too small
    ammo: list[SpecialAmmo] = Field(default_factory=list)

    def null_status(self, path: str) -> str:
        """A howitzer's own penetration row, and the penetration of a smoke, WP, canister or HE
        ammo row, do not apply (P49: no AP round); any other empty penetration row was lost."""
        parts = path.split(".")
        if path not in self.field_provenance:
            if parts[0] == "penetration" and self.category == "howitzer_field":
                return "n/a"
            if (
                parts[0] == "ammo"
                and len(parts) >= 3
                and parts[2] in ("penetration", "to_hit")
                and self.ammo[int(parts[1])].kind not in AP_AMMO
            ):
                return "n/a"
        return super().null_status(path)

    def ap_rows(self) -> list[tuple[str, list[float | None]]]:
        """(path, penetration list) of every row that fires an armour-piercing round: the gun's
        own (AT, tank and AA guns, and any howitzer with a figure) and its AP ammo rows."""
        rows = []
        if self.category != "howitzer_field" or self.penetration:
            rows.append(("penetration", self.penetration))
        for i, ammo in enumerate(self.ammo):
            if ammo.kind in AP_AMMO:
                rows.append((f"ammo.{i}.penetration", ammo.penetration or []))
        return rows


# --- infantry ------------------------------------------------------------------------------


class InfantryTeam(PanzerfaustRecord):
    """kind `infantry_team`: a team type (fire factors by band p15, CQC p18)."""

    pv: int | None
    fire_factors: list[int | None]
    cqc: int | None
    weapon: str | None = None


class InfantryWeapon(PanzerfaustRecord):
    """kind `infantry_weapon`: AT rifles, HEAT launchers, one-shot weapons, demolitions (p20)."""

    weapon_kind: str
    pv: int | None
    pv_basis: Literal["per_team", "each", "per_5cm", "included"] = "per_team"
    one_shot: bool = False
    to_hit: list[int | None] = Field(default_factory=list)
    penetration: list[float | None] = Field(default_factory=list)
    available: DateRange | None = None
    engineers_only: bool = False


class ArtilleryBattery(PanzerfaustRecord):
    """kind `battery`: artillery / mortar / rocket / off-board PV row (p35, p38)."""

    weapon: str  # "75mm", "120mm", "81mm mortar"
    battery_kind: Literal["gun", "mortar", "rocket"]
    pv: int | None
    pv_basis: Literal["per_pair", "per_tube", "per_launcher"]
    offboard_allowed: bool | None = None

    def calibre(self) -> float | None:
        """The calibre in mm read from `weapon` ("81mm mortar": 81; "45-60mm": 60); None when
        the row lost it ("mm mortar")."""
        found = re.findall(r"(\d+(?:\.\d+)?)\s*mm", str(self.weapon))
        return float(found[-1]) if found else None


class Aircraft(PanzerfaustRecord):
    """kind `aircraft` (p43)."""

    pv: int | None
    role: str | None = None
    armament: list[Mount] = Field(default_factory=list)
    dates: DateRange | None = None


class Fieldwork(PanzerfaustRecord):
    """kind `fieldwork`: mines, fortifications and obstacles (p38-39)."""

    work_kind: Literal["mine", "fortification", "obstacle"]
    pv: int | None
    pv_basis: str | None = None


# --- organisations -------------------------------------------------------------------------


# slot conditions as data (scripts/classify_orgs.py maps the printed wording to these):
# whole_parent_only  the slot exists only when its parent is bought whole, not broken down (p5, p44)
# cannot_break_down  the node may not be broken down into its parts
# nation_policy      a limit stated in the nation's notes (nation.policies)
# mounted_motorcycles, cohesion, attach_to_company: play notes, no purchase check
# profile:<a>|<b>    only in nodes of these troop profiles (e.g. Guards or Siberians)
SlotCondition = str
SLOT_CONDITIONS = frozenset(
    {
        "whole_parent_only",
        "cannot_break_down",
        "nation_policy",
        "mounted_motorcycles",
        "cohesion",
        "attach_to_company",
    }
)
OrgKind = Literal["formation", "hq", "armour", "infantry", "cavalry", "recon", "support"]


class OrgSlot(_Part):
    min: int = Field(ge=0)
    max: int = Field(ge=0)
    ref: str  # "<kind>:<id>": organisation, infantry_team, afv, gun, battery, softskin
    role: Literal["hq", "standard", "support", "artillery", "optional"]
    support_level: str | None = None
    valid: DateRange | None = None
    choice_group: str | None = None  # slots sharing a group are alternatives
    conditions: list[SlotCondition] = Field(default_factory=list)
    radio: bool = False
    note: str | None = None

    @model_validator(mode="after")
    def _range(self) -> OrgSlot:
        if self.min > self.max:
            raise ValueError("slot min exceeds max")
        for cond in self.conditions:
            if cond not in SLOT_CONDITIONS and not cond.startswith("profile:"):
                raise ValueError(
                    f"unknown slot condition {cond!r}; known: {sorted(SLOT_CONDITIONS)}"
                )
        return self


class Organisation(PanzerfaustRecord):
    """kind `organisation`: a regiment/battalion/company/platoon node and its slots."""

    level: Literal["division", "regiment", "battalion", "company", "platoon", "section", "squad"]
    kind: OrgKind | None = None  # p44 company kinds; `formation` above company level
    buyable: bool = False  # bought as a unit (p5, p44)
    troop_profile: str | None = None  # nation rating-rule selector (ss, guards, ...), p22-23
    page: int
    slots: list[OrgSlot]
    radios: str | None = None
    max_in_force: int | None = None
    group: str | None = None  # force-wide limit group, keyed in nation.max_in_force "group:<name>"
    valid: DateRange | None = None
    historical_note: str | None = None


KINDS: dict[str, type[Record]] = {
    "nation": NationRecord,
    "range_bands": RangeBands,
    "table": RulesTable,
    "equipment": EquipmentEntry,
    "afv": AFV,
    "softskin": Softskin,
    "motorised_gun": MotorisedGun,
    "gun": Gun,
    "infantry_team": InfantryTeam,
    "infantry_weapon": InfantryWeapon,
    "battery": ArtilleryBattery,
    "aircraft": Aircraft,
    "fieldwork": Fieldwork,
    "organisation": Organisation,
}
