"""How much of the Panzerfaust data is complete enough to play and to build armies (issue 16
item 7): the `coverage` object of `kriegsspiel data audit panzerfaust`.

Every entry is `{kind: [have, of]}`:

- `guns`: guns that fire an armour-piercing round (AT, tank and AA guns; any gun with an APCR,
  HVAP, APDS, HEAT or spigot row or a penetration figure) of all guns, per category;
- `guns_with_penetration`: of those, the guns whose every AP row has a figure in every band its
  to-hit list covers; `guns_with_sourced_penetration`: the guns whose every figure comes from a
  source (seed, seed-inferred, historical or overlay), not a placeholder;
- `gun_armed_afvs`: AFVs whose every gun mount links to a gun chart row, of AFVs with a gun mount,
  per chart; `afvs_that_can_hurt_armour`: of the gun-armed AFVs, those with a linked gun that has a
  penetration figure;
- `armour_faces`: AFVs with all six armour faces, per chart;
- `priced`: records with a PV, per kind; `dated`: AFVs and guns named by a dated equipment-list row,
  and AP ammo rows with an in-service window.
"""

from __future__ import annotations

from collections import defaultdict

from ...data import Catalogue, Provenance
from .models import AFV, AP_AMMO, Gun

SOURCED = {Provenance.SEED, Provenance.SEED_INFERRED, Provenance.HISTORICAL, Provenance.OVERLAY}
PRICED_KINDS = ("afv", "gun", "softskin", "motorised_gun", "battery", "infantry_team")


def _counter() -> dict[str, list[int]]:
    return defaultdict(lambda: [0, 0])


def _tally(table: dict[str, list[int]], key: str, have: bool) -> None:
    table[key][1] += 1
    table[key][0] += int(have)


def is_ap_capable(gun: Gun) -> bool:
    return gun.category != "howitzer_field" or bool(gun.ap_rows())


def has_penetration(gun: Gun) -> bool:
    """Every AP row filled in every band its to-hit list (or the gun's) covers."""
    for path, pen in gun.ap_rows():
        if path == "penetration":
            need = len(gun.to_hit)
        else:
            need = len(gun.ammo[int(path.split(".")[1])].to_hit or [])
        if len(pen) < need or any(v is None for v in pen[:need]) or not pen:
            return False
    return bool(gun.ap_rows())


def sourced_penetration(gun: Gun) -> bool:
    return has_penetration(gun) and all(
        gun.prov(f"{path}.{i}") in SOURCED
        for path, pen in gun.ap_rows()
        for i, v in enumerate(pen)
        if v is not None
    )


def hurts_armour(gun: Gun | None) -> bool:
    return gun is not None and any(any(v is not None for v in pen) for _, pen in gun.ap_rows())


def _gun_mounts(afv: AFV):
    """Mounts that are guns: a calibre, no MG class, not a mortar (mortars fire indirectly)."""
    return [
        m
        for m in afv.armament
        if m.mg is None and (m.calibre_mm or m.calibre_len) and "mortar" not in m.raw.lower()
    ]


def _dated_refs(cat: Catalogue) -> set[str]:
    return {
        e.item_ref
        for e in cat.all("equipment")
        if e.item_ref and e.dates is not None and (e.dates.start or e.dates.end)
    }


def coverage(cat: Catalogue) -> dict[str, dict[str, list[int]]]:
    out: dict[str, dict[str, list[int]]] = {
        k: _counter()
        for k in (
            "guns",
            "guns_with_penetration",
            "guns_with_sourced_penetration",
            "gun_armed_afvs",
            "afvs_that_can_hurt_armour",
            "armour_faces",
            "priced",
            "dated",
        )
    }
    dated = _dated_refs(cat)
    for gun in cat.all("gun"):
        ap = is_ap_capable(gun)
        _tally(out["guns"], gun.category, ap)
        if ap:
            _tally(out["guns_with_penetration"], gun.category, has_penetration(gun))
            _tally(out["guns_with_sourced_penetration"], gun.category, sourced_penetration(gun))
        _tally(out["dated"], "gun", f"gun:{gun.id}" in dated)
        for ammo in gun.ammo:
            if ammo.kind in AP_AMMO:
                _tally(out["dated"], "special_ammo", ammo.available is not None)
    for afv in cat.all("afv"):
        armour = afv.armour
        faces = (armour.hf, armour.hs, armour.hr, armour.tf, armour.ts, armour.tr)
        _tally(out["armour_faces"], afv.chart, all(f is not None for f in faces))
        _tally(out["dated"], "afv", f"afv:{afv.id}" in dated)
        mounts = _gun_mounts(afv)
        if not mounts:
            continue
        _tally(out["gun_armed_afvs"], afv.chart, all(m.gun_ref for m in mounts))
        guns = [cat.resolve(m.gun_ref) for m in mounts if m.gun_ref]
        _tally(out["afvs_that_can_hurt_armour"], afv.chart, any(hurts_armour(g) for g in guns))
    for kind in PRICED_KINDS:
        for rec in cat.all(kind):
            _tally(out["priced"], kind, rec.pv is not None)
    return {name: dict(sorted(table.items())) for name, table in out.items()}
