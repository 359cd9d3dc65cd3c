"""Scenario format v2 (issue 14 item 4): a generic core plus per-side forces blocks validated by
each ruleset's own model, errors with file, line and field, and the victory predicates."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from kriegsspiel.data.errors import DataError
from kriegsspiel.engine import Game
from kriegsspiel.engine.scenario import Scenario, find_scenario, load_scenario, scenario_dirs
from kriegsspiel.engine.victory import PieceStatus, decide, holder, loss_share, occupies

SHIPPED = {
    load_scenario(f).id: f for _, folder in scenario_dirs() for f in sorted(folder.glob("*.yaml"))
}


def _v1(sid: str) -> dict:
    return yaml.safe_load(SHIPPED[sid].read_text())


def _to_v2(raw: dict) -> dict:
    """The v1 file with every side's units moved into a forces block."""
    raw = json.loads(json.dumps(raw))
    raw["forces"] = {s["id"]: {"units": s.pop("units")} for s in raw["sides"]}
    return raw


def _write(tmp_path: Path, raw: dict, text: str | None = None) -> Path:
    p = tmp_path / "s.yaml"
    p.write_text(text if text is not None else yaml.safe_dump(raw, sort_keys=False))
    return p


def test_v1_and_v2_forms_make_the_same_game(tmp_path):
    v1 = find_scenario("qr-crossroads-armour")
    v2 = load_scenario(_write(tmp_path, _to_v2(_v1("qr-crossroads-armour"))))
    for side in v1.side_ids:
        assert v1.pieces(side) == v2.pieces(side)
    a, b = Game(v1, seed=5), Game(v2, seed=5)
    assert a.state_hash() == b.state_hash()


def test_a_stored_scenario_reads_back_the_same():
    """The store keeps `model_dump()` as JSON and validates it again (engine/store.py)."""
    sc = find_scenario("qr-village-assault")
    back = Scenario.model_validate(json.loads(json.dumps(sc.model_dump())))
    assert back == sc and back.pieces("germany") == sc.pieces("germany")
    assert back.forces_of("germany").units[1].hidden is True  # quickref's own field survives


def _issues(path: Path) -> list[str]:
    with pytest.raises(DataError) as err:
        load_scenario(path)
    return [str(i) for i in err.value.issues]


def test_an_error_inside_a_forces_block_names_file_line_and_field(tmp_path):
    raw = _to_v2(_v1("qr-crossroads-armour"))
    text = yaml.safe_dump(raw, sort_keys=False).replace("y: 3.0", "y: far", 1)
    text = text.replace("y: 3\n", "y: far\n", 1)
    path = _write(tmp_path, raw, text)
    issues = _issues(path)
    lines = path.read_text().splitlines()
    bad = next(i for i, line in enumerate(lines, 1) if "far" in line)
    assert any(f"s.yaml:{bad} [forces.usa.units.0.y]" in i for i in issues), issues


def test_an_error_in_a_v1_unit_keeps_its_place_in_the_file(tmp_path):
    text = (
        SHIPPED["qr-crossroads-armour"]
        .read_text()
        .replace("name: Panther 311,", "name: Panther 311, pips: 3,")
    )
    path = _write(tmp_path, {}, text)
    bad = next(i for i, line in enumerate(text.splitlines(), 1) if "pips" in line)
    issues = _issues(path)
    assert any(f":{bad} [sides.0.units.0.pips]" in i and "Extra" in i for i in issues), issues


def test_objective_radius_defaults_to_the_rulesets(tmp_path):
    raw = _v1("qr-crossroads-armour")
    del raw["objectives"][0]["radius"]
    assert load_scenario(_write(tmp_path, raw)).objectives[0].radius == 3.0  # quickref's default


def test_a_ruleset_without_a_default_radius_needs_one():
    raw = {
        "id": "pf",
        "name": "pf",
        "ruleset": "panzerfaust",
        "table": {"width": 180, "depth": 120, "unit": "cm"},
        "sides": [
            {"id": "a", "name": "A", "nation": "germany"},
            {"id": "b", "name": "B", "nation": "ussr"},
        ],
        "objectives": [{"id": "o", "name": "O", "x": 1, "y": 1}],
        "victory": {"turn_limit": 6, "conditions": []},
    }
    with pytest.raises(ValueError, match="radius"):
        Scenario.model_validate(raw)


