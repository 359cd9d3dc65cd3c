"""Belgian gun penetration (issue 6): P49 placeholders checked by hand."""

from __future__ import annotations

from kriegsspiel.data import Provenance


def test_penetration_hand_checked(cat):
    """P49 values worked by hand (band far edges 200, 400, 600, 800, 1000, 1300 m)."""
    # 47mm FRC Mod.31: 51 mm at 100 m, 47 mm at 300 m (Wikipedia it).
    # 200 m: 51 - 4 * 100/200 = 49; 400 m and beyond flat 47.
    frc = cat.get("gun", "belgium/47mm-l32-sa-frc")
    assert frc.penetration == [4.9, 4.7, 4.7, 4.7, 4.7, 4.7]
    assert len(frc.penetration) == len(frc.to_hit)
    # Madsen 20mm: 42 mm at 100 m, 32 mm at 500 m (Wikipedia fr).
    # 200 m: 42 - 10 * 100/400 = 39.5 -> 40 (half up); 400 m: 42 - 10 * 300/400 = 34.5 -> 35;
    # 600/800 m flat beyond -> 32. Four bands only: the to-hit row has four.
    madsen = cat.get("gun", "belgium/20mm-l60-madsen-aa")
    assert madsen.penetration == [4.0, 3.5, 3.2, 3.2]
    # the 105mm howitzer has no AP round: it stays empty, with the reason in its notes
    how = cat.get("gun", "belgium/105mm-l22-gp")
    assert how.penetration == [] and "(P49)" in how.notes
    for gun in (frc, madsen):
        entry = gun.prov_entry("penetration.0")
        assert entry.provenance is Provenance.PLACEHOLDER and entry.note.startswith("P49")
    mine = [g for g in cat.all("gun") if g.nation == "belgium"]
    assert len([g for g in mine if g.penetration]) == 2
    assert all("(P49)" in g.notes for g in mine if not g.penetration)
