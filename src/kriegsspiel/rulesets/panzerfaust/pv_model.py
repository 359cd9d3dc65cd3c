"""Placeholder point values for items whose printed PV was lost (issue 16 item 4).

The AFV, gun, battery, softskin and motorised-gun charts lost most of their PV column. A linear
model per kind, fitted by `scripts/fit_pv.py` on the PVs that survived in the same book, prices
the rest. The features are read from the loaded catalogue each time (so the price follows data
changes, e.g. penetration filled later); the coefficients and the fit's errors live in
`pv_model.yaml` next to this module. Every such price is `placeholder` (decision P56).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from ...data.catalogue import Catalogue
from .models import AFV, ArtilleryBattery, Gun, MotorisedGun, Softskin

MODEL_FILE = Path(__file__).with_name("pv_model.yaml")
MODELLED_KINDS = ("afv", "gun", "battery", "softskin", "motorised_gun")
SIZE = {"A": 1.0, "B": 2.0, "C": 3.0, "D": 4.0, "AFV": 3.0}

Features = dict[str, float | None]


def _max(*values: float | None) -> float | None:
    known = [v for v in values if v is not None]
    return max(known) if known else None


def _pen(cat: Catalogue, ref: str | None) -> float | None:
    if not ref:
        return None
    try:
        gun = cat.resolve(ref)
    except LookupError:
        return None
    return _max(*getattr(gun, "penetration", []) or [])


def _main_gun(armament: list) -> Any:
    return next((m for m in armament if m.mg is None and (m.gun_ref or m.calibre_mm)), None)


def _year(cat: Catalogue, kind: str, ident: str) -> float | None:
    for entry in equipment_index(cat).get(f"{kind}:{ident}", []):
        if entry.dates and entry.dates.start:
            return float(entry.dates.start.year)
    return None


def equipment_index(cat: Catalogue) -> dict[str, list]:
    """Equipment-list rows (PV, dates, FR) by the `kind:id` of the chart record they name."""
    index = getattr(cat, "_pv_equipment_index", None)
    if index is None:
        index = {}
        for e in cat.all("equipment"):
            if e.item_ref:
                index.setdefault(e.item_ref, []).append(e)
        cat._pv_equipment_index = index  # type: ignore[attr-defined]
    return index


def _gun_terms(cat: Catalogue, mount: Any) -> Features:
    if mount is None:
        return {"calibre": 0.0, "cal_len": 0.0, "pen": 0.0}
    cal = mount.calibre_mm
    length = mount.calibre_len
    if mount.gun_ref:
        try:
            gun = cat.resolve(mount.gun_ref)
            cal = cal or gun.calibre_mm
            length = length or gun.calibre_len
        except LookupError:
            pass
    return {
        "calibre": cal,
        "cal_len": cal * length / 1000 if cal and length else None,
        "pen": _pen(cat, mount.gun_ref),
    }


def afv_features(rec: AFV, cat: Catalogue) -> Features:
    a = rec.armour
    return {
        "armour_front": _max(a.hf, a.tf),
        "armour_side": _max(a.hs, a.ts),
        **_gun_terms(cat, _main_gun(rec.armament)),
        "mgs": float(sum(m.count for m in rec.armament if m.mg)),
        "speed": rec.speed_road,
        "size": SIZE.get(rec.size or ""),
        "year": _year(cat, "afv", rec.id),
        "spg": float(rec.chart == "spg"),
        "apc": float(rec.chart == "apc_recon"),
        "open": float(bool(rec.open)),
        "capacity": float(rec.capacity or 0),
    }


def gun_features(rec: Gun, cat: Catalogue) -> Features:
    cal, length = rec.calibre_mm, rec.calibre_len
    return {
        "calibre": cal,
        "cal_len": cal * length / 1000 if cal and length else None,
        "pen": _max(*rec.penetration),
        "size": SIZE.get(rec.size or ""),
        "howitzer": float(rec.category == "howitzer_field"),
        "aa": float(rec.category == "aa_auto"),
        "year": _year(cat, "gun", rec.id),
    }


def battery_features(rec: ArtilleryBattery, cat: Catalogue) -> Features:
    m = re.search(r"(\d+)\s*mm", rec.weapon)
    return {
        "calibre": float(m.group(1)) if m else None,
        "mortar": float(rec.battery_kind == "mortar"),
        "rocket": float(rec.battery_kind == "rocket"),
        "per_pair": float(rec.pv_basis == "per_pair"),
    }


def softskin_features(rec: Softskin, cat: Catalogue) -> Features:
    return {
        "capacity": float(rec.capacity or 0),
        "speed": rec.speed_road,
        "size": SIZE.get(rec.size or ""),
        "tracked": float((rec.drive or "") in ("trk", "ht")),
        "armed": float(bool(rec.armament)),
        "tow": SIZE.get(rec.tow or "", 0.0),
    }


def motorised_gun_features(rec: MotorisedGun, cat: Catalogue) -> Features:
    return {
        **_gun_terms(cat, _main_gun(rec.armament)),
        "size": SIZE.get(rec.size or ""),
        "speed": rec.speed_road,
    }


FEATURES = {
    "afv": afv_features,
    "gun": gun_features,
    "battery": battery_features,
    "softskin": softskin_features,
    "motorised_gun": motorised_gun_features,
}


@dataclass(frozen=True)
class KindModel:
    """`pv = intercept + sum(coef * (x - mean) / scale)`; a missing feature takes its mean."""

    kind: str
    intercept: float
    coef: dict[str, float]
    mean: dict[str, float]
    scale: dict[str, float]
    minimum: int

    def predict(self, feats: Features) -> int:
        total = self.intercept
        for name, w in self.coef.items():
            x = feats.get(name)
            z = 0.0 if x is None else (x - self.mean[name]) / self.scale[name]
            total += w * z
        return max(self.minimum, round(total))


@cache
def load_model(path: Path = MODEL_FILE) -> dict[str, Any]:
    """The fitted model file (coefficients, provenance of the fit, errors)."""
    return yaml.safe_load(path.read_text())


def kind_model(kind: str) -> KindModel | None:
    raw = load_model().get("kinds", {}).get(kind)
    if raw is None:
        return None
    return KindModel(
        kind, raw["intercept"], raw["coef"], raw["mean"], raw["scale"], raw.get("minimum", 1)
    )


AT_WEAPON_TEAM_CREW = 3  # p15, p18: an AT weapon team costs 3 plus its weapon


def _median_printed(cat: Catalogue, kind: str, keep) -> int | None:
    """The median printed PV of the records of `kind` that `keep` selects (half up)."""
    pvs = sorted(r.pv for r in cat.all(kind) if r.pv is not None and keep(r))
    if not pvs:
        return None
    mid = len(pvs) // 2
    return pvs[mid] if len(pvs) % 2 else -(-(pvs[mid - 1] + pvs[mid]) // 2)


def median_printed_pv(cat: Catalogue, kind: str) -> int | None:
    """The median printed PV of every record of `kind` (game/worth.py's placeholder, P256)."""
    return _median_printed(cat, kind, lambda r: True)


def _at_rifle_pv(cat: Catalogue) -> int | None:
    return _median_printed(cat, "infantry_weapon", lambda r: r.weapon_kind == "at_rifle")


def rule_pv(kind: str, rec: Any, cat: Catalogue) -> int | None:
    """Decision P111: the few infantry items organisations name whose PV was lost and that no
    fitted model covers. An AT rifle takes the median printed AT-rifle PV (p20 kept one, the
    wz35's); an AT rifle team 3 plus that (p15, p18); an HQ team the book's platoon HQ team."""
    if kind == "infantry_weapon" and rec.weapon_kind == "at_rifle":
        return _at_rifle_pv(cat)
    if kind != "infantry_team":
        return None
    name = rec.id.rpartition("/")[2]
    if name == "at-rifle-team":
        rifle = _at_rifle_pv(cat)
        return None if rifle is None else AT_WEAPON_TEAM_CREW + rifle
    if name == "hq-team":
        return cat.get("infantry_team", "common/platoon-hq-team").pv
    return None


HORSE_EQUIVALENT_TOW = "B"  # P333: the truck a horse team stands for tows what horses are (p8)


def horse_team_pv(cat: Catalogue) -> int | None:
    """Decision P333: a horse team costs half the PV of the equivalent vehicle (p13), taken as
    the median printed PV of the 4x2 softskins whose tow class is B, halved (half up)."""
    truck = _median_printed(
        cat,
        "softskin",
        lambda r: r.drive == "4x2" and r.tow == HORSE_EQUIVALENT_TOW and not r.horse_team,
    )
    return None if truck is None else -(-truck // 2)


def placeholder_pv(kind: str, rec: Any, cat: Catalogue) -> int | None:
    """The model's PV for a record (a horse team: P333), else P111's rule for the few
    unmodelled infantry items; None when neither covers it."""
    if kind == "softskin" and getattr(rec, "horse_team", False):
        return horse_team_pv(cat)
    model = kind_model(kind)
    if model is None:
        return rule_pv(kind, rec, cat)
    return model.predict(FEATURES[kind](rec, cat))
