"""Gun penetration filled under P55: P49 with a named public table recalled (issue 6).

Every value whose note starts "P55" must be a `placeholder` with a `ref` naming the table, sit
in a list that never rises with range and is never longer than the gun's (or ammo row's) to-hit
list, so a user can find and override each one.
"""

from __future__ import annotations

from kriegsspiel.data import Provenance

PREFIX = "P55 (P49 recalled):"


def _lists(gun):
    """(path, penetration list, to-hit list) for the gun and each special-ammo row."""
    out = [("penetration", gun.penetration or [], gun.to_hit or [])]
    for i, ammo in enumerate(gun.ammo):
        out.append((f"ammo.{i}.penetration", ammo.penetration or [], ammo.to_hit or []))
    return out


def _recalled(cat):
    """(gun, path, list, to-hit, index) for every value whose note starts with P55."""
    out = []
    for gun in cat.all("gun"):
        for path, pen, to_hit in _lists(gun):
            for i, v in enumerate(pen):
                if v is None:
                    continue
                note = gun.prov_entry(f"{path}.{i}").note or ""
                if note.startswith("P55"):
                    out.append((gun, path, pen, to_hit, i))
    return out


def test_some_values_are_recalled(cat):
    guns = {g.id for g, *_ in _recalled(cat)}
    # issue 16 replaced every recall by P49 figures from read data files; the last, the M66 HEAT
    # row of the US pack howitzer, now comes from the War Thunder wiki's LVT(A)(4) page
    assert guns == set()
    pack = cat.get("gun", "usa_europe/75mm-l16-m1a1-pack")
    heat = next(i for i, a in enumerate(pack.ammo) if a.kind == "HEAT")
    assert pack.prov(f"ammo.{heat}.penetration.0") is Provenance.HISTORICAL


def test_every_recalled_value_is_a_placeholder_with_a_ref(cat):
    for gun, path, _pen, _th, i in _recalled(cat):
        entry = gun.prov_entry(f"{path}.{i}")
        assert entry.provenance is Provenance.PLACEHOLDER, (gun.id, path, i)
        assert entry.ref and "recalled" in entry.ref, (gun.id, path, i)
        assert entry.note.startswith(PREFIX), (gun.id, path, i)


def test_recalled_lists_never_rise_with_range_nor_outrun_to_hit(cat):
    for gun, path, pen, to_hit, _i in _recalled(cat):
        vals = [v for v in pen if v is not None]
        assert all(a >= b for a, b in zip(vals, vals[1:], strict=False)), (gun.id, path, pen)
        assert len(pen) <= len(to_hit), (gun.id, path)
