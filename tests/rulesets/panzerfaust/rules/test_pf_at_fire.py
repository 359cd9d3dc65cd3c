"""Anti-tank direct fire (pp. 28-31): hand-computed exact odds and the worked examples of the
rules (digest §5 nos. 17, 18, 20-24), cited by page."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest
from pfdice import p3d6

from kriegsspiel.chance import exact, sample
from kriegsspiel.chance.drivers import DiceSource, drive
from kriegsspiel.data.errors import RuleError
from kriegsspiel.rulesets.panzerfaust.rules import at_fire
from kriegsspiel.rulesets.panzerfaust.rules.effects import escalate
from kriegsspiel.rulesets.panzerfaust.rules.weapons import (
    firer_weapon,
    infantry_weapon,
    target_of,
)

PAK40 = "germany/75mm-l46-pak-40"  # p64: to-hit 12,13,12,12,...; pen 8.6 cm in the 80 cm band
M4 = "usa_europe/m4"  # HF 9.1 HS 3.8 TF 7.6 TS 5.1, size C
SIXTH = Fraction(1, 6)


def shot(R, firer=PAK40, target=M4, rng=65.0, ammo="AP", **kw) -> at_fire.Shot:
    weapon, _ = firer_weapon(R.cat, firer, ammo)
    return at_fire.Shot(weapon, target_of(R.cat, target), rng, ammo=ammo, **kw)


def effects(shift: int) -> dict[str, Fraction]:
    """The p31 table for 3D6 + shift: 14+ destroyed, 11-13 damaged, 9-10 / 7-8 stunned."""
    return {
        "destroyed": p3d6(14 - shift, 99),
        "damaged": p3d6(11 - shift, 13 - shift),
        "stunned_2": p3d6(9 - shift, 10 - shift),
        "stunned_1": p3d6(7 - shift, 8 - shift),
        "no_effect": p3d6(-99, 6 - shift),
    }


def test_pak40_at_m4_front_65cm(R):
    """65 cm rounds up to the 80 cm band (p29): need 12, pen 8.6. Front: tracks (thinnest
    hull 3.8) immobilise; lower/upper hull 9.1 stop it; turret 7.6 penetrates by 1 (no bonus)."""
    d = exact(at_fire.at_fire, R, shot(R))
    hit = p3d6(3, 12)
    e = effects(0)
    assert hit == Fraction(20, 27)
    assert d.p("miss") == 1 - hit
    assert d.p("no_penetration") == hit * Fraction(3, 6)
    assert d.p("immobilised") == hit * SIXTH
    assert d.p("destroyed") == hit * 2 * SIXTH * e["destroyed"] == Fraction(175, 4374)
    assert d.p("gun_damaged") == hit * 2 * SIXTH * e["damaged"]
    assert d.p("stunned_2") == hit * 2 * SIXTH * e["stunned_2"]
    assert d.p("no_effect") == hit * 2 * SIXTH * e["no_effect"]
    assert d.total() == 1


def test_pak40_at_m4_side_every_hit_penetrates_with_plus_3(R):
    """Side: HS 3.8 and TS 5.1 against 8.6 -> margins 4.8 and 3.5, both +3 (p31, Q&A 6)."""
    d = exact(at_fire.at_fire, R, shot(R, facing="side"))
    hit, e = p3d6(3, 12), effects(3)
    assert e["destroyed"] == Fraction(1, 2)
    assert d.p("no_penetration") == 0
    assert d.p("destroyed") == hit * 5 * SIXTH * e["destroyed"]
    assert d.p("immobilised") == hit * (SIXTH + 3 * SIXTH * e["damaged"])
    assert d.p("gun_damaged") == hit * 2 * SIXTH * e["damaged"]


def test_hull_down_hits_only_the_turret(R):
    """Hull-down: -4 to hit (p30) and every hit on the turret (p31)."""
    d = exact(at_fire.at_fire, R, shot(R, cover="hull_down"))
    hit = p3d6(3, 8)
    assert d.p("miss") == 1 - hit
    assert d.p("immobilised") == 0
    assert d.p("destroyed") == hit * effects(0)["destroyed"]


def test_softskin_hit_is_destroyed(R):
    """A softskin hit is destroyed with anything it tows (p30): P = P(hit)."""
    t = next(r.id for r in R.cat.all("softskin") if r.size == "B")
    d = exact(at_fire.at_fire, R, shot(R, target=t, rng=100))
    need = 11 - 1  # 100 cm band of the PaK 40 is 11; size B -1 (p30)
    assert d.p("destroyed") == p3d6(3, need)
    assert set(d.probs) == {"miss", "destroyed"}


def test_range_bands_round_up_p29(R):
    """Example p29: 32 cm is read in the 40 cm band, 95 cm in the 100 cm band."""
    assert R.band("gun-range-bands", 32, 10, "gun")[1] == 40
    assert R.band("gun-range-bands", 95, 10, "gun")[1] == 100
    with pytest.raises(RuleError, match="beyond its longest band"):
        R.band("gun-range-bands", 251, 10, "gun")


def test_one_man_turret_doubles_deductions_p28(R):
    """Example p28: a one-man-turret tank firing at a target that just came into sight: -2."""
    s = shot(R, firer="france/r35", just_sighted=True, one_man_turret=True)
    mods = at_fire.to_hit_modifiers(R, s)
    assert sum(m.value for m in mods) == -2
    from kriegsspiel.rulesets.panzerfaust.actions import ACTIONS

    q = ACTIONS["at-fire"].build(
        R.cat,
        R.opts,
        **{p.name: p.default for p in ACTIONS["at-fire"].params}
        | {"firer": "france/r35", "target": M4, "range": 15.0, "just_sighted": True},
    )
    assert q.args[1].one_man_turret  # read from the chart, not asked for


def test_flakvierling_plus_three_p30(R):
    """Example p30: the 20 mm Flakvierling adds +3 (three extra barrels)."""
    s = shot(R, firer="germany/20mm-l55-flakvierling-38", rng=20)
    assert s.weapon.barrels == 4
    mods = {m.name: m.value for m in at_fire.to_hit_modifiers(R, s)}
    assert mods["3 extra barrel(s)"] == 3


def test_autocannon_extra_hits_p31(R):
    """Example p31: a 20 mm AA gun needing 11 and rolling 9 scores 3 hits (cap 3)."""
    s = shot(R, firer="germany/20mm-l55-flak-30-38", rng=60)  # band 60 cm: 11
    assert s.weapon.need(2) == 11
    # 3D6 = 9, then three location dice (all tracks, 1.4 cm cannot pierce 3.8)
    out = sample(at_fire.at_fire, R, s, dice_script=[3, 3, 3, 1, 1, 1])
    assert any("3 hit(s)" in line for line in out.lines())
    assert len([r for r in out.rolls if r.label.startswith("hit location")]) == 3
    assert out.result.name == "no_penetration"


def test_autocannon_cap_two_for_37mm(R):
    """37-40 mm auto-cannon score at most 2 hits (p31); no 37 mm chart row kept its
    penetrations, so the 20 mm gun's is re-badged as a 37 mm one."""
    s = shot(R, firer="germany/20mm-l55-flak-30-38", rng=20)
    s = replace(s, weapon=replace(s.weapon, calibre_mm=37.0))
    need = s.weapon.need(0)
    out = sample(at_fire.at_fire, R, s, dice_script=[1, 1, 1, 1, 1, 1])  # roll 3
    assert need - 3 >= 2
    assert any("2 hit(s)" in line for line in out.lines())


