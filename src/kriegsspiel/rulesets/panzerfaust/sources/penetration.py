"""Decision P49's one conversion: public penetration figures to the book's gun range bands.

`penetration.yaml` (beside this module) holds the figures exactly as each public data file prints
them, with repository, commit and path. This module turns them into chart values (cm per band):

1. distance: each band's far edge (P48 gun grid, cm) x 10 m;
2. the source curve is interpolated linearly between its distances, held flat before its first
   and beyond its last; a HEAT round has one figure at every band (p29);
3. angle: the book's penetration figures are against plate at 30 deg (P49). A source at 0 deg
   (vertical plate) is divided by the 30 deg slope multiplier of its round type from the same
   source's own table (DarkestHour `DHArmoredVehicle.uc`, after Bird & Livingston, at an
   overmatch of 1); a source that states no angle is used as printed;
4. rounding: to the whole mm (half up), then / 10.

Bands beyond the gun's (or ammo row's) to-hit list are left out. A target with `derived` has no
source of its own and takes the named round's figures as a `placeholder`; every other value is
`historical`. A target with `same_round` is a gun whose figures a source prints under another
name (a licence copy, or a sister gun firing the same round); the note says why.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from functools import cache
from pathlib import Path
from typing import Any

import yaml

SOURCES_FILE = Path(__file__).with_name("penetration.yaml")
SLOPE_FILE = "DH_Engine/Classes/DHArmoredVehicle.uc"
BOOK_ANGLE_DEG = 30


def _hvap(diameter_cm: float) -> float:
    if diameter_cm > 8.5:
        return math.exp(BOOK_ANGLE_DEG**1.75 * 0.000662)
    return 0.7277 * math.exp(BOOK_ANGLE_DEG**1.5 * 0.003787)


# 30 deg multiplier per round type at an overmatch of 1 (DHArmoredVehicle.uc
# GetArmorSlopeMultiplier / ArmorSlopeTable); HVAP depends on the shot's diameter.
SLOPE_30: dict[str, float] = {
    "AP": 1.22,
    "APBC": 1.16,
    "APC": 1.27,
    "APDS": math.exp(BOOK_ANGLE_DEG**2.6 * 0.00003011),
    "HEAT": 1 / math.cos(math.radians(BOOK_ANGLE_DEG)),
}


@dataclass(frozen=True)
class BandValue:
    value: float
    provenance: str
    ref: str
    note: str

    def as_yaml(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "provenance": self.provenance,
            "ref": self.ref,
            "note": self.note,
        }


@cache
def load_sources(path: Path = SOURCES_FILE) -> dict[str, Any]:
    with open(path, encoding="utf-8") as fh:
        return yaml.safe_load(fh)


def divisor(rnd: dict[str, Any], source: dict[str, Any]) -> float:
    """The 0 -> 30 deg divisor for a round, or 1 where the source states no angle."""
    if source.get("angle_deg") != 0:
        return 1.0
    if rnd["round_type"] == "HVAP":
        return _hvap(rnd["diameter_cm"])
    return SLOPE_30[rnd["round_type"]]


def curve(rnd: dict[str, Any], source: dict[str, Any]) -> tuple[list[float], list[float]] | float:
    """(distances m, mm) of an AP round, or the one mm figure of a HEAT round, as printed."""
    scale = 10.0 if source["unit"] == "cm" else 1.0
    if "heat_cm" in rnd or "heat_mm" in rnd:
        return float(rnd.get("heat_mm", rnd.get("heat_cm", 0) * 10))
    if "cm" in rnd:
        return [float(d) for d in source["distances_m"]], [v * scale for v in rnd["cm"]]
    pairs = sorted((int(d), float(v)) for d, v in rnd["mm"].items())
    return [d for d, _ in pairs], [v for _, v in pairs]


def at_distance(dist: list[float], mm: list[float], metres: float) -> tuple[float, str]:
    """Linear interpolation, flat before the first and beyond the last distance."""
    if metres <= dist[0]:
        return mm[0], "flat before source" if metres < dist[0] else ""
    if metres >= dist[-1]:
        return mm[-1], "flat beyond source" if metres > dist[-1] else ""
    for i in range(len(dist) - 1):
        (d0, v0), (d1, v1) = (dist[i], mm[i]), (dist[i + 1], mm[i + 1])
        if d0 <= metres <= d1:
            if metres in (d0, d1):
                return (v0 if metres == d0 else v1), ""
            return v0 + (v1 - v0) * (metres - d0) / (d1 - d0), "interp."
    raise AssertionError("unreachable")


def round_mm(x: float) -> int:
    return int(Decimal(repr(x)).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def ref_of(rnd: dict[str, Any], source: dict[str, Any]) -> str:
    commit = rnd.get("commit") or source["commit"]
    where = rnd["path"] + (f" (table in {rnd['table_path']})" if "table_path" in rnd else "")
    return f"{source['repo']}@{commit}:{where} [{rnd['round']}]"


def band_values(target: dict[str, Any], edges_cm: list[int], n: int) -> list[BandValue]:
    """The chart values for one target row: `n` bands (its to-hit length) on the `edges_cm` grid."""
    doc = load_sources()
    rnd = doc["rounds"][target["round"]]
    source = doc["sources"][rnd["source"]]
    div = divisor(rnd, source)
    prov = "placeholder" if target.get("derived") else "historical"
    angle = (
        f"0deg / {div:.3f} ({rnd['round_type']} at 30deg)"
        if div != 1.0
        else "angle not stated, as printed"
    )
    prefix = "P49" + (
        f" placeholder ({target['derived']})"
        if prov == "placeholder"
        else (f" ({target['same_round']})" if "same_round" in target else "")
    )
    ref = ref_of(rnd, source)
    shape = curve(rnd, source)
    out = []
    for edge in edges_cm[:n]:
        metres = edge * 10
        if isinstance(shape, float):
            raw, how = shape, "HEAT, constant"
        else:
            raw, how = at_distance(*shape, metres)
        mm = round_mm(raw / div)
        detail = f"{metres} m" + (f" {how}" if how else "")
        note = f"{prefix}: {detail} {raw:.1f} mm at {angle} -> {mm / 10:.1f} cm"
        out.append(BandValue(mm / 10, prov, ref, note))
    return out
