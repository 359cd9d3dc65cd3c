"""Vehicle flamethrowers, Molotovs, "flamed before" and flame at every soft target in the arc
(p16, p21; decision P290) played through the game (scenario overrun.yaml: an OT-34 8 cm from
a Pz IV, two German rifle teams beside it, a Molotov team 4 cm from a truck)."""

from __future__ import annotations

import json

import pytest

from kriegsspiel.engine import Game, IllegalCommand, load_scenario
from kriegsspiel.rulesets.panzerfaust.game import flame
from kriegsspiel.rulesets.panzerfaust.rules.tables import rules

from .conftest import HERE, Dice, fold, to_fire


def _to_fire(unit: str) -> Game:
    game = Game(load_scenario(HERE / "overrun.yaml"), seed=1)
    to_fire(game, unit)
    return game


def _alias(game: Game, uid: str) -> str:
    return game.state.aliases.alias("ussr", uid)


@pytest.mark.parametrize(
    ("record", "weapon", "reach"),
    [
        ("ussr/ot-34-76-m1943", "vehicle_soviet_axis", 10),
        ("ussr/ot-130", "vehicle_soviet_axis", 10),
        ("germany/pz-ii-flamm", "vehicle_soviet_axis", 10),
        ("italy/l3-flamethrower", "vehicle_soviet_axis", 10),
        ("britain/churchill-crocodile", "vehicle_uk_us", 15),
        ("usa_europe/m3a1-satan", "vehicle_uk_us", 15),
        ("ussr/t-34-76-m1943", None, None),
    ],
)
def test_p21_vehicle_flamethrowers_are_read_from_the_charts(record, weapon, reach):
    rec = rules().cat.find("afv", record)
    assert rec is not None
    assert flame._weapon(rec) == weapon
    if reach:
        assert flame.reach(weapon) == reach


def test_p21_a_flame_tank_flames_an_afv_in_its_arc():
    game = _to_fire("r-ot34")
    st = game.state
    pz = _alias(game, "g-pz4")
    assert {"type": "flame", "unit": "r-ot34", "target": pz} in game.legal_commands("ussr")
    cmd = {"type": "flame", "unit": "r-ot34", "target": pz}
    odds = game.odds("ussr", cmd)
    assert odds["outcomes"]["destroyed"] == pytest.approx(1 / 6)  # size C, closed: 6 only
    drafts = game.rules.resolve(st, "ussr", cmd, Dice(6))
    assert drafts[0].data["result"] == "destroyed" and drafts[0].data["flame"]
    assert any("p21" in line for line in drafts[0].explanation)


def test_p21_flamed_before_adds_one_and_is_marked_by_any_flame_that_reaches():
    game = _to_fire("r-ot34")
    st = game.state
    cmd = {"type": "flame", "unit": "r-ot34", "target": _alias(game, "g-pz4")}
    drafts = game.rules.resolve(st, "ussr", cmd, Dice(3))  # 3: no effect
    assert drafts[0].data["result"] == "no_effect"
    fold(game, "ussr", drafts)
    assert st.elements["g-pz4"].has("flamed")
    again = flame.attack(st, st.elements["r-ot34"], st.elements["g-pz4"], (90.0, 28.0))
    assert again.flamed_before
    game = _to_fire("r-ot34")  # a second flame attack at that Pz IV
    game.state.elements["g-pz4"].counters["flamed"] = 1
    drafts = game.rules.resolve(game.state, "ussr", cmd, Dice(4))  # 4 + 1 flamed before = 5
    assert drafts[0].data["result"] == "immobilised"
    assert any("flamed before" in line for line in drafts[0].explanation)


def test_p16_flame_at_a_soft_target_burns_every_enemy_soft_target_in_the_arc():
    game = _to_fire("r-ot34")
    st = game.state
    ot = st.elements["r-ot34"]
    assert [t.id for t in flame.soft_targets(st, ot)] == ["g-r4"]  # g-r5 is 39 degrees off
    with pytest.raises(IllegalCommand, match="flame arc"):
        game.odds("ussr", {"type": "flame", "unit": "r-ot34", "target": _alias(game, "g-r4")})
    start = len(game.events)
    game.submit("ussr", {"type": "flame", "unit": "r-ot34", "target": _alias(game, "g-r4")})
    new = game.events[start:]
    zone = next(e for e in new if e.type == "area_hits")
    assert [r["target"] for r in zone.data["results"]] == ["g-r4"]  # the Pz IV is no soft target
    shot = next(e for e in new if e.type == "shot")
    assert shot.visible_to == ("ussr",) and shot.data["flame"]
    assert any("flame's arc" in line for line in shot.explanation)
    told = [e for e in new if e.type == "shot_at"]
    assert [e.data["unit"] for e in told] == ["g-r4"] and told[0].visible_to == ("germany",)


def test_p16_partly_in_the_arc_counts():
    game = _to_fire("r-ot34")
    st = game.state
    ot = st.elements["r-ot34"]
    # 8 cm off, 25 degrees off the front: the base's edge is inside 15 + asin(2/8) = 29.5
    assert flame.partly_in_arc(ot, (90 + 8 * 0.4226, 20 + 8 * 0.9063))
    assert not flame.partly_in_arc(ot, (90 + 8 * 0.5736, 20 + 8 * 0.8192))  # 35 degrees


def test_p21_a_molotov_hits_and_rolls_the_flame_table_at_minus_one():
    game = _to_fire("r-molotov")
    st = game.state
    truck = _alias(game, "g-truck")
    assert {"type": "flame", "unit": "r-molotov", "target": truck} in game.legal_commands("ussr")
    cmd = {"type": "flame", "unit": "r-molotov", "target": truck}
    drafts = game.rules.resolve(st, "ussr", cmd, Dice(1, 1, 1, 6))  # hit; 6 - 1 = 5
    assert drafts[0].data["result"] == "immobilised"
    lines = drafts[0].explanation
    assert any("Molotov" in line and "-1" in line for line in lines)
    assert any("to-hit" in line for line in lines)
    miss = game.rules.resolve(st, "ussr", cmd, Dice(6, 6, 6))
    assert miss[0].data["result"] == "miss"


def test_p21_molotovs_do_nothing_to_men_and_flame_has_a_reach():
    game = _to_fire("r-molotov")
    st = game.state
    team = st.elements["r-molotov"]
    why = flame.why_not(
        st, team, st.elements["g-r4"], (st.elements["g-r4"].x, st.elements["g-r4"].y)
    )
    assert why is not None and "no effect on men" in why and "(p21)" in why
    pz = st.elements["g-pz4"]
    why = flame.why_not(st, team, pz, (pz.x, pz.y))
    assert why is not None and "beyond its Molotovs' 5 cm" in why
    with pytest.raises(IllegalCommand, match="beyond its Molotovs' 5 cm"):
        game.submit("ussr", {"type": "flame", "unit": "r-molotov", "target": _alias(game, "g-pz4")})
    ot = st.elements["r-ot34"]
    why = flame.why_not(st, ot, pz, (90.0, 31.0))
    assert why is not None and "beyond its flamethrower's 10 cm" in why


def test_fog_the_flamer_is_told_aliases_only():
    game = _to_fire("r-ot34")
    start = len(game.events)
    game.submit("ussr", {"type": "flame", "unit": "r-ot34", "target": _alias(game, "g-r4")})
    told = json.dumps([e.data for e in game.events[start:] if e.visible("ussr")])
    assert '"g-r4"' not in told and '"g-r5"' not in told
