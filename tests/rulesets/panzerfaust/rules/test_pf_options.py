"""The contradictions of the rules (digest §4.2) as options (docs/decisions/panzerfaust.md
P70-P82): switching each one changes a result; the default is the decision's."""

from __future__ import annotations

import pytest
from pfdice import p3d6

from kriegsspiel.chance import exact
from kriegsspiel.data.errors import RuleError
from kriegsspiel.rulesets.panzerfaust.options import Options
from kriegsspiel.rulesets.panzerfaust.rules import area_fire, at_fire, cqc, infantry_fire, observe
from kriegsspiel.rulesets.panzerfaust.rules.teams import parse_teams
from kriegsspiel.rulesets.panzerfaust.rules.weapons import (
    area_weapon,
    chart_or_example,
    firer_weapon,
    infantry_weapon,
    target_of,
)


def test_every_option_parses_from_the_cli_form():
    o = Options.parse(["mortar_flash=quarter", "cqc-moved-mods=true", "placeholder_tables=false"])
    assert o.mortar_flash == "quarter" and o.cqc_moved_mods and not o.placeholder_tables
    with pytest.raises(ValueError, match="unknown option"):
        Options.parse(["no_such=1"])


def test_p80_example_chart_or_army_list(R):
    """Errata 2: the army-list chart (default) or the p35 example row for the PaK 38."""
    w, _ = firer_weapon(R.cat, "germany/50mm-l60-pak-38")
    assert w.need(0) == 12 and chart_or_example(w, "example").need(0) == 11
    t = target_of(R.cat, "usa_europe/m4")
    army = exact(at_fire.at_fire, R, at_fire.Shot(w, t, 10))
    ex = exact(at_fire.at_fire, R, at_fire.Shot(chart_or_example(w, "example"), t, 10))
    assert army.p("miss") == 1 - p3d6(3, 12) and ex.p("miss") == 1 - p3d6(3, 11)


def test_p75_magnetic_mine_against_movers(R):
    w, _ = infantry_weapon(R.cat, "common/at-magnetic-mine")
    s = at_fire.Shot(w, target_of(R.cat, "usa_europe/m4"), 0, target_moving="across_under15")
    assert exact(at_fire.at_fire, R, s).total() == 1
    with pytest.raises(RuleError, match="atmm_targets=slow"):
        exact(at_fire.at_fire, R.with_options(atmm_targets="slow"), s)


def test_magnetic_mine_only_on_the_hull_of_a_medium_afv(R):
    """p21: on a medium or heavy AFV the mine goes on the hull (location 5-6 re-rolled)."""
    w, _ = infantry_weapon(R.cat, "common/at-magnetic-mine")
    s = at_fire.Shot(w, target_of(R.cat, "usa_europe/m4"), 0)
    d = exact(at_fire.at_fire, R, s)
    assert d.p("gun_damaged") == 0  # never the turret


def test_p71_gun_shield_in_area_fire(R):
    """Shields give no protection against area fire (p35, default) or partial cover (p32)."""
    w, _ = firer_weapon(R.cat, "germany/75mm-l46-pak-40", "HE")
    a = area_fire.AreaShot(w, 65, shielded=True)
    assert exact(area_fire.area_fire, R, a).p("destroyed") == p3d6(3, 12)
    partial = R.with_options(gun_shield_area="partial")
    assert exact(area_fire.area_fire, partial, a).p("destroyed") == p3d6(3, 10)


def test_shields_against_infantry_fire(R):
    """A towed gun's shield is partial cover (p16/p34), a motorised gun's hard cover (p27)."""
    teams = parse_teams(R.cat, "common/rifle-team:3")
    towed = infantry_fire.variations(R, infantry_fire.Fire(teams, 20, shield="towed"))
    motor = infantry_fire.variations(R, infantry_fire.Fire(teams, 20, shield="motorised"))
    assert [m.value for m in towed] == [-2] and [m.value for m in motor] == [-6]
    both = infantry_fire.variations(R, infantry_fire.Fire(teams, 20, cover="hard", shield="towed"))
    assert [m.value for m in both] == [-6]  # the better cover only


def test_p74_ap_rifle_grenade_radius(R):
    """Direct HE with a 3 cm radius (default) or as a 57 mm shell (5 cm and -2)."""
    w3, _ = area_weapon(R.cat, "AP rifle grenade")
    w57, _ = area_weapon(R.cat, "AP rifle grenade", "57mm")
    assert area_fire.radius(w3) == 3 and area_fire.radius(w57) == 5
    a3, a57 = area_fire.AreaShot(w3, 10), area_fire.AreaShot(w57, 10)
    assert exact(area_fire.area_fire, R, a3).p("destroyed") - exact(area_fire.area_fire, R, a57).p(
        "destroyed"
    ) == p3d6(3, 10) - p3d6(3, 8)
    with pytest.raises(RuleError, match="cannot fire HE"):
        area_weapon(R.cat, "common/molotov-cocktail")


def test_p81_weather_rows_sign(R):
    """Rain and night move the casualty table by 1 and 3 rows; the sign was lost (P81)."""
    teams = parse_teams(R.cat, "common/rifle-team:3")
    f = infantry_fire.Fire(teams, 20, weather="night")
    assert sum(m.value for m in infantry_fire.variations(R, f)) == -3
    up = R.with_options(casualty_sign="rows_up")
    assert sum(m.value for m in infantry_fire.variations(up, f)) == 3
    side = cqc.Side(teams, weather="rain")
    assert sum(m.value for m in cqc.side_mods(R, side, cqc.Side(teams))) == -1


def test_p78_seeing_out_of_thin_woods(R):
    """Q&A 8 asks about thin woods and answers for thick: an observer 7 cm inside thin woods
    sees out (default, p8's 10 cm) or not (the answer read for thin woods)."""
    s = observe.Sight(distance=10, observer_terrain="thin_woods", observer_depth=7)
    assert exact(observe.observe, R, s).p("observed") == 1
    assert exact(observe.observe, R.with_options(qa8_woods="thin"), s).p("observed") == 0


def test_p82_refuse_placeholder_tables(R):
    """With placeholder_tables=false, a lost table is refused instead of played."""
    strict = R.with_options(placeholder_tables=False)
    with pytest.raises(RuleError, match="lost"):
        exact(observe.observe, strict, observe.Sight(distance=10))
