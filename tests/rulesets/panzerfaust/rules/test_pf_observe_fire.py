"""Observation, flashes, camouflage (pp. 8-11), direct area fire and smoke (pp. 31-33) and
indirect fire (pp. 35-38): hand-computed odds and the examples nos. 28-30, 40."""

from __future__ import annotations

from fractions import Fraction

import pytest
from pfdice import p2d6, p3d6

from kriegsspiel.chance import exact, sample
from kriegsspiel.data.errors import RuleError
from kriegsspiel.rulesets.panzerfaust.rules import area_fire, indirect, observe
from kriegsspiel.rulesets.panzerfaust.rules.weapons import firer_weapon

# ----------------------------------------------------------------------------- observation


def test_observed_iff_within_the_multiplied_range(R):
    """p8: base range by terrain and size, times every multiplier; observed iff distance <=."""
    base, labels = observe.base_range(R, "open_desert", "C")
    assert labels == ("rules-placeholder:observation-table.open_desert.size_c",)
    seen = observe.Sight(distance=base, terrain="open_desert", size="C")
    assert exact(observe.observe, R, seen).p("observed") == 1
    far = observe.Sight(distance=base + 1, size="C")
    assert exact(observe.observe, R, far).p("observed") == 0
    # moved target x2, closed-down observer x1/2, camouflaged x1/2: x1/2 overall
    mixed = observe.Sight(
        distance=base / 2,
        size="C",
        target_moved_or_fired=True,
        observer_closed_down=True,
        camouflaged_or_prone=True,
    )
    assert exact(observe.observe, R, mixed).p("observed") == 1
    assert (
        exact(observe.observe, R, observe.Sight(**{**mixed.__dict__, "distance": base / 2 + 1})).p(
            "observed"
        )
        == 0
    )


def test_night_darkness_roll_p11(R):
    """Night: 1D6 -1 summer / +1 winter; 0-2 -> x1/10, else x1/20. Between base/20 and
    base/10: seen only on a light night, 1/2 in summer (1-3), 1/6 in winter (1)."""
    base, _ = observe.base_range(R, "open_desert", "D")
    s = observe.Sight(distance=base / 15, size="D", night=True)
    assert exact(observe.observe, R, s).p("observed") == Fraction(1, 2)
    w = observe.Sight(distance=base / 15, size="D", night=True, season="winter")
    assert exact(observe.observe, R, w).p("observed") == Fraction(1, 6)
    desert = observe.Sight(distance=base / 15, size="D", night=True, desert=True)
    assert exact(observe.observe, R, desert).p("observed") == 1


def test_woods_depth_limits_p8(R):
    inside = observe.Sight(distance=3, observer_terrain="thick_woods", observer_depth=6)
    assert exact(observe.observe, R, inside).p("observed") == 0
    deep = observe.Sight(distance=3, terrain="thick_woods", target_depth=6)
    assert exact(observe.observe, R, deep).p("observed") == 0
    no_arc = observe.Sight(distance=1, in_arc=False)
    assert exact(observe.observe, R, no_arc).p("observed") == 0


def test_weather_halves_visibility(R):
    base, _ = observe.base_range(R, "open_desert", "C")
    s = observe.Sight(distance=base * 0.4, size="C", weather="fog")  # x1/4
    assert exact(observe.observe, R, s).p("observed") == 0
    with pytest.raises(RuleError, match="weather"):
        exact(observe.observe, R, observe.Sight(distance=1, weather="hail"))


def test_camouflage_p9():
    """Example p9: a size A position takes 3 team-moves and at least one turn."""
    assert observe.camouflage("A", "woods") == (3, 1)
    assert observe.camouflage("D", "woods") == (18, 6)
    assert observe.camouflage("B", "open", dug_in=True) == (6, 2)
    with pytest.raises(RuleError, match="cannot be camouflaged"):
        observe.camouflage("B", "open")


