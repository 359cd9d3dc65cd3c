"""Panzerfaust pre-game (seed 000 pp. 4-5, weather pp. 9-11): every table result reached by
forced dice, determinism per seed, the set-up checks, and JSON round trips (hypothesis)."""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kriegsspiel.data.errors import RuleError
from kriegsspiel.engine.scenario import Scenario
from kriegsspiel.rulesets.panzerfaust.game.pregame import PreGame, pregame
from kriegsspiel.rulesets.panzerfaust.rules import weather as wx
from kriegsspiel.rulesets.panzerfaust.rules.tables import rules


class Dice(random.Random):
    """A Random whose d6 faces come from a script (the rules' own dice source reads randint)."""

    def __init__(self, faces):
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a, b):
        assert (a, b) == (1, 6)
        return self.faces.pop(0) if self.faces else 3


def _team(i, **kw):
    return {"id": f"t{i}", "type": "infantry_team:germany/rifle-team", **kw}


def _raw(pre: dict | None = None, **forces) -> dict:
    blocks = {
        "a": {"companies": [{"id": "ca", "platoons": [{"id": "pa", "teams": [_team(1)]}]}]},
        "b": {
            "companies": [
                {
                    "id": "cb",
                    "troop_class": "veteran",
                    "platoons": [
                        {"id": "pb1", "teams": [_team(2)]},
                        {"id": "pb2", "teams": [_team(3)]},
                    ],
                }
            ]
        },
    }
    for side, extra in forces.items():
        blocks[side] = blocks[side] | extra
    return {
        "id": "pg",
        "name": "Pre-game",
        "ruleset": "panzerfaust",
        "table": {"width": 180, "depth": 120, "unit": "cm"},
        "sides": [
            {"id": "a", "name": "A", "nation": "germany", "edge": "south"},
            {"id": "b", "name": "B", "nation": "germany", "edge": "north"},
        ],
        "forces": blocks,
        "objectives": [{"id": "o", "name": "O", "x": 90, "y": 60, "radius": 10}],
        "victory": {
            "turn_limit": 8,
            "conditions": [{"kind": "hold", "side": "a", "objectives": ["o"]}],
        },
        "options": {"pregame": pre or {}},
    }


def _sc(pre=None, **forces) -> Scenario:
    return Scenario.model_validate(_raw(pre, **forces))


@pytest.mark.parametrize("total", range(2, 13))
def test_battle_type_table_p4(total):
    # 2D6 split as (1, total-1) or (total-6, 6)
    faces = (1, total - 1) if total <= 7 else (total - 6, 6)
    rec = pregame(_sc(), Dice([*faces, 1, 1]))
    want = {2: "breakthrough", 3: "counter-attack", 12: "breakthrough", 11: "counter-attack"}
    assert rec.battle_type == want.get(
        total, "encounter" if total in (4, 5, 9, 10) else "attack-defence"
    )
    assert rec.rolls[0].label == "battle type" and rec.rolls[0].value == total


def test_season_table_every_face():
    for face, name in {
        1: "spring",
        2: "spring",
        3: "summer",
        4: "summer",
        5: "autumn",
        6: "winter",
    }.items():
        rec = pregame(_sc({"battle_type": "encounter", "wind": "none"}), Dice([face, 3, 4]))
        assert rec.weather.season == name


COLUMNS = [(s, season) for s in ("ne", "med", "nr") for season in wx.SEASONS.values()]


@pytest.mark.parametrize(("sphere", "season"), sorted(set(COLUMNS)) + [("tropical", "summer")])
def test_every_weather_cell_is_reached(sphere, season):
    """Every 2D6 total of every column gives the table's conditions (p10), through pregame."""
    table = rules()
    col = "tropical" if sphere == "tropical" else f"{sphere}_{season}"
    for total in range(2, 13):
        faces = (1, total - 1) if total <= 7 else (total - 6, 6)
        pre = {"battle_type": "encounter", "sphere": sphere, "season": season, "wind": "none"}
        rec = pregame(_sc(pre), Dice(faces))
        cell, _ = table.cell("weather-determination-table", str(total), col)
        assert rec.weather.conditions == [wx.CODES[c.strip()] for c in str(cell).split(",")]
        for c in rec.weather.conditions:
            assert (c in rec.weather.lasts_turns) == (c in ("mist", "fog", "rain", "snow_falling"))


def test_desert_is_clear_and_windy_night_is_rolled():
    pre = {
        "battle_type": "encounter",
        "sphere": "desert",
        "season": "summer",
        "time_of_day": "night",
    }
    rec = pregame(_sc(pre), Dice([5, 2, 4]))  # wind 5+1 = gale, direction E, night (desert: tenth)
    assert rec.weather.conditions == ["clear"]
    assert (rec.weather.wind, rec.weather.wind_direction) == ("gale", "E")
    assert rec.weather.night_visibility == "tenth"
    rec = pregame(
        _sc(pre | {"sphere": "ne", "weather": ["clear"]}), Dice([1, 4])
    )  # summer: 4 - 1 = 3
    assert rec.weather.wind == "none" and rec.weather.night_visibility == "twentieth"


def test_same_seed_same_record_and_seeds_differ():
    a = pregame(_sc(), random.Random(11))
    assert a == pregame(_sc(), random.Random(11))
    assert len({pregame(_sc(), random.Random(s)).model_dump_json() for s in range(12)}) > 1


