"""Artillery, mortars and aircraft on the table (issue 19 item 2 phases A, C, E, H, I; item 3
secret orders): written orders seen only by their writer, map fire and call-down landing,
beaten zones rolled in phase H, an air strike with AA fire, every illegal order refused with
its reason, and the replay of it all."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kriegsspiel.ai import RandomBot
from kriegsspiel.ai.harness import act
from kriegsspiel.engine import Game, IllegalCommand, load_scenario
from kriegsspiel.engine.scenario import Scenario
from kriegsspiel.rulesets.panzerfaust.game import orders_air, support

SUPPORT = Path(__file__).parent / "scenarios" / "support.yaml"
PASSIVE = ("end_phase", "end_platoon", "hold")
ENGINE = ("given",)  # the engine's umpire-only record of each command


def scenario(**changes) -> Scenario:
    """The support scenario, with `changes` (a dotted path into the German forces -> value)."""
    raw = load_scenario(SUPPORT).model_dump(exclude_none=True)
    for path, value in changes.items():
        node = raw["forces"]["germany"]
        *head, last = path.split("__")
        for k in head:
            node = node[int(k)] if k.isdigit() else node[k]
        node[int(last) if last.isdigit() else last] = value
    return Scenario.model_validate(raw)


def advance(g: Game, phase: str, turn: int) -> None:
    """Play passively (end phases, end platoons, hold fire) until a side must act at or after
    `phase` of `turn` (phases that need nobody pass by themselves)."""
    want = (turn, "ABCDEFGHI".index(phase))
    for _ in range(500):
        st = g.state
        if g.outcome is not None or (st.turn, "ABCDEFGHI".find(st.phase)) >= want:
            return
        side = g.rules.active_sides(st)[0]
        legal = g.legal_commands(side)
        g.submit(side, next((c for c in legal if c["type"] in PASSIVE), legal[0]))
    raise AssertionError(f"phase {phase} of turn {turn} never came")


def told(g: Game, side: str, start: int = 0) -> list:
    return [e for e in g.events[start:] if e.visible(side)]


def inside(g: Game, xy, radius) -> set[str]:
    return {e.id for e in g.state.elements.values() if e.on_table and e.transport is None
            and math.dist((e.x, e.y), xy) <= radius}  # fmt: skip


# ----------------------------------------------------------------------------- phase A
def test_a_written_order_is_read_by_its_writer_only():
    g = Game(scenario(), seed=3)
    assert (g.state.turn, g.state.phase) == (1, "A")
    start = len(g.events)
    g.submit("germany", {"type": "fire_mission", "battery": "g-mtr", "x": 95, "y": 24})
    new = [e for e in g.events[start:] if e.type not in ENGINE]
    assert [e.type for e in new] == ["fire_order"] and new[0].visible_to == ("germany",)
    assert not told(g, "britain", start)
    mine = g.view("germany")["panzerfaust"]["markers"]
    assert [(m["kind"], m["x"], m["y"]) for m in mine] == [("poa", 95.0, 24.0)]
    blob = json.dumps(g.view("britain"))
    assert "g-mtr" not in blob and "poa" not in blob
    sheet = g.view("germany")["panzerfaust"]["support"]
    assert [b["id"] for b in sheet["batteries"]] == ["g-bty", "g-mtr"]
    assert sheet["batteries"][1]["order"] == {
        "x": 95,
        "y": 24,
        "turn": 1,
        "landed": False,
        "ammo": "he",
    }
    assert sheet["aircraft"][0]["strike"]["arrives"] == 2  # the prepared strike (p42)
    assert [b["id"] for b in g.view("britain")["panzerfaust"]["support"]["batteries"]] == ["b-bty"]
    # the other side probing it learns nothing of it
    with pytest.raises(IllegalCommand) as err:
        g.submit("britain", {"type": "cease_fire", "battery": "g-mtr"})
    assert err.value.reason == "'g-mtr' is not one of your off-table batteries"


def test_on_call_air_strike_needs_an_fac_who_sees_the_point_and_rolls_a_delay():
    g = Game(scenario(), seed=3)
    g.submit("germany", {"type": "cancel_strike", "aircraft": "stuka"})
    with pytest.raises(IllegalCommand, match="no FAC team of yours sees that point"):
        g.submit("germany", {"type": "air_strike", "aircraft": "stuka", "x": 100, "y": 40})
    start = len(g.events)
    g.submit("germany", {"type": "air_strike", "aircraft": "stuka", "x": 90, "y": 22,
                         "heading": 180})  # fmt: skip
    (e,) = [e for e in g.events[start:] if e.type not in ENGINE]
    assert e.type == "air_order" and e.visible_to == ("germany",)
    delay = e.data["orders"]["arrives"] - 1
    assert 1 <= delay <= 6 and any("1d6" in line.casefold() for line in e.explanation)
    with pytest.raises(IllegalCommand, match="already has a strike ordered"):
        g.submit("germany", {"type": "air_strike", "aircraft": "stuka", "x": 90, "y": 22})


@pytest.mark.parametrize(
    ("cmd", "reason"),
    [
        ({"type": "fire_mission", "battery": "g-bty", "x": 90, "y": 22}, "map fire written"),
        ({"type": "fire_mission", "battery": "g-mtr", "x": 500, "y": 22}, "off the table"),
        ({"type": "fire_mission", "battery": "b-bty", "x": 90, "y": 22}, "not one of your"),
        ({"type": "cease_fire", "battery": "g-mtr"}, "has no fire to stop"),
        ({"type": "air_strike", "aircraft": "stuka", "x": 90, "y": 22}, "already has a strike"),
        ({"type": "cancel_strike", "aircraft": "spitfire"}, "not one of your aircraft"),
        (
            {"type": "call_down", "battery": "g-mtr", "observer": "g-fao"},
            "not a command of phase A",
        ),
    ],
)
def test_illegal_phase_a_orders_are_refused_with_their_reason(cmd, reason):
    g = Game(scenario(), seed=3)
    before, n = g.state_hash(), len(g.events)
    with pytest.raises(IllegalCommand, match=reason):
        g.submit("germany", cmd)
    assert g.state_hash() == before and len(g.events) == n


# ----------------------------------------------------------------------------- phases E, H
def test_map_fire_lands_unasked_and_rolls_against_everything_in_its_zone():
    """A veteran 105 mm battery's map fire of turn 1 (p37) comes down at its written point in
    phase E with no call-down; phase H rolls every element in the 12 cm zone (p35-36)."""
    g = Game(scenario(), seed=5)
    advance(g, "E", 1)
    advance(g, "F", 1)
    (b,) = [e for e in g.events if e.type == "barrage"]
    assert b.data["battery"] == "g-bty" and b.visible_to == ("germany",)
    assert (b.data["x"], b.data["y"], b.data["radius"]) == (90, 22, 12)
    assert "map fire for turn 1 (p37)" in b.explanation[0]
    # the shelled side sees the shells land where its elements stand, not who fired them
    (seen,) = [e for e in told(g, "britain") if e.type == "barrage_seen"]
    assert seen.data == {"x": 90, "y": 22, "radius": 12, "ammo": "he"}
    zone = inside(g, (90, 22), 12)
    assert zone == {"b-inf-hq", "b-inf-1", "b-inf-2", "b-fao", "b-co-hq"}
    advance(g, "I", 1)
    (h,) = [e for e in g.events if e.type == "bz_results"]
    assert h.visible_to == () and {r["target"] for r in h.data["results"]} == zone
    for r in h.data["results"]:
        assert r["result"] in ("destroyed", "missed")  # infantry: wiped or missed (p37)
        assert g.state.elements[r["target"]].lost == (r["result"] == "destroyed")
    (mine,) = [e for e in told(g, "britain") if e.type == "bz_results_seen"]
    assert {r["target"] for r in mine.data["results"]} == zone
    assert any("3d6" in line.casefold() for line in mine.explanation)


def _called(seed: int) -> Game | None:
    g = Game(scenario(batteries__0__plan=[]), seed=seed)
    g.submit("germany", {"type": "fire_mission", "battery": "g-mtr", "x": 95, "y": 24})
    advance(g, "E", 1)
    g.submit("germany", {"type": "call_down", "battery": "g-mtr", "observer": "g-fao"})
    return g if any(e.type == "barrage" for e in g.events) else None


def test_a_call_down_by_the_fao_lands_and_the_mortars_roll_in_h():
    """The FAO of a veteran 120 mm mortar platoon calls its fire down (3D6 <= 9, placeholder
    P85, p36); a mortar's first turn on a target is -1 and two mortars +1 (p37)."""
    g = next(g for g in map(_called, range(30)) if g is not None)
    call = next(e for e in g.events if e.type == "call_down")
    assert call.data["result"] == "arrives" and call.visible_to == ("germany",)
    assert any("call-down" in line for line in call.explanation)
    assert g.view("germany")["panzerfaust"]["markers"][0]["kind"] == "bz"
    zone = inside(g, (95, 24), 15)
    advance(g, "I", 1)
    (h,) = [e for e in g.events if e.type == "bz_results"]
    assert {r["target"] for r in h.data["results"]} == zone
    lines = next(e for e in g.events if e.type == "bz_results_seen" and e.visible_to == ("britain",)).explanation  # fmt: skip
    assert any("mortar's first turn" in line for line in lines)
    assert any("2 pairs/mortars" in line for line in lines)
    again = g.replay()
    assert again.state_hash() == g.state_hash()