def _pf_raw() -> dict:
    team = {"id": "t1", "type": "infantry_team:germany/rifle-team", "x": 10, "y": 20}
    return {
        "id": "pf-meeting",
        "name": "Meeting",
        "ruleset": "panzerfaust",
        "table": {"width": 180, "depth": 120, "unit": "cm"},
        "sides": [
            {"id": "germany", "name": "KG", "nation": "germany", "edge": "north"},
            {"id": "ussr", "name": "Rifles", "nation": "ussr", "edge": "south"},
        ],
        "forces": {
            "germany": {
                "companies": [
                    {
                        "id": "c1",
                        "troop_class": "veteran",
                        "platoons": [
                            {"id": "p1", "teams": [team, {"id": "t2", "type": "germany/smg-team"}]}
                        ],
                    }
                ]
            },
            "ussr": {"companies": []},
        },
        "objectives": [{"id": "o", "name": "O", "x": 90, "y": 60, "radius": 10}],
        "victory": {
            "turn_limit": 8,
            "conditions": [
                {"kind": "exit", "side": "germany", "edge": "south", "count": 2},
                {"kind": "losses", "side": "ussr", "share": 0.5},
            ],
        },
        "reinforcements": [
            {"turn": 3, "side": "ussr", "edge": "east", "forces": {"companies": []}}
        ],
    }


def test_panzerfaust_company_platoon_team_tree():
    sc = Scenario.model_validate(_pf_raw())
    assert [t.id for t in sc.pieces("germany")] == ["t1", "t2"]
    assert sc.pieces("germany")[1].x is None  # still to deploy
    assert sc.forces_of("germany").companies[0].troop_class == "veteran"
    assert sc.reinforcements[0].edge == "east" and sc.arriving(0) == []
    bad = _pf_raw()
    bad["forces"]["germany"]["companies"][0]["troop_class"] = "heroic"
    with pytest.raises(ValueError, match="forces.germany.companies.0.troop_class"):
        Scenario.model_validate(bad)


def test_battleground_figures_squads_and_crews():
    raw = _pf_raw() | {
        "ruleset": "battleground",
        "table": {"width": 48, "depth": 36, "unit": "inch"},
    }
    fig = {
        "id": "sgt",
        "type": "rifleman",
        "x": 1,
        "y": 2,
        "morale": 12,
        "leadership": -1,
        "arms": ["m1"],
    }
    raw["forces"] = {
        "germany": {
            "groups": [
                {"id": "sq1", "figures": [fig]},
                {"id": "crew", "kind": "crew", "vehicle": "m4", "figures": [fig | {"id": "drv"}]},
            ],
            "vehicles": [{"id": "m4", "type": "m4a1", "x": 5, "y": 5}],
        },
        "ussr": {},
    }
    raw["reinforcements"] = []
    sc = Scenario.model_validate(raw)
    assert {p.id for p in sc.pieces("germany")} == {"sgt", "drv", "m4"}
    raw["forces"]["germany"]["groups"][1]["vehicle"] = "tiger"
    with pytest.raises(ValueError, match="vehicle 'tiger'"):
        Scenario.model_validate(raw)
    raw["forces"]["germany"]["groups"][1]["vehicle"] = "m4"
    raw["forces"]["germany"]["groups"][0]["figures"][0]["morale"] = 21
    with pytest.raises(ValueError, match="morale"):
        Scenario.model_validate(raw)


def test_conditions_need_their_fields():
    raw = _pf_raw()
    raw["victory"]["conditions"] = [{"kind": "exit", "side": "germany", "count": 2}]
    with pytest.raises(ValueError, match="needs 'edge'"):
        Scenario.model_validate(raw)
    raw["victory"]["conditions"] = [{"kind": "losses", "side": "germany"}]
    with pytest.raises(ValueError, match="exactly one of 'points' or 'share'"):
        Scenario.model_validate(raw)


def test_forces_for_an_unknown_side_is_an_error():
    raw = _pf_raw()
    raw["forces"]["finland"] = {}
    with pytest.raises(ValueError, match="forces for unknown side 'finland'"):
        Scenario.model_validate(raw)


# ------------------------------------------------------------------------ victory predicates


def _sc(conditions: list[dict], turn_limit: int = 5, default: str | None = None) -> Scenario:
    raw = _pf_raw()
    raw["victory"] = {"turn_limit": turn_limit, "conditions": conditions, "default_winner": default}
    return Scenario.model_validate(raw)


G = [PieceStatus(f"g{i}", "germany", 90, 60 + i, points=10) for i in range(4)]
R = [PieceStatus(f"r{i}", "ussr", 20, 20, points=5) for i in range(4)]


def _lose(pieces: list[PieceStatus], n: int) -> list[PieceStatus]:
    return [
        PieceStatus(p.id, p.side, p.x, p.y, present=i >= n, lost=i < n, points=p.points)
        for i, p in enumerate(pieces)
    ]


