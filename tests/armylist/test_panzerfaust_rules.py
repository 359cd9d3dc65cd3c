"""Golden tests from the rules' own examples and one illegal force per construction rule
(seed 000: p5, p22, p27, p28, p35, p39, p43, p44)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from kriegsspiel.armylist.panzerfaust import Builder
from kriegsspiel.armylist.panzerfaust.catalogue import ADHOC
from kriegsspiel.armylist.panzerfaust.pricing import price_roster
from kriegsspiel.armylist.panzerfaust.validate import platoon_frs


@pytest.fixture(scope="module")
def b() -> Builder:
    return Builder()


def pv(b: Builder, ref: str) -> int:
    return b.ac.price(ref).pv


def errors(b: Builder, roster) -> set[str]:
    return {m.code for m in b.validate(roster).of("error")}


def group_cost(b: Builder, roster, index: int = 0) -> int:
    groups, _ = price_roster(b.ac, roster)
    return groups[index].cost


# --- golden: the rules' worked examples -----------------------------------------------------
def test_p22_t34_reliable_conscript_costs_141(b):
    """p22: a T-34/76 m1940 is 188 PV; in a Soviet reliable-conscript company it costs 141."""
    r = b.new("ussr", "1942-07", None, None, None)
    b.add(r, "", "afv:ussr/t-34-76-m1940")
    assert pv(b, "afv:ussr/t-34-76-m1940") == 188
    assert group_cost(b, r) == 141


def test_p27_afv_hq_surcharges(b):
    """p27: +10 per AFV platoon HQ vehicle, +20 per company HQ vehicle (one or two)."""
    r = b.new("germany", "1944-06", None, None, None)
    b.add(r, "", "organisation:germany/panzer-company-late")
    tank = pv(b, "afv:germany/pz-iv-ausf-g-j")
    # HQ 2 tanks + 2 x 20; three platoons of 3 (the chart's minimum, P40) + 10 each
    base = (2 * tank + 40) + 3 * (3 * tank + 10)
    assert group_cost(b, r) == round(base * Fraction(5, 4))


def test_p27_command_only_radio_adds_20(b):
    """p27: where only the command vehicle has a radio, +20 more for it."""
    from kriegsspiel.armylist.panzerfaust.pricing import _afv_surcharge
    from kriegsspiel.armylist.roster import Selection

    org = b.ac.record("organisation:germany/pz-platoon-late")
    kfz = Selection(id="s1", entry="afv:germany/kfz-13-14")  # radio: command only
    panther = Selection(id="s2", entry="afv:germany/pz-v-panther")
    assert b.ac.record(kfz.entry).radio == "command_only"
    assert _afv_surcharge(b.ac, org, [kfz]) == 10 + 20
    assert b.ac.record(panther.entry).radio != "command_only"
    assert _afv_surcharge(b.ac, org, [panther]) == 10


def test_p22_soviet_units_before_winter_1941_are_poor_conscripts(b):
    """p22: Soviet units before the winter of 1941 are conscript-poor (x 0.5), later
    reliable (x 0.75); decision P109 dates the change at December 1941."""
    summer = b.new("ussr", "1941-07", None, None, None)
    b.add(summer, "", "organisation:ussr/tank-company")
    winter = b.new("ussr", "1941-12", None, None, None)
    b.add(winter, "", "organisation:ussr/tank-company")
    base = price_roster(b.ac, summer)[0][0].base
    assert group_cost(b, summer) == round(base / 2)
    assert group_cost(b, winter) == round(base * Fraction(3, 4))


def test_p28_skirts_three_pv_per_facing(b):
    """p28: StuG III G side skirts cover 6 facings: 6 x 3 = 18 PV per vehicle."""
    r = b.new("germany", "1944-06", None, None, None)
    b.add(r, "", "afv:germany/stug-iii-g", count=2, options=["skirts:6"])
    groups, _ = price_roster(b.ac, r)
    assert groups[0].base == 2 * pv(b, "afv:germany/stug-iii-g") + 2 * 18


def test_p35_heat_per_gun_and_its_date(b):
    """p34-35: the German 105mm L28 (67 PV) has HEAT at +32 per gun from 1942."""
    r = b.new("germany", "1943-06", None, None, None)
    b.add(r, "", "gun:germany/105mm-l28-fh-18", count=2, options=["ammo:HEAT"])
    groups, _ = price_roster(b.ac, r)
    assert groups[0].base == 2 * 67 + 2 * 32
    early = b.new("germany", "1941-06", None, None, None)
    b.add(early, "", "gun:germany/105mm-l28-fh-18", count=2, options=["ammo:HEAT"])
    assert "option_date" in errors(b, early)


def test_p39_fortifications_cost_a_multiple_of_their_occupants(b):
    """p39: a concrete pillbox costs 1.5 x its occupants (60 -> 90); entrenchment 1/2
    (200 -> 100)."""
    r = b.new("usa_europe", "1944-06", None, None, None)
    held = b.add(r, "", "infantry_team:usa_europe/bazooka-team", count=3)  # 3 x 20 = 60
    box = b.add(r, "", "fieldwork:common/concrete-pillbox")
    box.covers = [held.id]
    platoon = b.add(r, "", "infantry_team:usa_europe/bazooka-team", count=10)  # 200
    trench = b.add(r, "", "fieldwork:common/entrenchment")
    trench.covers = [platoon.id]
    groups, _ = price_roster(b.ac, r)
    assert groups[1].base == 90
    assert groups[3].base == 100
    bare = b.new("usa_europe", "1944-06", None, None, None)
    b.add(bare, "", "fieldwork:common/entrenchment")
    assert "fortification_cover" in errors(b, bare)


def test_p43_aircraft_are_never_scaled(b):
    """p43: the Ju87D example costs 150 PV; troop class never modifies aircraft."""
    r = b.new("germany", "1943-06", None, None, None)
    b.add(r, "", "aircraft:common/ju87d")
    assert group_cost(b, r) == 150


def test_p44_platoon_fr_is_its_rarest_item(b):
    """p44: a Hungarian infantry platoon's FR is that of its rarest item (FR 5 here)."""
    r = b.new("hungary", "1943-06", None, None, None)
    company = b.add(r, "", "organisation:hungary/infantry-company")
    frs = dict((p, fr) for p, _, fr in platoon_frs(b.ac, r))
    plat = next(c for c in company.children if b.ac.record(c.entry).level == "platoon")
    before = frs[f"{company.id}/{plat.id}"]
    assert before is not None and before < 5
    squad = plat.children[-1]
    b.add(r, f"{company.id}/{plat.id}/{squad.id}", "infantry_weapon:hungary/demolition-charge")
    frs = dict((p, fr) for p, _, fr in platoon_frs(b.ac, r))
    assert frs[f"{company.id}/{plat.id}"] == 5