def _both(seed: int) -> Game | None:
    g = Game(scenario(), seed=seed)
    g.submit("germany", {"type": "fire_mission", "battery": "g-mtr", "x": 95, "y": 24})
    advance(g, "E", 1)
    g.submit("germany", {"type": "call_down", "battery": "g-mtr", "observer": "g-fao"})
    return g if len([e for e in g.events if e.type == "barrage"]) == 2 else None


def test_a_turn_where_map_fire_and_a_call_down_both_land():
    """Turn 1: the 105 mm battery's map fire (p37) and the mortars called down by the FAO
    (p36) land together; an element under both zones is diced once for each (p36)."""
    g = next(g for g in map(_both, range(30)) if g is not None)
    zones = [((90, 22), 12), ((95, 24), 15)]
    covered = {u: sum(u in inside(g, xy, r) for xy, r in zones) for u in g.state.elements}
    advance(g, "I", 1)
    (h,) = [e for e in g.events if e.type == "bz_results"]
    rolled = {u: sum(r["target"] == u for r in h.data["results"]) for u in g.state.elements}
    assert rolled == covered and max(covered.values()) == 2
    assert g.replay().state_hash() == g.state_hash()


@pytest.mark.parametrize(
    ("cmd", "reason"),
    [
        ({"type": "call_down", "battery": "g-bty", "observer": "g-fao"}, "no written POA"),
        ({"type": "call_down", "battery": "g-mtr", "observer": "g-inf-1"}, "neither an FAO"),
        ({"type": "call_down", "battery": "g-mtr", "observer": "b-fao"}, "not an element of yours"),
    ],
)
def test_illegal_call_downs_are_refused_with_their_reason(cmd, reason):
    g = Game(scenario(batteries__0__plan=[]), seed=2)
    g.submit("germany", {"type": "fire_mission", "battery": "g-mtr", "x": 95, "y": 24})
    advance(g, "E", 1)
    with pytest.raises(IllegalCommand, match=reason):
        g.submit("germany", cmd)


