"""Panzerfaust's forces block: records of the army lists, HQs, riders, hidden deployment with
dummies (p5: at most one per real counter), arrivals, batteries with observers, works."""

from __future__ import annotations

import copy

import pytest
from pydantic import ValidationError

from kriegsspiel.rulesets.panzerfaust.forces import validate_forces

HT = "afv:germany/sdkfz-251-1"


def _block() -> dict:
    return {
        "nation": "germany",
        "role": "defender",
        "companies": [
            {
                "id": "c1",
                "platoons": [
                    {
                        "id": "p1",
                        "teams": [
                            {"id": "ht1", "type": HT, "x": 20, "y": 30, "hq": "platoon"},
                            {
                                "id": "r1",
                                "type": "infantry_team:germany/rifle-team",
                                "transport": "ht1",
                                "x": 20,
                                "y": 30,
                            },
                            {
                                "id": "r2",
                                "type": "germany/rifle-team",
                                "x": 40,
                                "y": 60,
                                "hidden": True,
                                "hq": "company",
                                "fao": True,
                            },
                        ],
                    },
                    {"id": "p2", "teams": [{"id": "r3", "type": "germany/smg-team"}]},
                ],
            }
        ],
        "dummies": [{"id": "d1", "x": 50, "y": 70}],
        "arrivals": [{"turn": 3, "platoons": ["p2"], "edge": "north"}],
        "batteries": [
            {"id": "b1", "type": "battery:common/offboard-light-85-90mm", "observers": ["r2"]}
        ],
        "works": [
            {
                "id": "mf1",
                "type": "fieldwork:common/at-mine",
                "hidden": True,
                "polygon": [[0, 0], [10, 0], [10, 10]],
                "density": "dense",
            },
            {"id": "tr1", "type": "fieldwork:common/entrenchment", "x": 40, "y": 60},
        ],
    }


def test_a_full_block_validates_with_its_references():
    f = validate_forces(_block(), "germany")
    assert [t.id for t in f.pieces()] == ["ht1", "r1", "r2", "r3"]
    assert f.pieces()[1].transport == "ht1" and f.pieces()[2].hidden
    assert f.platoon("p2").teams[0].placed is False
    assert f.batteries[0].observers == ["r2"] and f.works[0].hidden


def _error(mutate) -> str:
    raw = copy.deepcopy(_block())
    mutate(raw)
    with pytest.raises(ValidationError) as exc:
        validate_forces(raw, "germany")
    return "\n".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.value.errors())


def _team(raw, i):
    return raw["companies"][0]["platoons"][0]["teams"][i]


@pytest.mark.parametrize(
    ("mutate", "where", "what"),
    [
        (lambda r: _team(r, 0).update(type="afv:germany/tiger-iii"), "teams.0.type", "unknown afv"),
        (lambda r: _team(r, 1).update(transport="ht9"), "teams.1.transport", "no such vehicle"),
        (lambda r: _team(r, 1).update(transport="r2"), "teams.1.transport", "not a vehicle"),
        (lambda r: _team(r, 1).update(x=25), "teams.1.x", "rider stands where"),
        (lambda r: r["dummies"].append({"id": "d2", "x": 1, "y": 1}), "dummies", "at most one"),
        (
            lambda r: r["arrivals"][0]["platoons"].append("p7"),
            "arrivals.0.platoons.1",
            "no platoon",
        ),
        (lambda r: r["arrivals"][0].update(platoons=["p1"]), "arrivals.0.platoons.0", "not placed"),
        (lambda r: r["batteries"][0]["observers"].append("zz"), "observers.1", "no team 'zz'"),
        (lambda r: _team(r, 0).update(entrenched="nowhere"), "teams.0.entrenched", "no work"),
        (lambda r: _team(r, 1).update(hq="platoon"), "platoons.0.teams", "more than one platoon"),
        (
            lambda r: r["batteries"][0].update(type="battery:common/nope"),
            "batteries.0.type",
            "nope",
        ),
        (lambda r: _team(r, 2).update(id="r1"), "teams.2.id", "duplicate id"),
    ],
)
def test_each_broken_reference_names_its_field(mutate, where, what):
    msg = _error(mutate)
    assert where in msg and what in msg, msg
