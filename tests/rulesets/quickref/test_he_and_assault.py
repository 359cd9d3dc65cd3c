"""HE, artillery, flamethrowers and close assault: golden cases W7-W10, E2 (quickref.md §5)."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from kriegsspiel.chance import exact, sample
from kriegsspiel.data import RuleError
from kriegsspiel.rulesets.quickref.assault import (
    InfantryAssault,
    VehicleAssault,
    assault_infantry,
    assault_vehicle,
)
from kriegsspiel.rulesets.quickref.he_fire import (
    FireMission,
    HETarget,
    flamethrower,
    he_effect,
    indirect_fire,
)
from kriegsspiel.rulesets.quickref.infantry_effects import InfantryState, apply_result
from kriegsspiel.rulesets.quickref.morale import morale_check


def test_w7_medium_guns_on_woods(qr):
    d = exact(he_effect, qr, 12, HETarget("infantry", "woods"))
    assert (d.p("kia"), d.p("hit"), d.p("retreat"), d.p("suppressed"), d.p("none")) == (
        F(55, 100),
        F(30, 100),
        F(12, 100),
        F(3, 100),
        0,
    )


@pytest.mark.parametrize(
    "russian,trained,p_kia",
    [(False, False, F(33, 200)), (False, True, F(33, 125)), (True, True, F(22, 125))],
)
def test_w7_whole_chain(qr, russian, trained, p_kia):
    d = exact(indirect_fire, qr, FireMission(12, russian, trained), HETarget("infantry", "woods"))
    assert d.p("kia") == p_kia and d.total() == 1


def test_w7_split_29(qr):
    d = exact(he_effect, qr, 29, HETarget())
    assert d.p("kia") == F(4013, 5000)


def test_w7_split_removes_with_two_hits(qr):
    def burst_then_apply(rules):
        out = yield from he_effect(rules, 29, HETarget())
        unit = InfantryState()
        for symbol in out.get("parts"):
            sym = {"kia": "KIA", "hit": "H", "retreat": "Rt", "suppressed": "Sp", "none": "-"}[
                symbol
            ]
            unit = yield from apply_result(rules, unit, sym, morale_after_hit=False)
        return unit.removed

    no_rt_option = qr.with_options(rt_morale_option=False)
    assert exact(burst_then_apply, no_rt_option).p(True) == F(2047, 2500)


def test_w8_he_on_a_tiger(qr):
    d = exact(he_effect, qr, 12, HETarget("armoured", side_armour=9))
    assert (d.p("ko"), d.p("damaged"), d.p("tracked"), d.p("ineffective"), d.p("none")) == (
        F(36, 125),
        F(27, 125),
        F(18, 125),
        F(9, 125),
        F(7, 25),
    )
    hull = exact(he_effect, qr, 12, HETarget("armoured", side_armour=9, hull_down=True))
    assert hull.p("ko") == F(11, 50)
    pz4 = exact(he_effect, qr, 12, HETarget("armoured", side_armour=5))
    assert (pz4.p("ko"), pz4.p("damaged")) == (F(72, 125), F(18, 125))
    no_gate = exact(
        he_effect, qr.with_options(he_armour_gate=False), 12, HETarget("armoured", side_armour=9)
    )
    assert no_gate.p("ko") == F(2, 5)


def test_e2_flamethrower(qr):
    d = exact(flamethrower, qr, 10, HETarget("infantry", "bunkers"))
    assert (d.p("kia"), d.p("hit"), d.p("retreat"), d.p("suppressed"), d.p("none")) == (
        F(10, 100),
        F(18, 100),
        F(27, 100),
        F(17, 100),
        F(28, 100),
    )
    tank = exact(flamethrower, qr, 10, HETarget(), True)
    assert (tank.p("tracked"), tank.p("damaged"), tank.p("ko")) == (F(1, 10), F(3, 10), F(3, 5))


def test_w9_assault_on_a_vehicle(qr):
    a = exact(assault_vehicle, qr, VehicleAssault())
    assert (a.p("ko"), a.p("damaged"), a.p("tracked")) == (
        F(1659, 25000),
        F(4977, 25000),
        F(1659, 12500),
    )
    strict = exact(assault_vehicle, qr.with_options(assault_goes_on="strict"), VehicleAssault())
    assert strict.p("ko") == F(119, 2000)
    b = exact(assault_vehicle, qr, VehicleAssault(buttoned=True))
    assert (b.p("damaged"), b.p("tracked"), b.p("ko")) == (F(21, 100), F(7, 50), 0)
    c = exact(assault_vehicle, qr, VehicleAssault(open_topped=True))
    assert c.p("ko") == F(1659, 5000)
    with pytest.raises(RuleError):
        exact(assault_vehicle, qr, VehicleAssault(buttoned=True, open_topped=True))


def test_w10_infantry_assault(qr):
    a = InfantryAssault((1, 3), 2, "woods")  # two squads (1 and 1+LMG 2) vs squad SA 2 in woods

    d = exact(assault_infantry, qr, a)
    assert (d.p("attackers_win"), d.p("defender_wins")) == (F(9, 20), F(11, 20))
    by_def = exact(assault_infantry, qr, a, key=lambda o: o.get("defender"))
    assert by_def.p("KIA") == F(47, 200)
    assert by_def.p("fight_on") == F(53, 200)
    first = exact(assault_infantry, qr, a, key=lambda o: o.get("attackers")[0])
    assert first.p("KIA") == F(53, 200)
    reroll = exact(assault_infantry, qr.with_options(assault_ties="reroll"), a)
    assert reroll.p("attackers_win") == F(1, 2)


def test_morale_options(qr):
    assert exact(morale_check, qr).p("pass") == F(7, 10)
    assert exact(morale_check, qr.with_options(morale_dice="2d10")).p("pass") == F(21, 100)


def test_explanation_of_an_assault_names_every_step(qr):
    res = sample(assault_vehicle, qr, VehicleAssault(), dice_script=[3, 5, 5, 9])
    lines = "\n".join(res.lines())
    assert "morale 3 vs 7 or less: pass" in lines
    assert "infantry assault -4" in lines
    assert res.result.name == "damaged"  # 9 - 4 = 5 -> damaged


def test_riders_fire_first_and_escorts_must_be_assaulted(qr):
    with_riders = exact(assault_vehicle, qr, VehicleAssault(riders_sa=2))
    # by hand: after the riders' SA 2, 85/100 are unharmed and (5+9)/100 * 7/10 stay damaged;
    # the vehicle's SA 2 then lets 237/250 of the unharmed and 85/100 of the damaged go on
    # (a second H removes a damaged squad); then morale 7/10 and KO 1/10 at d10-4
    go_on = F(85, 100) * F(237, 250) + F(98, 1000) * F(85, 100)
    assert go_on == F(8891, 10000)
    assert with_riders.p("ko") == F(7, 10) * go_on * F(1, 10)
    with pytest.raises(RuleError, match="within 3"):
        exact(assault_vehicle, qr, VehicleAssault(escort_within_3=True))
