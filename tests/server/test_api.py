"""The HTTP API: games, seats and tokens, commands acknowledged after commit, errors as 4xx."""

from __future__ import annotations

import hashlib

import pytest

from kriegsspiel.engine.store import Store
from kriegsspiel.server import create_app

from .client import Table, play_step
from .conftest import TestClient

FIRE = {"type": "fire", "unit": "g-panther", "target": "u-m4a"}


def to_fire_phase(t: Table) -> None:
    for side in ("germany", "usa"):
        t.command(side, {"type": "end_phase"})
    assert t.view("germany")["phase"] == "fire_all"


def test_create_gives_a_token_and_link_per_seat_and_stores_only_digests(client, db_url):
    t = Table.create(client)
    assert set(t.tokens) == {"germany", "usa", "umpire"}
    assert len(set(t.tokens.values())) == 3
    for seat, link in t.links.items():
        assert f"game={t.id}" in link and f"seat={seat}" in link and t.tokens[seat] in link
    meta = Store(db_url).meta(t.id)
    assert meta["seats"] == {s: hashlib.sha256(k.encode()).hexdigest() for s, k in t.tokens.items()}
    assert not any(tok in str(meta) for tok in t.tokens.values())


def test_scenarios_list_the_shipped_quickref_games(client):
    ids = {s["id"] for s in client.get("/api/scenarios").json()}
    assert {"qr-crossroads-armour", "qr-village-assault"} <= ids


@pytest.mark.parametrize(
    "method,what,body",
    [
        ("get", "view", None),
        ("get", "log", None),
        ("post", "commands", {"type": "end_phase"}),
        ("post", "odds", FIRE),
        ("post", "undo", None),
    ],
)
def test_a_token_acts_only_for_its_own_seat(client, method, what, body):
    t = Table.create(client)
    for seat, wrong in [("germany", "usa"), ("usa", "germany"), ("umpire", "germany")]:
        kwargs = {"json": body} if method == "post" else {}
        for token in (t.tokens[wrong], "not-a-token", ""):
            headers = {"X-Token": token} if token else {}
            r = getattr(client, method)(t.url(seat, what), headers=headers, **kwargs)
            assert r.status_code == 403, (seat, token, r.text)
        r = getattr(client, method)(t.url(seat, what) + f"?token={t.tokens[wrong]}", **kwargs)
        assert r.status_code == 403
    assert t.view("germany")["game"]["events"] == t.state_hash()["events"]  # nothing changed


def test_spectators_need_no_token_and_cannot_command(client):
    t = Table.create(client)
    view = client.get(t.url("spectator", "view")).json()
    assert view["you"] == "spectator" and view["legal"] == [] and view["units"] == []
    assert (
        client.post(t.url("spectator", "commands"), json={"type": "end_phase"}).status_code == 403
    )


def test_a_delayed_spectator_is_served_the_full_game_turns_behind(client):
    """Issue 15 item 11: the per-game option spectator_delay=1 serves the spectator, over HTTP
    and the socket alike, the whole table as it stood when the previous turn began."""
    r = client.post(
        "/api/games",
        json={"scenario": "qr-crossroads-armour", "seed": 3, "options": {"spectator_delay": 1}},
    )
    body = r.json()
    t = Table(client, body["id"], {s["seat"]: s["token"] for s in body["seats"]}, {})
    start = {u["id"]: (u["x"], u["y"]) for u in t.view("umpire")["units"]}
    first = client.get(t.url("spectator", "view")).json()
    assert first["spectator"]["mode"] == "public" and first["units"] == []
    while (umpire := t.view("umpire"))["turn"] < 2:  # every step passed: nobody moves
        side = umpire["active"][0]
        pick = [c for c in t.view(side)["legal"] if c["type"] == "initiative"]
        t.command(side, pick[0] if pick else {"type": "end_phase"})
    view = client.get(t.url("spectator", "view")).json()
    assert view["spectator"] == {"mode": "delayed", "delay": 1, "as_of_turn": 1, "turn": 2}
    assert {u["id"]: (u["x"], u["y"]) for u in view["units"]} == start  # nobody moved yet
    with client.websocket_connect(f"/api/games/{t.id}/ws") as ws:
        assert ws.receive_json()["view"] == view


def test_unknown_game_seat_and_scenario(client):
    t = Table.create(client)
    assert client.get("/api/games/nosuchgame/seats/germany/view").status_code == 404
    assert t.get("italy", "view").status_code == 404
    assert client.get(f"/api/games/{t.id}/state-hash").status_code == 403
    r = client.post("/api/games", json={"scenario": "nope"})
    assert r.status_code == 422 and r.json()["detail"]["field"] == "scenario"
    r = client.post("/api/games", json={"scenario": "/etc/passwd.yaml"})
    assert r.status_code == 422
    r = client.post("/api/games", json={"scenario": "qr-crossroads-armour", "seed": -1})
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["body", "seed"]


def test_bad_commands_are_4xx_naming_the_field_and_change_nothing(client):
    t = Table.create(client)
    to_fire_phase(t)
    before = t.state_hash()
    r = t.post("germany", "commands", {"type": "fire", "unit": "u-m4a", "target": "g-panther"})
    assert r.status_code == 400 and r.json()["field"] and r.json()["reason"]
    r = t.post("germany", "commands", {"unit": "g-panther"})
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["body", "type"]
    r = t.post("germany", "commands", [1, 2])
    assert r.status_code == 422
    r = t.post("germany", "odds", {"type": "fire", "unit": "g-panther", "target": "u-m4b"})
    assert r.status_code == 400 and r.json()["field"] == "target"
    assert t.state_hash() == before


def test_odds_preview_then_fire_the_events_are_the_seats_own(client):
    t = Table.create(client)
    to_fire_phase(t)
    odds = t.post("germany", "odds", FIRE).json()
    assert sum(odds["outcomes"].values()) == pytest.approx(1)
    assert odds["exact"] == {"miss": "1/2", "ko": "2/5", "damaged": "1/10"}
    ack = t.command("germany", FIRE)
    assert ack["seat"] == "germany" and ack["events"]
    log = {e["index"]: e for e in t.get("germany", "log").json()}
    for e in ack["events"]:
        assert log[e["index"]] == e
        assert e["visible_to"] is None or "germany" in e["visible_to"]
    assert any(e["explanation"] for e in ack["events"])


def test_acknowledged_commands_are_in_the_store_and_replay_to_the_same_state(client, db_url):
    t = Table.create(client)
    for _ in range(12):
        assert play_step(t) is not None
    expected = t.state_hash()
    with TestClient(create_app(db_url)) as fresh:
        assert Table(fresh, t.id, t.tokens, t.links).state_hash() == expected
    assert Store(db_url).load(t.id).replay().state_hash() == expected["hash"]


def test_undo_by_the_author_only(client):
    t = Table.create(client)
    t.command("germany", {"type": "end_phase"})
    before = t.state_hash()
    t.command("usa", {"type": "end_phase"})
    assert t.post("germany", "undo").status_code == 400
    ack = t.post("usa", "undo")
    assert ack.status_code == 200 and ack.json()["events"][0]["type"] == "undo"
    assert t.state_hash()["hash"] == before["hash"]