def test_encounter_deployment_lowest_class_first_and_ratio():
    rec = pregame(_sc({"battle_type": "encounter"}), Dice([]))
    assert rec.deploy_order == ["a", "b"]  # b is veteran, a regular (p5)
    assert rec.platoons_at_a_time == {"a": 1, "b": 2}
    assert not rec.map_fire and not rec.counters
    assert [z.polygon[2] for z in rec.zones] == [(180.0, 15.0), (180.0, 120.0)]
    # equal classes: 1D6 each, tie re-rolled, the lower starts
    even = _raw({"battle_type": "encounter"})
    even["forces"]["b"]["companies"][0]["troop_class"] = "regular"
    rec = pregame(Scenario.model_validate(even), Dice([4, 4, 5, 2]))
    assert rec.deploy_order == ["b", "a"] and len(rec.rolls) >= 4


def test_breakthrough_exit_chooser_and_zones():
    pre = {"battle_type": "breakthrough"}
    roles = {"a": {"role": "attacker"}, "b": {"role": "defender"}}
    for face, chooser, secret in ((4, "a", True), (5, "b", False)):
        rec = pregame(_sc(pre, **roles), Dice([face]))
        assert rec.exit_area.chooser == chooser and rec.exit_area.secret is secret
        assert rec.exit_area.edge == "north"
    zones = {z.side: z for z in rec.zones}
    assert zones["a"].enters_from_edge and zones["a"].polygon is None
    assert zones["b"].polygon[0] == (0.0, 30.0)  # the defender's 75 % (p4)
    assert rec.map_first == "b" and rec.deploy_order == ["a", "b"] and rec.counters


def test_rolled_objectives_p5():
    pre = {"battle_type": "attack-defence", "objectives": "roll"}
    kinds = {1: "two-locations", 3: "one-location", 6: "destroy-share"}
    for face, kind in kinds.items():
        rec = pregame(_sc(pre), Dice([face]))
        assert rec.objective_kind == kind
        assert len(rec.objectives) == {"two-locations": 2, "one-location": 1}.get(kind, 0)
        for o in rec.objectives:  # in the defender's (north) ground, short of its back 25 %
            assert 30 <= o.y <= 90 and o.radius == 10


def test_setup_rules_refuse():
    dummies = {"dummies": [{"id": "d", "x": 5, "y": 5}]}
    hidden = {
        "companies": [
            {"id": "ca", "platoons": [{"id": "pa", "teams": [_team(1, x=5, y=5, hidden=True)]}]}
        ]
    }
    with pytest.raises(RuleError, match="dummy counters are for the defender"):
        pregame(_sc({"battle_type": "encounter"}, a=dummies | hidden), Dice([]))
    works = {"works": [{"id": "w", "type": "fieldwork:common/entrenchment", "x": 5, "y": 5}]}
    with pytest.raises(RuleError, match="no defences or dug-in units in a counter-attack"):
        pregame(_sc({"battle_type": "counter-attack"}, a=works), Dice([]))
    with pytest.raises(RuleError, match="does not fit a encounter"):
        pregame(_sc({"battle_type": "encounter"}, a={"role": "attacker"}), Dice([]))
    with pytest.raises(RuleError, match="unknown"):
        pregame(_sc({"battle_type": "encounter", "weather": ["sunny"]}), Dice([]))


def test_arrivals_merge_forces_and_reinforcements():
    raw = _raw(
        {"battle_type": "attack-defence"}, b={"arrivals": [{"turn": 2, "platoons": ["pb2"]}]}
    )
    raw["forces"]["b"]["companies"][0]["platoons"][1]["teams"][0].pop("x", None)
    raw["reinforcements"] = [
        {
            "turn": 1,
            "side": "a",
            "edge": "west",
            "forces": {
                "companies": [{"id": "cr", "platoons": [{"id": "pr", "teams": [_team(9)]}]}]
            },
        }
    ]
    rec = pregame(Scenario.model_validate(raw), Dice([]))
    assert [(e.side, e.turn, e.edge, e.platoons) for e in rec.arrivals] == [
        ("a", 1, "west", ["pr"]),
        ("b", 2, "north", ["pb2"]),
    ]


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    battle=st.sampled_from([None, "encounter", "attack-defence", "counter-attack", "breakthrough"]),
    sphere=st.sampled_from(["ne", "med", "nr", "tropical", "desert"]),
    night=st.booleans(),
    objectives=st.sampled_from(["scenario", "roll"]),
)
def test_any_record_round_trips_json(seed, battle, sphere, night, objectives):
    pre = {"sphere": sphere, "time_of_day": "night" if night else "day", "objectives": objectives}
    if battle:
        pre["battle_type"] = battle
    rec = pregame(_sc(pre), random.Random(seed))
    again = PreGame.model_validate_json(rec.model_dump_json())
    assert again == rec
    assert again.model_dump(mode="json") == rec.model_dump(mode="json")


def test_scenario_choices_are_validated():
    with pytest.raises(ValueError, match="season"):
        pregame(_sc({"season": "monsoon"}), Dice([]))
    assert copy.deepcopy(_raw())["options"] == {"pregame": {}}
