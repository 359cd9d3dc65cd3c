"""How much of the Panzerfaust data is complete enough to play and to build armies (issue 16
item 7): the `coverage` object of `kriegsspiel data audit panzerfaust`.

Every entry is `{kind: [have, of]}`:

- `guns`: guns that fire an armour-piercing round (AT, tank and AA guns; any gun with an APCR,
  HVAP, APDS, HEAT or spigot row or a penetration figure) of all guns, per category;
- `guns_with_penetration`: of those, the guns whose every AP row has a figure in every band its
  to-hit list covers; `guns_with_sourced_penetration`: the guns whose every figure comes from a
  source (seed, seed-inferred, historical or overlay), not a placeholder;
  `special_ammo_with_sourced_penetration`: the APCR/HVAP/APDS/HEAT/spigot rows, per kind, whose
  every figure comes from a source;
- `gun_armed_afvs`: AFVs whose every gun mount links to a gun chart row, of AFVs with a gun mount,
  per chart; `afvs_that_can_hurt_armour`: of the gun-armed AFVs, those with a linked gun that has a
  penetration figure or fires HE of 65 mm or more (p31: HE ignores armour and rolls Penetration
  Effects; under 65 mm it has no effect); `afvs_that_cannot_hurt_armour_by_the_book`: those whose
  every linked gun has neither (a smoke-only "No HE" howitzer such as the British 94mm L15 CS gun,
  p50 gun notes), so the book itself gives them no anti-armour round;
- `armour_faces`: AFVs with all six armour faces, per chart;
- `priced`: the items an organisation names (a slot's `ref`), per kind, that have a base PV: the
  book's (a chart or equipment-list PV) or the P100 placeholder model's (`points.base_price`);
  `priced_by_the_book`: records of each kind whose own PV survived in the seed;
- `dated`: AFVs and guns named by a dated equipment-list row, and AP ammo rows with an in-service
  window; `dated_org_named`: the items an organisation names, per kind, counted once per nation
  whose organisations name them, that have a window in that nation's list
  (`windows.item_window`: its rows there, the P107 transport class row, the P232 team rules).
"""

from __future__ import annotations

from collections import defaultdict

from ...data import Catalogue, Provenance
from .models import AFV, AP_AMMO, Gun
from .points import base_price
from .rules.at_fire import HE_MIN_CALIBRE_MM
from .windows import item_window

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
    """An armour-piercing figure in any row, or HE of 65 mm or more (p31)."""
    if gun is None:
        return False
    if any(any(v is not None for v in pen) for _, pen in gun.ap_rows()):
        return True
    return fires_effective_he(gun)


def fires_effective_he(gun: Gun) -> bool:
    """HE that can hurt an AFV (p31): the gun fires HE (not 'No HE', p34) of 65 mm or more."""
    return gun.he is not False and (gun.calibre_mm or 0) >= HE_MIN_CALIBRE_MM


def cannot_hurt_armour_by_the_book(gun: Gun) -> bool:
    """No AP-family row and no effective HE, each known rather than lost: smoke only, or HE under
    65 mm with no AP round (p31, p34)."""
    if gun.ap_rows() or gun.calibre_mm is None:
        return False
    return gun.he is False or gun.calibre_mm < HE_MIN_CALIBRE_MM


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


def org_named_items(cat: Catalogue) -> list[str]:
    """Every `kind:id` an organisation slot names, other than organisations (p44 army lists)."""
    refs = {s.ref for o in cat.all("organisation") for s in o.slots}
    return sorted(r for r in refs if not r.startswith("organisation:"))


def org_named_by_nation(cat: Catalogue) -> list[tuple[str, str]]:
    """(nation, `kind:id`) for every item a nation's organisation slot names (not organisations)."""
    pairs = {
        (o.nation, s.ref)
        for o in cat.all("organisation")
        for s in o.slots
        if not s.ref.startswith("organisation:")
    }
    return sorted(pairs)


def coverage(cat: Catalogue) -> dict[str, dict[str, list[int]]]:
    out: dict[str, dict[str, list[int]]] = {
        k: _counter()
        for k in (
            "guns",
            "guns_with_penetration",
            "guns_with_sourced_penetration",
            "special_ammo_with_sourced_penetration",
            "gun_armed_afvs",
            "afvs_that_can_hurt_armour",
            "afvs_that_cannot_hurt_armour_by_the_book",
            "armour_faces",
            "priced",
            "priced_by_the_book",
            "dated",
            "dated_org_named",
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
        for i, ammo in enumerate(gun.ammo):
            if ammo.kind in AP_AMMO:
                _tally(out["dated"], "special_ammo", ammo.available is not None)
                _tally(
                    out["special_ammo_with_sourced_penetration"],
                    ammo.kind,
                    bool(ammo.penetration)
                    and all(
                        gun.prov(f"ammo.{i}.penetration.{j}") in SOURCED
                        for j, v in enumerate(ammo.penetration)
                        if v is not None
                    ),
                )
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
        _tally(
            out["afvs_that_cannot_hurt_armour_by_the_book"],
            afv.chart,
            bool(guns) and all(g and cannot_hurt_armour_by_the_book(g) for g in guns),
        )
    for kind in PRICED_KINDS:
        for rec in cat.all(kind):
            _tally(out["priced_by_the_book"], kind, rec.pv is not None)
    for ref in org_named_items(cat):
        _tally(out["priced"], ref.partition(":")[0], base_price(cat, ref).pv is not None)
    for nation, ref in org_named_by_nation(cat):
        _tally(
            out["dated_org_named"], ref.partition(":")[0], item_window(cat, nation, ref) is not None
        )
    return {name: dict(sorted(table.items())) for name, table in out.items()}