def test_p44_frequency_limits_and_balance(b):
    """p44: at 3000 PV at most one FR 6 platoon; FR 0-4 platoons must not be outnumbered."""
    r = b.new("germany", "1944-06", None, None, None)
    b.add(r, "", "organisation:germany/panzer-company-late")
    assert errors(b, r) == {"frequency_limit", "frequency_balance"}


# --- p5: ad-hoc companies -------------------------------------------------------------------
def _adhoc(b, n: int, hq: str | None = None):
    r = b.new("germany", "1944-06", None, None, None)
    co = b.add(r, "", ADHOC)
    for _ in range(n):
        b.add(r, co.id, "organisation:germany/infantry-platoon")
    if hq:
        b.add(r, co.id, hq)
    return r


def test_p5_two_platoons_make_an_ad_hoc_company(b):
    assert "adhoc_hq" not in errors(b, _adhoc(b, 2))


def test_p5_three_platoons_need_their_company_hq(b):
    assert "adhoc_hq" in errors(b, _adhoc(b, 3))
    hq = next(
        s.ref for s in b.ac.record("organisation:germany/infantry-company").slots if s.role == "hq"
    )
    assert not errors(b, _adhoc(b, 3, hq)) & {"adhoc_hq", "adhoc_hq_related"}
    assert not errors(b, _adhoc(b, 4, hq)) & {"adhoc_hq", "adhoc_hq_related"}


def test_p5_ad_hoc_hq_must_belong_to_its_platoons(b):
    r = _adhoc(b, 2, "organisation:germany/pz-company-hq-late")
    assert "adhoc_hq_related" in errors(b, r)


def test_p44_six_platoons_are_too_many(b):
    assert "adhoc_size" in errors(b, _adhoc(b, 6))


# --- one illegal force per rule kind, each giving exactly its error --------------------------
def _company(b, nation="germany", date="1944-06", entry="organisation:germany/infantry-company"):
    r = b.new(nation, date, None, None, None)
    b.add(r, "", entry)
    return r


def test_legal_base_force(b):
    assert errors(b, _company(b)) == set()


def test_date_window(b):
    """p44 step 3: the Panzer Grenadier Company is dated from 1943."""
    r = _company(b, date="1943-06", entry="organisation:germany/panzer-grenadier-company")
    assert errors(b, r) == set()
    r = _company(b, date="1939-09", entry="organisation:germany/panzer-grenadier-company")
    assert errors(b, r) == {"date_window"}