def test_destroy_and_losses_decide_at_once():
    sc = _sc([{"kind": "destroy", "side": "germany", "fraction": 0.5}])
    assert decide(sc, G + _lose(R, 1), 1, False) is None
    v = decide(sc, G + _lose(R, 2), 1, False)
    assert v == {"winner": "germany", "reason": "the enemy lost 50% of its units", "turn": 1}
    sc = _sc([{"kind": "losses", "side": "ussr", "points": 20}])
    assert decide(sc, _lose(G, 1) + R, 2, False) is None  # 10 points lost
    assert decide(sc, _lose(G, 2) + R, 2, False)["reason"] == "the enemy lost 20 points"
    sc = _sc([{"kind": "losses", "side": "ussr", "share": 0.75}])
    assert decide(sc, _lose(G, 3) + R, 2, False)["winner"] == "ussr"


def test_exit_counts_pieces_off_the_named_edge():
    sc = _sc([{"kind": "exit", "side": "germany", "edge": "south", "count": 2}])
    gone = [PieceStatus(p.id, p.side, p.x, 0, present=False, exited="south") for p in G[:2]]
    assert decide(sc, gone[:1] + G[1:] + R, 3, False) is None
    assert (
        decide(sc, gone + G[2:] + R, 3, False)["reason"]
        == "2 pieces left by the south edge (2 needed)"
    )
    west = [PieceStatus(p.id, p.side, p.x, 0, present=False, exited="west") for p in G[:2]]
    assert decide(sc, west + G[2:] + R, 3, False) is None


def test_hold_and_occupy_decide_at_the_turn_limit():
    o = {"id": "o", "name": "O", "x": 90, "y": 60, "radius": 10}
    hold = _sc([{"kind": "hold", "side": "germany", "objectives": ["o"]}], default="ussr")
    assert decide(hold, G + R, 5, False) is None  # not before the end of the last turn
    assert decide(hold, G + R, 5, True)["reason"] == "holds o"
    near = [PieceStatus("r9", "ussr", 95, 60)]
    assert decide(hold, G + R + near, 5, True) == {
        "winner": "ussr",
        "reason": "turn limit reached",
        "turn": 5,
    }
    occupy = _sc([{"kind": "occupy", "side": "germany", "objectives": ["o"], "distance": 20}])
    assert decide(occupy, G + R, 5, True)["winner"] == "germany"
    close = [PieceStatus("r9", "ussr", 90, 78)]  # outside the radius, within 20
    assert holder(occupy.objectives[0], G + close) == "germany"
    assert not occupies(occupy.objectives[0], G + close, "germany", 20)
    assert decide(occupy, G + R + close, 5, True)["reason"] == "turn limit reached: draw"
    assert o["radius"] == occupy.objectives[0].radius


_PIECE = st.builds(
    PieceStatus,
    id=st.text("abc", min_size=1, max_size=3),
    side=st.sampled_from(["germany", "ussr"]),
    x=st.floats(0, 180),
    y=st.floats(0, 120),
    present=st.booleans(),
    counts=st.booleans(),
    lost=st.booleans(),
    exited=st.sampled_from([None, "south", "east"]),
    points=st.floats(0, 100),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(_PIECE, max_size=12), st.integers(1, 9), st.booleans())
def test_victory_predicates_invariants(pieces, turn, end):
    """Whatever the pieces: the holder alone has a present piece within the radius; shares
    stay within [0, 1]; a verdict names a side of the scenario or a draw, and at the end of
    the last turn there always is one."""
    sc = _sc(
        [
            {"kind": "destroy", "side": "germany", "fraction": 0.5},
            {"kind": "losses", "side": "ussr", "share": 0.5},
            {"kind": "exit", "side": "ussr", "edge": "south", "count": 2},
            {"kind": "hold", "side": "germany", "objectives": ["o"]},
            {"kind": "occupy", "side": "ussr", "objectives": ["o"], "distance": 15},
        ]
    )
    o = sc.objectives[0]
    near = {p.side for p in pieces if p.present and math.hypot(p.x - o.x, p.y - o.y) <= o.radius}
    assert holder(o, pieces) == (near.pop() if len(near) == 1 else None)
    for side in ("germany", "ussr"):
        assert 0.0 <= loss_share(pieces, side) <= 1.0
    verdict = decide(sc, pieces, turn, end)
    if verdict is not None:
        assert verdict["winner"] in ("germany", "ussr", None) and verdict["reason"]
    if end and turn >= sc.victory.turn_limit:
        assert verdict is not None