def test_an_fao_that_cannot_see_the_point_cannot_call_it_down():
    g = Game(scenario(batteries__0__plan=[]), seed=2)
    g.submit("germany", {"type": "fire_mission", "battery": "g-mtr", "x": 100, "y": 40})
    advance(g, "E", 1)  # the farm stands between the FAO and the point
    assert g.legal_commands("germany") == [{"type": "end_phase"}]  # no observer to call it
    with pytest.raises(IllegalCommand):
        g.submit("germany", {"type": "call_down", "battery": "g-mtr", "observer": "g-fao"})


def test_a_zone_catches_sitters_arrivals_and_leavers_at_their_exit_point():
    """p36: in the zone all turn (whole), ended in it or left it (partial, -1 p37); a leaver
    is diced where it crossed the edge (p6 F)."""
    g = Game(scenario(), seed=1)
    st = g.state
    left, came, passed = st.elements["b-inf-2"], st.elements["b-inf-1"], st.elements["b-tk-1"]
    left.path, (left.x, left.y) = [[95, 24, 0], [95, 44, 20]], (95, 44)
    came.path, (came.x, came.y) = [[85, 44, 0], [85, 24, 20]], (85, 24)
    passed.path, (passed.x, passed.y) = [[60, 30, 0], [130, 30, 70]], (130, 30)
    got = {
        e.id: (partial, at) for e, partial, at in support.caught(st, support.circle((95, 24), 12))
    }
    assert got["b-inf-hq"] == (False, None)
    assert got["b-inf-2"][0] and got["b-inf-2"][1] == pytest.approx([95, 36], abs=0.5)
    assert got["b-inf-1"] == (True, None)
    x = 95 + math.sqrt(12**2 - 6**2)  # leaves the circle where y = 30
    assert got["b-tk-1"][0] and got["b-tk-1"][1] == pytest.approx([x, 30], abs=0.5)