def test_slot_max_and_min(b):
    r = _company(b)
    plat = r.selections[0].children[-1]
    plat.count = 1
    extra = b.add(r, r.selections[0].id, plat.entry)
    extra.count = 9
    assert "slot_max" in errors(b, r)
    r = _company(b)
    r.selections[0].children.pop()
    assert errors(b, r) == {"slot_min"}


def test_not_in_organisation(b):
    r = _company(b)
    b.add(r, r.selections[0].id, "afv:ussr/t-34-76-m1940")
    assert errors(b, r) == {"not_in_organisation"}


def test_choice_group(b):
    r = b.new("germany", "1944-06", None, None, None)
    b.add(r, "", "organisation:germany/infantry-company")
    b.add(r, "", "organisation:germany/heavy-panzer-company-late")
    plat = r.selections[1].children[1]
    b.add(r, f"{r.selections[1].id}/{plat.id}", "afv:germany/pz-v-panther", count=1)
    assert "choice_group" in errors(b, r)


def test_loose_platoon(b):
    r = _company(b)
    b.add(r, "", "organisation:germany/infantry-platoon")
    assert errors(b, r) == {"loose_platoon"}


def test_first_company(b):
    r = _company(b, entry="organisation:germany/at-company-37mm", date="1940-05")
    assert "first_company" in errors(b, r)


def test_support_companies(b):
    r = _company(b, date="1940-05")
    b.add(r, "", "organisation:germany/at-company-37mm")
    assert "support_companies" not in errors(b, r)
    b.add(r, "", "organisation:germany/infantry-gun-company")
    assert "support_companies" in errors(b, r)


def test_offboard_batteries(b):
    r = _company(b)
    b.add(r, "", "battery:germany/81mm-mortar", count=4)
    assert errors(b, r) == set()
    b.add(r, "", "battery:germany/81mm-mortar", count=4)
    assert errors(b, r) == {"offboard_batteries"}


def test_aircraft(b):
    r = _company(b, date="1943-06")
    b.add(r, "", "aircraft:common/ju87d")
    assert errors(b, r) == set()
    b.add(r, "", "aircraft:common/ju87d")
    assert errors(b, r) == {"aircraft"}


def test_rating_unknown_mixed_and_profile(b):
    r = _company(b)
    r.selections[0].rating = "cossacks"
    assert errors(b, r) == {"rating_unknown"}
    r = _company(b)
    r.selections[0].children[-1].rating = "ss"
    assert errors(b, r) == {"rating_mixed"}
    r = _company(b)
    r.selections[0].rating = "ss"  # a plain infantry company (p59: SS only for panzer units)
    assert errors(b, r) == {"rating_profile"}
    r = _company(b)
    r.selections[0].rating = "volksgrenadiers"  # not a Volksgrenadier unit
    assert errors(b, r) == {"rating_profile"}
    r = _company(b, nation="ussr", entry="organisation:ussr/guards-at-rifle-company")
    r.selections[0].rating = "all_other"
    assert "rating_profile" in errors(b, r)


def test_ss_rating_costs_half_as_much_again_and_only_for_panzer_units(b):
    r = _company(b, entry="organisation:germany/panzer-grenadier-company")
    base = price_roster(b.ac, r)[0][0].base
    assert group_cost(b, r) == int(base * Fraction(5, 4) + Fraction(1, 2))  # veteran reliable
    r.selections[0].rating = "ss"
    assert errors(b, r) == set()
    assert group_cost(b, r) == int(base * Fraction(3, 2) + Fraction(1, 2))  # veteran elite


def test_points_limit(b):
    r = _company(b)
    r.points = 100
    assert errors(b, r) == {"points_limit"}


def test_max_in_force(b):
    r = b.new("ussr", "1942-06", None, None, None)
    kv = [o for o in b.ac.organisations("ussr") if o.group == "ussr/kv-company"][0]
    b.add(r, "", f"organisation:{kv.id}")
    b.add(r, "", f"organisation:{kv.id}")
    assert "max_in_force" in errors(b, r)


def test_whole_parent_only(b):
    """p5: the company HQ comes only with the whole company (printed as a slot condition)."""
    r = b.new("britain", "1941-06", None, None, None)
    co = b.add(r, "", "organisation:britain/motorised-at-company")
    assert "whole_parent_only" not in errors(b, r)
    optional = [c for c in co.children if c.entry != "organisation:britain/motorised-at-company-hq"]
    co.children.remove(optional[-1])
    assert "whole_parent_only" in errors(b, r)


def test_option_unknown(b):
    r = _company(b)
    r.selections[0].children[-1].options = ["warp-drive"]
    assert errors(b, r) == {"option_unknown"}