def test_mortar_flash_option_p9_p36(R):
    """Decision P70: a mortar's flash range is x1/3 (p9, default) or x1/4 (p36)."""
    ex, _ = R.lost("muzzle-flash-observation-ranges", "guns_to_82mm", "exact_cm", 60)
    f = observe.Flash(distance=float(ex) / 3.5, weapon="mortar", calibre_mm=81)
    assert exact(observe.muzzle_flash, R, f).p("exact") == 1
    quarter = R.with_options(mortar_flash="quarter")
    assert exact(observe.muzzle_flash, quarter, f).p("general") == 1
    piat = observe.Flash(distance=1, weapon="piat")
    assert exact(observe.muzzle_flash, R, piat).p("none") == 1


# ----------------------------------------------------------------------------- area fire

PAK40 = "germany/75mm-l46-pak-40"


def area(R, firer=PAK40, rng=65.0, **kw) -> area_fire.AreaShot:
    weapon, _ = firer_weapon(R.cat, firer, "HE")
    return area_fire.AreaShot(weapon, rng, **kw)


def test_area_fire_base_and_variations_p32(R):
    """PaK 40 at 65 cm (80 cm band): 12. Hard cover -4, veteran +1 -> 9; size D +2."""
    assert exact(area_fire.area_fire, R, area(R)).p("destroyed") == p3d6(3, 12)
    hard = area(R, cover="hard", troop_class="veteran")
    assert exact(area_fire.area_fire, R, hard).p("destroyed") == p3d6(3, 9)
    big = area(R, size="D", turns_on_poa=5)  # +2 size, +3 at most for the same POA
    assert exact(area_fire.area_fire, R, big).p("destroyed") == p3d6(3, 17)


def test_area_fire_partly_in_p32(R):
    """A target only partly in the zone is in on 1D6 4-6 (p32)."""
    d = exact(area_fire.area_fire, R, area(R, partly_in=True))
    assert d.p("outside") == Fraction(1, 2)
    assert d.p("destroyed") == p3d6(3, 12) / 2


def test_57mm_minus_two_p32(R):
    gun = next(g for g in R.cat.all("gun") if g.calibre_mm == 57 and g.to_hit and g.to_hit[0])
    a = area(R, firer=gun.id, rng=20)
    assert exact(area_fire.area_fire, R, a).p("destroyed") == p3d6(3, gun.to_hit[0] - 2)


def test_bzr_and_own_zone(R):
    """p32 radii: 75 mm 6 cm, 57 mm 5, doubled on a building; no POA inside its own BZR."""
    assert area_fire.bzr_cm(75) == 6 and area_fire.bzr_cm(57) == 5
    assert area_fire.bzr_cm(75, building=True) == 12 and area_fire.bzr_cm(170) == 12
    with pytest.raises(RuleError, match="inside its own beaten zone"):
        exact(area_fire.area_fire, R, area(R, rng=5))


def test_smoke_and_its_duration_p33(R):
    assert exact(area_fire.smoke, R, area(R)).p("placed") == p3d6(3, 12)
    assert area_fire.smoke_duration("none") == (3, 0)
    assert area_fire.smoke_duration("light") == (2, 5)
    assert area_fire.smoke_duration("moderate", wp=True)[0] == 0


# ----------------------------------------------------------------------------- indirect


def test_beaten_zone_rolls_p36(R):
    """3D6 <= 8: AFV -2, partial -1, +1/+2/+3 for 2/3/4+ pairs; entrenched by calibre."""
    inf = indirect.BZTarget()
    assert exact(indirect.bz_hit, R, inf).p("destroyed") == p3d6(3, 8)
    dug = indirect.BZTarget(pairs=3, protection="entrenched", calibre_mm=105)  # +2 -2
    assert exact(indirect.bz_hit, R, dug).p("destroyed") == p3d6(3, 8)
    light = indirect.BZTarget(protection="entrenched", calibre_mm=75, partial=True)  # -3 -1
    assert exact(indirect.bz_hit, R, light).p("destroyed") == p3d6(3, 4)
    many = indirect.BZTarget(pairs=6)
    assert exact(indirect.bz_hit, R, many).p("destroyed") == p3d6(3, 11)


