"""Fair play over HTTP (issue 13 items 1, 2, 4; issue 14 item 1): secret seeds, the verify
route, undo by consent, per-seat counters, options as typed per-game settings."""

from __future__ import annotations

import json
import random

import pytest

from kriegsspiel.engine import Game
from kriegsspiel.engine.scenario import find_scenario
from kriegsspiel.engine.store import Store

from .client import SCENARIO, Table
from .test_api import FIRE, to_fire_phase


def create(client, **body):
    return client.post("/api/games", json={"scenario": SCENARIO, **body})


def table(client, **body) -> Table:
    r = create(client, **body)
    assert r.status_code == 201, r.text
    b = r.json()
    return Table(client, b["id"], {s["seat"]: s["token"] for s in b["seats"]}, {})


def test_a_game_without_a_seed_keeps_it_secret_from_every_seat(client):
    t = table(client)
    umpire = t.view("umpire")["game"]
    seed = umpire["seed"]
    assert seed and int(seed).bit_length() > 200
    for seat in ("germany", "usa", "spectator"):
        r = t.get(seat, "view")
        assert r.status_code == 200
        assert seed not in r.text and hex(int(seed))[2:] not in r.text
        assert r.json()["game"]["seed"] is None
        assert r.json()["game"]["commitment"] == umpire["commitment"]
        assert seed not in t.get(seat, "log").text


@pytest.mark.parametrize(
    "raw,field",
    [
        ('{"scenario": "qr-crossroads-armour", "seed": NaN}', "seed"),
        ('{"scenario": "qr-crossroads-armour", "seed": ' + "9" * 401 + "}", "seed"),
        ('{"scenario": "qr-crossroads-armour", "seed": "abc"}', "seed"),
    ],
)
def test_a_bad_seed_is_a_422(client, raw, field):
    r = client.post("/api/games", content=raw, headers={"Content-Type": "application/json"})
    assert r.status_code == 422, r.text
    assert field in r.text


@pytest.mark.parametrize(
    "options,field",
    [
        ({"nope": 1}, "options.nope"),
        ({"morale_dice": "3d10"}, "options.morale_dice"),
        ({"burst_radius": "wide"}, "options.burst_radius"),
        ({"undo": "sometimes"}, "options.undo"),
    ],
)
def test_a_bad_option_is_a_422_naming_it(client, options, field):
    r = create(client, options=options)
    assert r.status_code == 422 and r.json()["detail"]["field"] == field, r.text


def test_options_are_typed_and_shown_in_the_view(client):
    t = table(client, options={"allow_undo": "false", "morale_dice": "2d10"})
    v = t.view("germany")
    assert (
        v["game"]["options"] == {"undo": "off", "spectator_delay": 0}
        and v["options"]["morale_dice"] == "2d10"
    )
    t.command("germany", {"type": "end_phase"})
    r = t.post("germany", "undo")
    assert r.status_code == 400 and "undo is off" in r.json()["reason"]
    names = {o["name"]: o for o in client.get("/api/rulesets/quickref/options").json()}
    assert names["undo"]["choices"] == ["consent", "free", "off"]
    assert names["morale_dice"]["default"] == "1d10"
    assert client.get("/api/rulesets/nope/options").status_code == 404


def test_undo_of_a_shot_needs_the_other_sides_consent(client):
    t = table(client)
    to_fire_phase(t)
    fired = t.command("germany", FIRE)
    assert any(e["type"] == "fire" for e in fired["events"])
    before = t.state_hash()
    req = t.post("germany", "undo")
    assert req.status_code == 200 and req.json()["events"][0]["type"] == "undo_request"
    assert t.state_hash()["hash"] == before["hash"]
    assert t.view("usa")["game"]["undo_request"] == {"by": "germany", "yours_to_answer": True}
    ack = t.command("usa", {"type": "undo_accept"})
    assert ack["events"][0]["type"] == "undo"
    assert t.state_hash()["hash"] != before["hash"]
    # the same shot again rolls the same dice: undo bought no re-roll
    again = t.command("germany", FIRE)
    shots = [[e["explanation"] for e in a["events"] if e["type"] == "fire"] for a in (fired, again)]
    assert shots[0] == shots[1]


def test_seat_logs_are_numbered_without_gaps(client):
    t = table(client)
    t.command("germany", {"type": "hatches", "buttoned": {"g-panther": True}})  # germany only
    t.command("germany", {"type": "end_phase"})
    for seat in ("germany", "usa"):
        log = t.get(seat, "log").json()
        assert [e["index"] for e in log] == list(range(len(log)))
        assert t.view(seat)["game"]["events"] == len(log)
    assert "hatches" not in json.dumps(t.get("usa", "log").json())


def test_verify_route(client, db_url):
    t = table(client)
    assert client.get(f"/api/games/{t.id}/verify").status_code == 403  # the seed is still secret
    r = client.get(f"/api/games/{t.id}/verify", headers={"X-Token": t.tokens["umpire"]})
    assert r.status_code == 200 and r.json()["ok"] is True
    # a finished game (played in the engine, saved in the same store): anyone may verify it
    from tests.engine.play import random_play

    g = Game(find_scenario("qr-crossroads-armour"))
    random_play(g, random.Random(1))
    assert g.outcome is not None
    Store(db_url).create(g)
    r = client.get(f"/api/games/{g.id}/verify")
    assert r.status_code == 200 and r.json()["ok"] is True and r.json()["seed"] == str(g.seed)
