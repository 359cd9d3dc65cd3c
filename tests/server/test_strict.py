"""Strict JSON at the edge (issue 13 item 5, server part): bounded bodies and frames, no NaN or
Infinity accepted, none ever written."""

from __future__ import annotations

import json
import math

import pytest
from starlette.websockets import WebSocketDisconnect

from kriegsspiel.engine.game import Game
from kriegsspiel.engine.scenario import find_scenario
from kriegsspiel.engine.store import Store
from kriegsspiel.server import create_app, strict
from kriegsspiel.server.hub import GameHub
from kriegsspiel.server.limits import Limits

from .client import Table
from .conftest import TestClient

FIRE = {"type": "fire", "unit": "g-panther", "target": "u-m4a"}


@pytest.fixture
def small(tmp_path):
    """The API with 4 KiB bodies and frames."""
    limits = Limits(max_body_bytes=4096, max_frame_bytes=4096)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'g.db'}", limits)) as c:
        yield c


def test_a_body_over_the_limit_is_413_and_changes_nothing(small):
    t = Table.create(small)
    before = t.state_hash()
    big = {"type": "move", "unit": "g-panther", "path": [[10.0, 10.0]] * 1000}
    r = t.post("germany", "commands", big)
    assert r.status_code == 413 and "4096 bytes" in r.json()["detail"]
    # a body streamed without a length is cut off at the limit too
    chunks = (b"x" * 1024 for _ in range(8))
    r = small.post(t.url("germany", "commands"), content=chunks, headers=t.headers("germany"))
    assert r.status_code == 413
    assert t.state_hash() == before
    assert t.post("germany", "commands", {"type": "end_phase"}).status_code == 200


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_in_a_body_are_422_naming_the_field(small, constant):
    t = Table.create(small)
    before = t.state_hash()
    text = '{"type": "move", "unit": "g-panther", "path": [[10, CONST]]}'.replace("CONST", constant)
    r = small.post(
        t.url("germany", "commands"),
        content=text,
        headers={**t.headers("germany"), "content-type": "application/json"},
    )
    assert r.status_code == 422
    (err,) = r.json()["detail"]
    assert err["loc"] == ["body", "path", 0, 1] and "NaN and Infinity" in err["msg"]
    text = '{"scenario": "qr-crossroads-armour", "options": {"x": CONST}}'.replace(
        "CONST", constant
    )
    r = small.post("/api/games", content=text)
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["body", "options", "x"]
    assert t.state_hash() == before


def test_a_socket_frame_over_the_limit_closes_with_the_reason(small):
    t = Table.create(small)
    with small.websocket_connect(f"/api/games/{t.id}/ws?token={t.tokens['germany']}") as ws:
        assert ws.receive_json()["type"] == "view"
        ws.send_text(json.dumps({"type": "command", "id": 1, "command": {"pad": "x" * 5000}}))
        with pytest.raises(WebSocketDisconnect) as exc:
            ws.receive_json()
    assert exc.value.code == 1009 and "limit is 4096" in exc.value.reason


def test_nan_in_a_socket_command_is_an_error_naming_the_field(small):
    t = Table.create(small)
    before = t.state_hash()
    with small.websocket_connect(f"/api/games/{t.id}/ws?token={t.tokens['germany']}") as ws:
        assert ws.receive_json()["type"] == "view"
        ws.send_text('{"type": "command", "id": 3, "command": {"type": "move", "x": NaN}}')
        err = ws.receive_json()
        assert err["type"] == "error" and err["field"] == "command.x"
    assert t.state_hash() == before


def test_strict_loads_and_dumps():
    assert strict.loads('{"a": [1, 2.5]}') == {"a": [1, 2.5]}
    with pytest.raises(strict.NotJson) as e:
        strict.loads('{"a": [1, {"b": -Infinity}]}')
    assert e.value.path == ("a", 1, "b")
    for bad in (math.nan, math.inf):
        with pytest.raises(ValueError):
            strict.dumps({"x": bad})


def test_a_nan_that_reached_a_view_is_an_error_never_invalid_json(tmp_path):
    hub = GameHub(Store(f"sqlite:///{tmp_path / 'hub.db'}"))
    game = Game(find_scenario("qr-crossroads-armour"), 1)
    hub.create(game, {})
    sub = hub.subscribe(game.id, "umpire")
    unit = next(u for u in game.state.units.values() if u.side == "germany")
    unit.facing = math.nan  # as if a rule had let one through
    assert "NaN" in json.dumps(game.view("germany"))  # what Python alone would send
    with pytest.raises(ValueError):
        hub.message(game, "germany")
    with pytest.raises(ValueError):
        strict.dumps(hub.view(game, "germany"))
    # what a subscriber is pushed is valid JSON: an error instead of the view
    hub.publish(game)
    assert json.loads(sub._out[-1], parse_constant=pytest.fail)["type"] == "error"


def test_over_http_a_nan_in_a_view_is_a_server_error_not_nan_on_the_wire(tmp_path):
    app = create_app(f"sqlite:///{tmp_path / 'g.db'}")
    with TestClient(app, raise_server_exceptions=False) as c:
        t = Table.create(c)
        game = app.state.hub.game(t.id)
        next(iter(game.state.units.values())).facing = math.inf
        r = t.get("umpire", "view")
        assert r.status_code == 500 and "Infinity" not in r.text