# ----------------------------------------------------------------------------- scenario checks
@pytest.mark.parametrize(
    ("changes", "error", "message"),
    [
        ({"batteries__0__plan": [{"x": 90, "y": 22, "turns": [1, 2, 3]},
                                     {"x": 20, "y": 20, "turns": [5]}]},
         ValueError, "before the p37 delay after turn 3"),
        ({"batteries__1__calibre_mm": 81}, ValueError, "under 90 mm cannot be used off"),
        ({"batteries__0__count": 5}, ValueError, "a battery has 2-8 guns"),
        ({"aircraft__0__count": 2}, ValueError, "give each aircraft its own entry"),
        ({"batteries__0__map_fire": False}, ValueError, "a map-fire plan needs map_fire"),
        ({"batteries__0__type": "germany/no-such-gun"}, ValueError, "forces.germany.batteries"),
        ({"batteries__1__type": "common/rocket-15cm-nbw41"}, ValueError,
         "rockets fire only map fire"),
        ({"batteries__0__type": "common/rocket-15cm-nbw41", "batteries__0__count": 1,
          "batteries__0__plan": [{"x": 90, "y": 22, "turns": [1, 5]}]}, ValueError,
         "turns 1 and 5: it fires every 7th move"),
        ({"batteries__0__type": "common/rocket-28-32cm-swg41", "batteries__0__count": 1,
          "batteries__0__plan": [{"x": 90, "y": 22, "turns": [1, 9]}]}, ValueError,
         "single-shot rockets fire once"),
        ({"batteries__0__type": "germany/nbw-41-set"}, ValueError, "rockets-table record"),
    ],
)  # fmt: skip
def test_scenario_support_errors_name_what_is_wrong(changes, error, message):
    with pytest.raises(error, match=message):
        Game(scenario(**changes), seed=1)


def test_map_fire_may_change_target_after_the_veterans_three_turns():
    """p37 worked example: a veteran battery on map fire turns 1-3 fires again from turn 6."""
    plan = [{"x": 90, "y": 22, "turns": [1, 2, 3]}, {"x": 20, "y": 20, "turns": [6, 7]}]
    Game(scenario(batteries__0__plan=plan), seed=1)  # accepted