def test_pen_beats_armour_by_three_p31_qa6(R):
    """Q&A 6: penetration 11 against armour 8 penetrates and adds +3 on the effects."""
    s = shot(R)
    mods = drive(at_fire._effect_mods(R, s, 11.0, 8.0), DiceSource(script=[]), None)
    assert {m.name: m.value for m in mods}["penetration exceeds armour by 3 (3-5)"] == 3
    mods6 = drive(at_fire._effect_mods(R, s, 14.0, 8.0), DiceSource(script=[]), None)
    assert max(m.value for m in mods6) == 6


def test_stunned_two_twice_is_damage_p31():
    """Example p31: Stunned 2 received twice in one turn counts as Hull/Gun damaged."""
    assert escalate("stunned_2", "stunned_2") == "damaged"
    assert escalate("stunned_1", "stunned_2") == "stunned_3"  # stuns add up
    assert escalate("damaged", "stunned_1") == "damaged"  # damage is permanent
    assert escalate("none", "stunned_1") == "stunned_1"


def test_prior_stun_escalates_in_the_odds(R):
    """A target already Stunned 2: a new Stunned 2 on the turret is a damaged gun (p31)."""
    d0 = exact(at_fire.at_fire, R, shot(R))
    d1 = exact(at_fire.at_fire, R, shot(R, prior="stunned_2"))
    assert d1.p("stunned_2") == 0
    assert d1.p("gun_damaged") == d0.p("gun_damaged") + d0.p("stunned_2")


def test_panzerfaust_on_covered_location_p28(R):
    """Example p28: a Panzerfaust hit on a sandbagged Sherman at location 4 has no effect."""
    w, _ = infantry_weapon(R.cat, "common/panzerfaust-30-60")
    s = at_fire.Shot(w, target_of(R.cat, M4), 5, covered=frozenset({"upper_hull"}))
    out = sample(at_fire.at_fire, R, s, dice_script=[1, 2, 3, 4])  # 3D6 6 hits, location 4
    assert out.result.name == "no_penetration"
    assert any("skirts/sandbags" in line for line in out.lines())


