"""Decision P2 (revised by issue 16): AFV armour face by face from a per-plate source.

`armour.yaml` (beside this module) holds each vehicle's plates as DarkestHour's vehicle classes
print them (or, where a vehicle names its own `source`, as that page's armour table prints them; a
`source` with a `url` is a web page that prints the faces, P320): thickness (cm) and slope from
vertical per plate of the hull front, side and rear, and the turret's front, side and rear factor
and slope. A face's chart value (cm, slope folded in as
p27 does: 30 deg from horizontal doubles a plate) is the thickest effective plate of that face,
thickness / cos(slope), among plates no steeper than 62 deg from vertical (steeper plates are
roof, floor or glacis strips that the book's three faces do not describe); rounded to 0.1 cm, half
up. A plate printed as "a + b mm" (appliqué, a double wall) is its sheets' sum; a plate marked
`minor` (a gun mantlet, a machine-gun port, a breech: fittings, not the face) is listed as printed
but not folded. Every value is `historical`, its `ref` the repository, commit and class file.

Decision P225: an AFV with no per-plate source of its own takes a sister vehicle's faces (same
chassis, the reason in its target's `sister`) as `placeholder`, never as `historical`.

Decision P295: an AFV with no turret and no superstructure plates of its own (a turretless tank
hull, an open amphibian; its target's `turretless` says why) takes each hull face as the turret face
of the same side, with the hull face's provenance and ref.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal
from functools import cache
from pathlib import Path
from typing import Any

import yaml

SOURCES_FILE = Path(__file__).with_name("armour.yaml")
MAX_SLOPE_DEG = 62.0
FACES = {"hf": ("hull", "front"), "hs": ("hull", "right"), "hr": ("hull", "rear")}
FACES |= {"tf": ("turret", "front"), "ts": ("turret", "right"), "tr": ("turret", "rear")}


@cache
def load_sources(path: Path = SOURCES_FILE) -> dict[str, Any]:
    with open(path, encoding="utf-8") as fh:
        return yaml.safe_load(fh)


def _layers(plate: dict[str, Any]) -> list[dict[str, Any]]:
    """A plate is one sheet {cm, slope} or, printed as "a + b mm", sheets one behind the other."""
    return plate.get("layers") or [plate]


def effective_cm(plate: dict[str, Any]) -> float:
    return sum(p["cm"] / math.cos(math.radians(p["slope"])) for p in _layers(plate))


def usable(plate: dict[str, Any]) -> bool:
    """Not a fitting (`minor`: mantlet, port, breech) and no sheet steeper than MAX_SLOPE_DEG."""
    return not plate.get("minor") and all(abs(p["slope"]) <= MAX_SLOPE_DEG for p in _layers(plate))


def _printed(plate: dict[str, Any]) -> str:
    sheets = _layers(plate)
    mm = " + ".join(f"{p['cm'] * 10:g}" for p in sheets)
    slopes = "/".join(f"{p['slope']:g}" for p in sheets)
    return f"{mm} mm at {slopes}deg"


def _tenth(x: float) -> float:
    return float(Decimal(repr(x)).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))


def faces(vehicle_key: str, sister: str | None = None) -> dict[str, dict[str, Any]]:
    """{face: {value, provenance, ref, note}} for every face the source gives; `sister` (why the
    vehicle stands in for another of the same chassis) makes every face a P225 placeholder."""
    doc = load_sources()
    vehicle = doc["vehicles"][vehicle_key]
    src = vehicle.get("source") or doc["source"]
    out = {}
    for face, (part, side) in FACES.items():
        data = vehicle.get(part, {}).get(side)
        if not data:
            continue
        plates = [p for p in data["plates"] if usable(p)]
        best = max(plates, key=effective_cm)
        value = _tenth(effective_cm(best))
        where = f" {best['where']}" if "where" in best else ""
        note = (
            f"P2 (issue 16): thickest of {len(plates)} usable {part} {side} plate(s):{where} "
            f"{_printed(best)} -> {value} cm"
        )
        provenance = "historical"
        if sister:
            provenance = "placeholder"
            note = f"P225 placeholder (sister vehicle {vehicle_key}: {sister}); {note}"
        # a web page (P320) is its address; a repository file its repository, commit and path
        ref = src["url"] if "url" in src else f"{src['repo']}@{src['commit']}:{data['path']}"
        out[face] = {"value": value, "provenance": provenance, "ref": ref, "note": note}
    return out


HULL_FACE = {"tf": "hf", "ts": "hs", "tr": "hr"}


def turret_from_hull(armour: dict[str, Any], why: str) -> dict[str, dict[str, Any]]:
    """Decision P295: the turret faces of a vehicle that has no turret. The p31 location table puts
    a third of the hits (5-6) on the turret, and a hull-down vehicle takes every hit there (p31);
    on a body with no turret those hits strike the upper part of the same walls, so each missing
    turret face is the hull face of that side. `armour` maps faces to {value, provenance, ref,
    note} (or None); only turret faces that are missing and whose hull face is known are given,
    the hull face's note kept first (a placeholder still says so) and P295's reason after it."""
    out = {}
    for turret, hull in HULL_FACE.items():
        entry = armour.get(hull)
        if armour.get(turret) is not None or entry is None:
            continue
        side = FACES[hull][1]
        own = f"P295 (no turret: {why}): the hull {side} face stands for the turret face"
        note = f"{entry['note']}; {own}" if entry.get("note") else own
        out[turret] = entry | {"note": note}
    return out