def test_nebelwerfer_map_fire_hits_on_7_in_a_40_cm_zone():
    """p38: a 15 cm NbW41 set (reload 6: every 7th move, turns 1 and 8) fires map fire only;
    its zone is 40 cm and German 15/21/30 cm rockets hit on 7, not 8."""
    plan = [{"x": 90, "y": 22, "turns": [1, 8]}]
    g = Game(scenario(batteries__0__type="common/rocket-15cm-nbw41", batteries__0__count=1,
                      batteries__0__calibre_mm=150, batteries__0__plan=plan), seed=2)  # fmt: skip
    with pytest.raises(IllegalCommand, match="map fire written before the game"):
        g.submit("germany", {"type": "fire_mission", "battery": "g-bty", "x": 50, "y": 50})
    advance(g, "F", 1)
    (b,) = [e for e in g.events if e.type == "barrage"]
    assert b.data["radius"] == 40 and b.data["rocket"] and b.data["heavy_rocket"]
    advance(g, "I", 1)
    (h,) = [e for e in g.events if e.type == "bz_results"]
    assert {r["target"] for r in h.data["results"]} == inside(g, (90, 22), 40) | {
        r["target"] for r in h.data["results"] if g.state.elements[r["target"]].lost
    }
    lines = [ln for e in g.events if e.type == "bz_results_seen" for ln in e.explanation]
    assert any("base 7 (rockets, p38)" in ln for ln in lines)


# ----------------------------------------------------------------------------- phases C, I
def test_an_air_strike_warned_a_turn_ahead_meets_aa_fire_then_bombs():
    """The Ju 87D's prepared strike of turn 2 (p42): the British are warned in phase C of turn
    1 of its approach and altitude only; in phase I their LMG team fires AA (2D6 <= 3 +1
    against a dive-bomber, p43); if the aircraft gets through, its bombs (row 2: 12 cm for a
    dive-bomber) roll against everything in the zone (3D6 <= 8 +1 dive-bomber, p43)."""
    g = Game(scenario(batteries__0__plan=[]), seed=4)
    advance(g, "D", 1)
    (w,) = [e for e in told(g, "britain") if e.type == "air_warning"]
    assert w.data == {"turn": 2, "heading": 180, "altitude": "low"}
    advance(g, "D", 2)
    assert [e.type for e in told(g, "germany") if e.type == "air_incoming"] == ["air_incoming"]
    advance(g, "I", 2)
    assert g.rules.active_sides(g.state) == ["britain"]
    assert {"type": "aa_fire", "unit": "b-inf-1", "aircraft": "stuka"} in g.legal_commands(
        "britain"
    )
    with pytest.raises(IllegalCommand, match="has no AA weapon"):
        g.submit("britain", {"type": "aa_fire", "unit": "b-inf-2", "aircraft": "stuka"})
    with pytest.raises(IllegalCommand, match="not an enemy aircraft"):
        g.submit("britain", {"type": "aa_fire", "unit": "b-inf-1", "aircraft": "b-tk-1"})
    zone = inside(g, (90, 22), 12)
    g.submit("britain", {"type": "aa_fire", "unit": "b-inf-1", "aircraft": "stuka"})
    shot = next(e for e in g.events if e.type == "aa_shot")
    assert any("against a dive-bomber" in line for line in shot.explanation)
    assert g.state.phase != "I" or "b-inf-1" not in json.dumps(g.legal_commands("britain"))
    if "britain" in g.rules.active_sides(g.state):
        g.submit("britain", {"type": "end_phase"})
    done = [e for e in g.events if e.type in ("air_attack", "air_aborted")]
    assert len(done) == 1
    if shot.data["result"] in ("miss", "no_effect"):
        (a,) = done
        assert a.type == "air_attack" and {r["target"] for r in a.data["results"]} == zone
        seen = next(e for e in told(g, "britain") if e.type == "air_attack_seen")
        assert any("dive-bomber" in line for line in seen.explanation)
    st = support.peek(g.state, "aircraft", "stuka")
    assert st.get("next") == 6 or st.get("gone")  # 3 turns to turn round (p42)
    assert g.replay().state_hash() == g.state_hash()