def test_indirect_on_afvs_p37(R):
    afv = indirect.BZTarget(kind="afv")
    d = exact(indirect.bz_hit, R, afv)
    assert d.p("missed") == 1 - p3d6(3, 6)
    assert d.p("destroyed") == p3d6(3, 6) * p3d6(14, 18)  # HE calibre placeholder 0
    assert "rules-placeholder:penetration-effects-calibre.to_122mm.he" in d.placeholders
    mortar = indirect.BZTarget(kind="afv", mortar=True, calibre_mm=81)
    assert exact(indirect.bz_hit, R, mortar).p("destroyed") == 0
    open_afv = indirect.BZTarget(kind="open_afv", mortar=True, calibre_mm=81)
    assert exact(indirect.bz_hit, R, open_afv).p("destroyed") == p3d6(3, 6) / 3
    pillbox = indirect.BZTarget(protection="pillbox", calibre_mm=80)
    assert exact(indirect.bz_hit, R, pillbox).p("no_effect") == 1  # immune (p36)
    heavy = indirect.BZTarget(protection="pillbox", calibre_mm=150, pairs=2)  # -2 +1
    assert exact(indirect.bz_hit, R, heavy).p("destroyed") == p3d6(3, 7)


def test_beaten_zone_over_units_is_binomial(R):
    p = p3d6(3, 8)
    d = indirect.beaten_zone(R, (indirect.BZTarget(),) * 3)
    assert d == {0: (1 - p) ** 3, 1: 3 * p * (1 - p) ** 2, 2: 3 * p * p * (1 - p), 3: p**3}


def test_call_down_average_waits_p36(R):
    """p36: an FAO's fire arrives on average in 2 (US), 3 (veteran/regular), 4 (conscript)
    turns (the lost table's placeholder P85 is calibrated on exactly this)."""
    waits = [
        indirect.average_wait(R, indirect.CallDown(skill=s)) for s in ("us", "vet_reg", "conscript")
    ]
    assert [round(w) for w in waits] == [2, 3, 4]
    near = indirect.CallDown(near_previous=True)
    assert exact(indirect.call_down, R, near).p("arrives") == p3d6(3, 10)


def test_map_fire_and_rockets_p37_p38():
    """Examples: a veteran battery firing turns 1-3 fires on its next target from turn 6
    (p37); a 15 cm NbW41 with reload 6 fires every 7th move (p38)."""
    assert indirect.map_fire_next(3, "veteran") == 6
    assert indirect.map_fire_next(3, "us") == 5
    assert indirect.rocket_fires_every(6) == 7


def test_rockets_base_six_and_seven_p38(R):
    assert exact(indirect.bz_hit, R, indirect.BZTarget(rocket=True)).p("destroyed") == p3d6(3, 6)
    heavy = indirect.BZTarget(rocket=True, german_heavy_rocket=True)
    assert exact(indirect.bz_hit, R, heavy).p("destroyed") == p3d6(3, 7)


def test_counter_battery_p37(R):
    """2D6 <= 2 + moves seen firing - moves silent; then 1D6 per CBF pair."""
    c = indirect.CounterBattery(moves_seen=2, pairs=2, calibre_threshold=5)
    d = exact(indirect.counter_battery, R, c)
    hit = p2d6(2, 4)
    assert d.p("silenced_2") == hit * Fraction(1, 9)
    assert d.p("silenced_0") == 1 - hit + hit * Fraction(4, 9)
    assert (
        sample(indirect.counter_battery, R, c, dice_script=[1, 1, 6, 2]).result.name == "silenced_1"
    )
