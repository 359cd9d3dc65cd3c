"""Every AFV has six armour faces (issue 16): the placeholders of decisions P321 and P322, worked by
hand from the data, and the property that no face is left null."""

from __future__ import annotations

from statistics import median

from kriegsspiel.data import Provenance
from kriegsspiel.rulesets.panzerfaust.sources.armour_fill import (
    FACES,
    Vehicle,
    fill,
    hundredth,
    tenth,
)

SPLIT = ("largest figure", "max figure", "range only")


def _read(cat, afv, hull_copies=False) -> bool:
    """Six faces read face by face: none a placeholder, none P2's retired split, none (unless
    `hull_copies`) a P295 copy of the hull."""
    for f in FACES:
        entry = afv.prov_entry(f"armour.{f}")
        note = entry.note or ""
        if getattr(afv.armour, f) is None or entry.provenance is Provenance.PLACEHOLDER:
            return False
        if any(m in note for m in SPLIT) or ("P295" in note and not hull_copies):
            return False
    return True


def test_every_afv_has_six_faces(cat):
    for afv in cat.all("afv"):
        for f in FACES:
            assert getattr(afv.armour, f) is not None, (afv.id, f)
            note = afv.prov_entry(f"armour.{f}").note or ""
            if note.startswith(("P321", "P322")):
                assert afv.prov(f"armour.{f}") is Provenance.PLACEHOLDER, (afv.id, f)


def test_p321_scales_the_vehicles_own_face_by_the_median_ratio(cat):
    """7TP jw (Wikipedia gives only its 17 mm front, hull and turret): the hull side is the hull
    front times the median hs/hf of the face-by-face tanks, the turret rear the turret front times
    the median tr/tf (its turret side is missing too); worked here from the data."""
    pool = [a for a in cat.all("afv") if a.chart == "tank" and _read(cat, a)]
    hs_hf = hundredth(median(a.armour.hs / a.armour.hf for a in pool if a.armour.hf))
    tr_tf = hundredth(median(a.armour.tr / a.armour.tf for a in pool if a.armour.tf))
    tp = cat.get("afv", "poland/7tp-jw")
    assert tp.armour.hf == tp.armour.tf == 1.7  # kept as read
    assert tp.armour.hs == tenth(1.7 * hs_hf) == 1.1
    assert tp.armour.tr == tenth(1.7 * tr_tf) == 1.6
    note = tp.prov_entry("armour.hs").note
    assert note.startswith("P321 placeholder") and f"median hs/hf {hs_hf:g}" in note
    assert f"(n={len([a for a in pool if a.armour.hf])})" in note
    # the Staghound I turret (no source): each face from the hull face of the same side
    stag = cat.get("afv", "britain/staghound-i")
    ap = [a for a in cat.all("afv") if a.chart == "apc_recon" and _read(cat, a)]
    tf_hf = hundredth(median(a.armour.tf / a.armour.hf for a in ap if a.armour.hf))
    assert stag.armour.tf == tenth(stag.armour.hf * tf_hf)
    # its hull faces are a P225 sister's (the AA version, p48): a placeholder scaled stays one
    assert stag.prov_entry("armour.tf").note.startswith(
        f"P321 placeholder (no source gives this face): tf = hf {stag.armour.hf:g}"
    )


def test_p321_a_modified_row_takes_its_base_models_face(cat):
    """The M4A1 (76mm) Modified: the seed lost its hull front (the field appliqué's thickness is
    unknown); it takes the M4A1 (76mm) row's 9.4 as a placeholder floor, not a ratio guess."""
    base = cat.get("afv", "usa_europe/m4a1-76mm")
    mod = cat.get("afv", "usa_europe/m4a1-76mm-modified")
    assert mod.armour.hf == base.armour.hf == 9.4
    assert mod.prov("armour.hf") is Provenance.PLACEHOLDER
    assert "base model usa_europe/m4a1-76mm" in mod.prov_entry("armour.hf").note


def test_p322_takes_the_median_of_the_nearest_in_pv(cat):
    """T-27A (p83, PV 40, size B, no face from any source): each face the median of the five
    face-by-face size B tanks with no open side nearest its PV, named in the note."""
    t27 = cat.get("afv", "ussr/t-27a")
    assert t27.pv == 40 and t27.size == "B"
    pool = [
        a
        for a in cat.all("afv")
        if a.chart == "tank"
        and a.size == "B"
        and tuple(a.open) == tuple(t27.open)
        and a.pv is not None
        and _read(cat, a, hull_copies=True)
    ]
    near = sorted(pool, key=lambda a: (abs(a.pv - 40), a.id))[:5]
    note = t27.prov_entry("armour.hf").note
    assert note.startswith("P322 placeholder") and all(a.id in note for a in near)
    for f in FACES:
        assert getattr(t27.armour, f) == tenth(median(getattr(a.armour, f) for a in near)), f
        assert t27.prov(f"armour.{f}") is Provenance.PLACEHOLDER
    assert (t27.armour.hf, t27.armour.hs) == (1.4, 0.9)


def test_fill_keeps_known_faces_and_falls_back_without_pv():
    """The rule itself on made-up vehicles: only missing faces are filled; a vehicle with no PV
    takes the median of its kind and size."""

    def v(vid, faces, pv=None, size="C", prov="historical"):
        return Vehicle(
            vid,
            "tank",
            size,
            pv,
            (),
            dict(zip(FACES, faces, strict=True)),
            dict.fromkeys(FACES, prov),
            dict.fromkeys(FACES, ""),
        )

    pool = [
        v("a", (4, 2, 2, 4, 2, 2), 50),
        v("b", (6, 3, 3, 6, 3, 3), 60),
        v("c", (8, 4, 4, 8, 4, 4), 70),
    ]
    half = v("h", (5.0, None, None, None, None, None), 55)
    out = fill(half, pool, pool)
    assert set(out) == {"hs", "hr", "tf", "ts", "tr"}
    assert out["hs"]["value"] == 2.5 and out["tf"]["value"] == 5.0  # ratios 0.5 and 1.0
    blank = v("x", (None,) * 6)
    out = fill(blank, pool, pool)
    assert [out[f]["value"] for f in FACES] == [6.0, 3.0, 3.0, 6.0, 3.0, 3.0]
    assert "no PV printed; n=3" in out["hf"]["note"]
    assert fill(pool[0], pool, pool) == {}