def test_aircraft_machine_guns_roll_once_with_one_per_extra_gun():
    """p43: one roll per target for all the guns of a calibre, +1 per extra gun (the Ju 87D's
    two MMGs: +1), in a 15 x 40 cm strip along the approach."""
    g = Game(scenario(batteries__0__plan=[], aircraft__0__bomb_row=None,
                      aircraft__0__prepared=[]), seed=6)  # fmt: skip
    st = g.state
    p = support.plane(st, "germany", "stuka")
    assert orders_air.attack_weapon(st, p, False) == "mmg"
    strike = {"x": 90.0, "y": 22.0, "heading": 90.0, "altitude": "low", "prepared": None}
    drafts = orders_air._attack(st, "germany", p, strike, "mmg", random.Random(1))
    res = drafts[0].data["results"]
    strip = support.rectangle((90, 22), 90, 40, 15)
    want = {e.id for e in st.elements.values() if e.on_table and strip(e.x, e.y)}
    assert {r["target"] for r in res} == want and len(res) == len(want)
    lines = [line for d in drafts[1:] for line in d.explanation]
    assert any("1 extra gun(s)" in line for line in lines)


# ----------------------------------------------------------------------------- fog
def _secret_names(g: Game, side: str) -> set[str]:
    """The other side's battery and aircraft names that `side` has not seen over the table."""
    enemy = g.state.enemy(side)
    names = {b.id for _, b in support.batteries(g.state, enemy)}
    flown = {m.data["aircraft"] for m in g.state.markers.values() if m.data.get("aircraft")}
    met = {e.data.get("aircraft") for e in g.events if e.visible(side)}
    return names | {p.id for _, p in support.planes(g.state, enemy) if p.id not in flown | met}


@settings(max_examples=4, deadline=None)
@given(st.integers(0, 10_000))
def test_fog_no_side_reads_the_others_orders_before_they_land(seed):
    """Random games with batteries and aircraft: a side's view and the events it may read
    never carry the other side's written orders, battery names or unlanded POAs."""
    g = Game(load_scenario(SUPPORT), seed=seed)
    bots = {s: RandomBot(seed + i) for i, s in enumerate(g.sides)}
    checked = 0
    for _ in range(250):
        if g.outcome is not None:
            break
        side = g.rules.active_sides(g.state)[0]
        act(g, side, bots[side])
        for s in g.sides:
            enemy = g.state.enemy(s)
            told_s = [e for e in g.events if e.visible(s)]
            assert not [e for e in told_s if e.type in ("fire_order", "air_order")
                        and e.data["side"] == enemy]  # fmt: skip
            view = g.view(s)
            marks = view["panzerfaust"]["markers"]
            assert not [m for m in marks if m["kind"] == "poa" and m["side"] == enemy
                        and not m["data"].get("aircraft")]  # fmt: skip
            blob = json.dumps([view, [e.data for e in told_s]])
            for name in _secret_names(g, s):
                assert f'"{name}"' not in blob, (s, name)
                checked += 1
    assert checked > 0


# ----------------------------------------------------------------------------- forces fields
def test_a_battery_with_named_observers_answers_them_alone():
    g = Game(scenario(), seed=2)
    g.submit("germany", {"type": "end_phase"})
    g.submit("britain", {"type": "fire_mission", "battery": "b-bty", "x": 70, "y": 75})
    advance(g, "E", 1)
    with pytest.raises(IllegalCommand, match=r"not one of battery b-bty's observers \(b-fao\)"):
        g.submit("britain", {"type": "call_down", "battery": "b-bty", "observer": "b-co-hq"})


def test_a_battery_stops_after_its_missions():
    plan = [{"x": 90, "y": 22, "turns": [1, 2]}]
    g = Game(scenario(batteries__0__plan=plan, batteries__0__missions=1), seed=2)
    advance(g, "A", 3)
    assert [e.data["battery"] for e in g.events if e.type == "barrage"] == ["g-bty"]
    sheet = g.view("germany")["panzerfaust"]["support"]["batteries"][0]
    assert sheet["missions_left"] == 0


def test_the_scenario_fao_flag_makes_a_team_an_observer():
    g = Game(scenario(companies__0__platoons__0__teams__1__fao=True), seed=2)
    st = g.state
    assert support.role_of(st, st.elements["g-inf-1"], "fao")
    assert not support.role_of(st, st.elements["g-inf-hq"], "fao")
    assert support.role_of(st, st.elements["g-fao"], "fao")  # by its record