def test_infantry_at_weapon_minus_four_on_effects(R):
    """Infantry AT weapons take -4 on Penetration Effects (p19, p31): Pzfaust pen 18 against
    the M4's HF 9.1 (margin 8.9, +6) -> net +2."""
    w, _ = infantry_weapon(R.cat, "common/panzerfaust-30-60")
    s = at_fire.Shot(w, target_of(R.cat, M4), 5)
    d = exact(at_fire.at_fire, R, s)
    hit, e = p3d6(3, 13), effects(2)
    # tracks: immobilised; hull 2-4: damaged -> immobilised; turret TF 7.6 also +6
    assert d.p("destroyed") == hit * 5 * SIXTH * e["destroyed"]
    assert d.p("immobilised") == hit * (SIXTH + 3 * SIXTH * e["damaged"])


def test_he_under_65mm_has_no_effect_on_afv(R):
    gun = "germany/50mm-l60-pak-38"
    d = exact(at_fire.at_fire, R, shot(R, firer=gun, ammo="HE", rng=20))
    assert d.p("destroyed") == 0
    assert d.p("no_effect") + d.p("miss") == 1


def test_he_ignores_armour_with_light_and_open_bonuses(R):
    """HE: armour ignored; +2 light AFV (size A/B), +2 open top (p31)."""
    open_light = next(
        r for r in R.cat.all("afv") if r.size == "B" and "top" in r.open and r.armour.hf
    )
    s = shot(R, target=open_light.id, ammo="HE", rng=20)
    d = exact(at_fire.at_fire, R, s)
    hit = p3d6(3, 12 - 1 - 1)  # band 20 cm: 12, HE -1, size B -1
    assert d.p("no_penetration") == 0
    # tracks: a penetrating (HE) track hit is an effects roll too; damage -> immobilised
    assert d.p("destroyed") == hit * effects(4)["destroyed"]


def test_memo_key_groups_ranges_of_one_band(R):
    assert exact(at_fire.at_fire, R, shot(R, rng=61)) is exact(at_fire.at_fire, R, shot(R, rng=80))


def test_missing_armour_is_a_clear_error(R):
    """Every AFV now has six faces (issue 16, P321/P322); a user overlay may still null one, and a
    hit there is refused rather than guessed."""
    t = target_of(R.cat, "ussr/t-38")
    nulled = t.record.model_copy(update={"armour": t.record.armour.model_copy(update={"hs": None})})
    s = shot(R, facing="side")
    s = replace(s, target=replace(t, record=nulled))
    with pytest.raises(RuleError, match="HS armour was lost in the seed"):
        exact(at_fire.at_fire, R, s)


def test_a_hit_on_a_placeholder_face_says_so_p322(R):
    """The Light Tank Mk I-V has no face from any source: P322 gives it the median faces of the
    five face-by-face size C tanks nearest its PV (1.3 cm all round). A PaK 40 side shot (p31)
    pierces either location, and the odds name both placeholder faces it read."""
    rec = R.cat.get("afv", "britain/light-tank-mk-i-v")
    assert (rec.armour.hs, rec.armour.ts) == (1.3, 1.3)
    assert rec.prov_entry("armour.hs").note.startswith("P322 placeholder")
    d = exact(at_fire.at_fire, R, shot(R, target=rec.id, facing="side"))
    assert d.p("no_penetration") == 0
    assert {f"{rec.id}.armour.hs", f"{rec.id}.armour.ts"} <= set(d.placeholders)


def test_unknown_ammunition(R):
    with pytest.raises(RuleError, match="no APDS round"):
        firer_weapon(R.cat, PAK40, "APDS")
    s = shot(R)
    assert replace(s, ammo="HE").ammo == "HE"


def test_turretless_hull_down_hits_the_body_p295(R):
    """P295: the Stuart Kangaroo (p49, a Stuart with its turret removed) hull-down takes every hit
    on the turret location (p31), read from its hull faces: front 4.8, a P225 placeholder named in
    the odds, pierced by the PaK 40's 8.6 by 3.8 (+3); size B -1 and hull-down -4 to hit (p30);
    nothing immobilises it."""
    s = shot(R, target="britain/stuart-kangaroo-recce", cover="hull_down")
    assert at_fire.armour(s.target, "turret", "front") == (4.8, "armour.tf")
    d = exact(at_fire.at_fire, R, s)
    hit = p3d6(3, 12 - 4 - 1)
    assert d.p("miss") == 1 - hit
    assert d.p("no_penetration") == 0 and d.p("immobilised") == 0
    assert d.p("destroyed") == hit * effects(3)["destroyed"]
    assert "britain/stuart-kangaroo-recce.armour.tf" in d.placeholders
