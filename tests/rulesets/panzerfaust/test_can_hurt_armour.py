"""Issue 16 item 2: every gun-armed AFV can hurt armour, or the book says it cannot.

22 AFVs carry a howitzer with no armour-piercing round. The book still lets them hurt an AFV: HE
ignores armour and rolls Penetration Effects, except under 65 mm (p31). The coverage counts them
through the same rule, and these tests drive the real AT-fire resolution to show that each such
AFV's HE can destroy a Tiger, while the smoke-only 94mm L15 CS howitzer (p50 gun notes) has no HE.
"""

from __future__ import annotations

import pytest

from kriegsspiel.chance import exact
from kriegsspiel.data.errors import RuleError
from kriegsspiel.rulesets.panzerfaust.coverage import (
    _gun_mounts,
    cannot_hurt_armour_by_the_book,
    coverage,
    hurts_armour,
)
from kriegsspiel.rulesets.panzerfaust.rules import at_fire
from kriegsspiel.rulesets.panzerfaust.rules.weapons import firer_weapon, target_of

TIGER = "germany/pz-vi-tiger"
SMOKE_ONLY = {"britain/a9-cs", "britain/a10-cs", "britain/a13-ii-cs-cruiser"}


def _linked_guns(cat, afv):
    return [cat.resolve(m.gun_ref) for m in _gun_mounts(afv) if m.gun_ref]


def _he_only(cat):
    """Gun-armed AFVs whose guns have no AP-family figure: they hurt armour by HE alone."""
    out = []
    for afv in cat.all("afv"):
        guns = _linked_guns(cat, afv)
        if guns and not any(any(v is not None for _, p in g.ap_rows() for v in p) for g in guns):
            out.append(afv)
    return out


def test_every_gun_armed_afv_can_or_cannot_by_the_book(cat):
    cov = coverage(cat)
    for chart, (armed, _) in cov["gun_armed_afvs"].items():
        can = cov["afvs_that_can_hurt_armour"][chart][0]
        cannot = cov["afvs_that_cannot_hurt_armour_by_the_book"][chart][0]
        assert can + cannot == armed, chart
    cannot = {
        a.id
        for a in cat.all("afv")
        if (g := _linked_guns(cat, a)) and all(cannot_hurt_armour_by_the_book(x) for x in g)
    }
    assert cannot == SMOKE_ONLY


def test_the_he_only_afvs_are_the_22_howitzer_mounts(cat):
    he_only = _he_only(cat)
    assert len(he_only) == 22
    assert {a.id for a in he_only} >= SMOKE_ONLY | {"ussr/kv-2", "britain/sexton"}


@pytest.mark.parametrize("afv", ["ussr/kv-2", "britain/sexton", "ussr/bt-7a", "finland/bt-42"])
def test_he_of_a_howitzer_afv_can_destroy_a_tiger_p31(R, afv):
    weapon, _ = firer_weapon(R.cat, afv, "HE")
    assert weapon.calibre_mm >= 65
    shot = at_fire.Shot(weapon, target_of(R.cat, TIGER), 20.0, ammo="HE")
    d = exact(at_fire.at_fire, R, shot)
    assert d.p("destroyed") > 0
    assert d.p("no_penetration") == 0  # HE: armour is ignored


@pytest.mark.parametrize("afv", sorted(SMOKE_ONLY))
def test_smoke_only_cs_howitzer_has_no_he(R, afv):
    gun = _linked_guns(R.cat, R.cat.get("afv", afv))[0]
    assert gun.id == "britain/94mm-l15-3-7in" and gun.he is False
    assert not hurts_armour(gun)
    with pytest.raises(RuleError, match="has no HE"):
        firer_weapon(R.cat, afv, "HE")