def test_placeholder_and_unpriced_are_warnings_never_silent(b):
    r = _company(b)
    b.add(r, "", "organisation:germany/panzer-company-late")
    warn = {m.code: m.text for m in b.validate(r).of("warning")}
    assert "Pz IV Ausf G-J" in warn["placeholder_price"]
    assert "%" in warn["placeholder_price"]
    r = _company(b, nation="britain", entry="organisation:britain/motorised-at-company")
    b.add(r, r.selections[0].id, "infantry_weapon:britain/boys-atr")  # P111 placeholder PV
    b.add(r, r.selections[0].id, "fieldwork:britain/ap-mine")  # priced by rule (p39), no PV
    rep = b.validate(r)
    assert any(m.code == "placeholder_price" and "Boys" in m.text for m in rep.of("warning"))
    assert any(m.code == "unpriced" and "Mine" in m.text for m in rep.of("warning"))


# --- a legal force per nation (13) ----------------------------------------------------------
LEGAL = {
    "belgium": ("1940-05", ["organisation:belgium/infantry-division-tank-company"]),
    "britain": ("1944-06", ["organisation:britain/recon-troop-scout-cars"]),
    "finland": ("1941-07", ["organisation:finland/rifle-company"]),
    "france": ("1940-05", ["organisation:france/dcr-char-b-company"]),
    "germany": ("1943-06", ["organisation:germany/infantry-company", "aircraft:common/ju87d"]),
    "hungary": ("1942-06", ["organisation:hungary/infantry-company"]),
    "italy": ("1942-06", ["organisation:italy/medium-tank-battalion-reserve"]),
    "japan": ("1942-03", ["organisation:japan/infantry-company"]),
    "poland": ("1939-09", ["organisation:poland/light-independent-tank-company"]),
    "rumania": ("1942-06", ["organisation:rumania/infantry-company"]),
    "usa_europe": ("1944-06", ["organisation:usa_europe/infantry-company"]),
    "usa_pacific": ("1944-06", ["organisation:usa_pacific/marine-company-d"]),
    "ussr": ("1943-07", ["organisation:ussr/tank-company", "organisation:ussr/tank-company"]),
}


@pytest.mark.parametrize("nation", sorted(LEGAL))
def test_a_legal_force_per_nation(b, nation):
    date, entries = LEGAL[nation]
    r = b.new(nation, date, None, 3000, None)
    for e in entries:
        b.add(r, "", e)
    report = b.validate(r)
    assert report.of("error") == [], [str(m) for m in report.of("error")]
    assert 0 < report.total_pv <= 3000


def test_transport_rows_join_softskins_by_class(b):
    """p44 lists price trucks by class ("Medium Truck"): a softskin with no row of its own
    takes its class row's dates and FR (decision P107)."""
    from kriegsspiel.armylist.panzerfaust.catalogue import transport_class

    assert transport_class("Opel Blitz, Ford G917T Medium Truck (4x2)") == "medium_truck"
    assert transport_class("Sdkfz 10 Demag (1t) Light Halftrack") == "light_halftrack"
    assert transport_class("Light Half track") == "light_halftrack"
    assert transport_class("BMW R75, Zundapp KS750 M/cycle Sidecar") == "motorcycle_sidecar"
    blitz = "softskin:germany/opel-blitz-ford-g917t-medium-truck-4x2"
    row = next(
        e
        for e in b.ac.cat.all("equipment")
        if e.nation == "germany" and e.name == "Medium Truck" and not e.item_ref
    )
    assert b.ac.fr(blitz) == row.fr == 1
    assert b.ac.dates(blitz) == row.dates


def test_nation_policy_slots_are_reported_as_info(b):
    """Slot conditions as data (P102): a limit printed only in the list's notes is info."""
    r = b.new("france", "1940-05", None, None, None)
    b.add(r, "", "organisation:france/infantry-company")
    b.add(r, "", "organisation:france/at-company")
    info = [m for m in b.validate(r).of("info") if m.code == "nation_policy"]
    assert info and all(m.path and m.page for m in info)


def test_a_placeholder_window_says_so(b):
    """P323: the Valentine IX-X's window is a placeholder at both ends (no source dates the
    mark); the Lynx's start rests on a cited page, only its open end is a placeholder; a printed
    window has none."""
    assert b.ac.dates_placeholder("afv:britain/valentine-ix-x") == ["start", "end"]
    assert b.ac.dates_placeholder("afv:britain/lynx-scout-car") == ["end"]
    assert b.ac.dates_placeholder("afv:britain/churchill-vii") == []
