"""Firers and targets of direct AT fire read from the army-list charts (pp. 27-29, 34, 20).

A `Weapon` is one gun or infantry AT weapon with its to-hit and penetration per band; a
`Target` an AFV, softskin, motorised gun or towed gun as the AT fire rules see it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ....data.catalogue import Catalogue
from ....data.errors import RuleError
from ....data.provenance import Record
from ..models import AFV, Gun, InfantryWeapon, MotorisedGun
from .lookup import find

AMMO = ("AP", "APCR", "HVAP", "APDS", "HEAT", "HE")


@dataclass(frozen=True)
class Weapon:
    name: str
    record: Record
    to_hit: tuple[int | None, ...]
    penetration: tuple[float | None, ...]
    calibre_mm: float | None
    bands: str  # range_bands id
    infantry: bool  # an infantry AT weapon (p20): -4 on effects, FO 1
    heat: bool
    atr: bool
    autocannon: bool  # AA/auto-cannon: extra hits (p31)
    barrels: int
    turreted: bool
    towed: bool
    paths: tuple[str, str]  # provenance paths of to_hit and penetration
    bzr_cm: int | None = None  # a fixed beaten-zone radius (infantry HE weapons, p19)
    kind: str = ""  # the infantry weapon's kind (magnetic_mine, ...)

    def need(self, band: int) -> int:
        v = self.to_hit[band] if band < len(self.to_hit) else None
        if v is None:
            raise RuleError(f"{self.name}: the to-hit number of band {band + 1} was lost")
        return v

    def pen(self, band: int) -> float:
        v = self.penetration[band] if band < len(self.penetration) else None
        if v is None:
            raise RuleError(f"{self.name}: the penetration of band {band + 1} was lost")
        return v


@dataclass(frozen=True)
class Target:
    name: str
    record: Record
    kind: str  # afv | softskin | gun | motorised_gun
    size: str
    open: tuple[str, ...] = ()


def _gun_weapon(gun: Gun, ammo: str, barrels: int, turreted: bool, towed: bool) -> Weapon:
    to_hit, pen, paths = tuple(gun.to_hit), tuple(gun.penetration), ("to_hit", "penetration")
    heat = False
    if ammo not in ("AP", "HE"):
        for i, a in enumerate(gun.ammo):
            if a.kind == ammo:
                to_hit = tuple(a.to_hit) if a.to_hit else to_hit
                pen = tuple(a.penetration or ())
                paths = (f"ammo.{i}.to_hit" if a.to_hit else "to_hit", f"ammo.{i}.penetration")
                heat = ammo == "HEAT"
                break
        else:
            have = ", ".join(sorted({a.kind for a in gun.ammo})) or "none"
            raise RuleError(f"{gun.name} has no {ammo} round (special ammunition: {have})")
    if ammo == "HE" and gun.he is False:
        raise RuleError(f"{gun.name} has no HE (chart 'No HE', p34)")
    return Weapon(
        gun.name,
        gun,
        to_hit,
        pen,
        gun.calibre_mm,
        "gun-range-bands",
        False,
        heat,
        False,
        gun.category == "aa_auto",
        barrels,
        turreted or gun.category == "aa_auto",
        towed,
        paths,
    )


BARRELS = (
    ("vierling", 4),
    ("quad", 4),
    ("drilling", 3),
    ("triple", 3),
    ("zwilling", 2),
    ("twin", 2),
)


def barrels_of(name: str) -> int:
    """Barrels of a multi-barrel mount by its name (p30 example: Flakvierling = 4)."""
    folded = name.casefold()
    return next((n for word, n in BARRELS if word in folded), 1)


def firer_weapon(cat: Catalogue, name: str, ammo: str = "AP") -> tuple[Weapon, Record]:
    """The weapon a named gun, AFV or motorised gun fires (an AFV's first gun mount)."""
    if ammo not in AMMO:
        raise RuleError(f"ammunition {ammo!r}: expected one of {', '.join(AMMO)}")
    _, rec = find(cat, ("afv", "gun", "motorised_gun"), name)
    if isinstance(rec, Gun):
        return _gun_weapon(rec, ammo, barrels_of(rec.name), False, rec.size != "AFV"), rec
    assert isinstance(rec, AFV | MotorisedGun)
    for m in rec.armament:
        if m.gun_ref:
            try:
                gun = cat.resolve(m.gun_ref)
            except LookupError:
                continue
            assert isinstance(gun, Gun)
            turreted = isinstance(rec, AFV) and rec.chart == "tank"
            return _gun_weapon(gun, ammo, max(m.count, 1), turreted, False), rec
    raise RuleError(f"{rec.name} has no gun on its chart that can fire at AFVs")


def infantry_weapon(cat: Catalogue, name: str) -> tuple[Weapon, Record]:
    _, rec = find(cat, ("infantry_weapon",), name)
    assert isinstance(rec, InfantryWeapon)
    if not rec.to_hit:
        raise RuleError(f"{rec.name} has no to-hit numbers (not an AT weapon, p20)")
    heat = rec.weapon_kind in ("heat_launcher", "rifle_grenade", "grenade", "magnetic_mine")
    w = Weapon(
        rec.name,
        rec,
        tuple(rec.to_hit),
        tuple(rec.penetration),
        None,
        "infantry-at-range-bands",
        True,
        heat,
        rec.weapon_kind == "at_rifle",
        False,
        1,
        False,
        False,
        ("to_hit", "penetration"),
        kind=rec.weapon_kind or "",
    )
    return w, rec


# p19: these fire as 75 mm HE in direct area fire (only at infantry in buildings or
# fortifications); the AP rifle grenade is direct HE with a 3 cm radius, or "57 mm" (P74)
HE_75 = ("panzerschreck", "panzerfaust", "bazooka", "piat", "magnetic", "at-he")


def area_weapon(cat: Catalogue, name: str, ap_grenade: str = "3cm") -> tuple[Weapon, Record]:
    """The weapon of direct area fire: a gun or AFV's HE, or an infantry weapon that the p19
    notes let fire HE (decision P74 for the AP rifle grenade's radius)."""
    kind, rec = find(cat, ("afv", "gun", "motorised_gun", "infantry_weapon"), name)
    if kind != "infantry_weapon":
        return firer_weapon(cat, rec.id, "HE")
    w, rec = infantry_weapon(cat, rec.id)
    slug = rec.id.split("/", 1)[1]
    if slug.startswith("ap-rifle-grenade"):
        if ap_grenade == "57mm":
            return replace(w, calibre_mm=57.0), rec
        return replace(w, calibre_mm=None, bzr_cm=3), rec
    if any(k in slug for k in HE_75):
        return replace(w, calibre_mm=75.0), rec
    raise RuleError(f"{rec.name} cannot fire HE (p19: only the AT weapons firing as 75 mm HE)")


# Errata 2 (p111) restored the chart to-hits; the p35 example chart prints another row for the
# PaK 38 (decision P80, option to_hit_source=example)
EXAMPLE_TO_HIT = {"germany/50mm-l60-pak-38": (11, 11, 10, 10, 9, 8, 8, 7, 6)}


def chart_or_example(w: Weapon, source: str) -> Weapon:
    if source == "example" and w.record.id in EXAMPLE_TO_HIT:
        return replace(w, to_hit=EXAMPLE_TO_HIT[w.record.id])
    return w


def target_of(cat: Catalogue, name: str) -> Target:
    kind, rec = find(cat, ("afv", "softskin", "motorised_gun", "gun"), name)
    size = getattr(rec, "size", None)
    if size in (None, "AFV"):
        raise RuleError(f"{rec.name}: no target size on its chart (cannot be fired at as is)")
    opened = tuple(rec.open) if isinstance(rec, AFV) else ()
    return Target(rec.name, rec, kind, size, opened)


def armour(target: Target, location: str, facing: str) -> tuple[float, str]:
    """Armour (cm, slope folded in) of a location and facing; tracks take the thinnest hull
    plate (p31)."""
    rec = target.record
    assert isinstance(rec, AFV)
    a = rec.armour
    if location == "tracks":
        plates = {p: getattr(a, p) for p in ("hf", "hs", "hr")}
        known = {p: v for p, v in plates.items() if v is not None}
        if not known:
            raise RuleError(f"{rec.name}: its hull armour was lost in the seed")
        plate = min(known, key=lambda p: known[p])
        return known[plate], f"armour.{plate}"
    plate = ("t" if location == "turret" else "h") + facing[0]
    value = getattr(a, plate)
    if value is None:
        raise RuleError(f"{rec.name}: its {plate.upper()} armour was lost in the seed")
    return value, f"armour.{plate}"
