"""Fog of war over the wire and the WebSocket stream of per-seat views."""

from __future__ import annotations

import pytest
from starlette.websockets import WebSocketDisconnect

from .client import SCENARIO, Table, hidden_enemies, leaks, play_step

SIDES = ("germany", "usa")


@pytest.mark.parametrize("scenario", [SCENARIO, "demo-patrol"])
def test_no_endpoint_carries_the_other_sides_unobserved_units(client, scenario):
    """The same test for quickref and for the demo ruleset (issue 14 item 9)."""
    t = Table.create(client, scenario)
    checked = 0
    for _ in range(60):
        step = play_step(t)
        if step is None:
            break
        side, _, ack = step
        # the ack goes to its author: nothing in it about units that side cannot see
        assert not leaks(ack, hidden_enemies(t, side))
        for seat in t.sides:
            hidden = hidden_enemies(t, seat)
            checked += len(hidden)
            for what in ("view", "log"):
                assert not leaks(t.get(seat, what).json(), hidden), (seat, what)
        spectator = client.get(t.url("spectator", "view")).json()
        if spectator["outcome"] is None:  # once over, a spectator sees all (engine/spectate.py)
            assert not leaks(spectator, hidden_enemies(t, t.sides[-1]))
    assert checked > 0  # the scenario does hide units, so the check had teeth


def test_each_seat_is_pushed_its_own_fresh_view_after_a_change(client):
    t = Table.create(client)
    base = f"/api/games/{t.id}/ws"
    with (
        client.websocket_connect(f"{base}?token={t.tokens['germany']}") as ger,
        client.websocket_connect(f"{base}?token={t.tokens['usa']}") as usa,
        client.websocket_connect(base) as spectator,
    ):
        for ws, seat in [(ger, "germany"), (usa, "usa"), (spectator, "spectator")]:
            first = ws.receive_json()
            assert first["type"] == "view" and first["seat"] == seat
        t.command("germany", {"type": "end_phase"})
        for ws, seat in [(ger, "germany"), (usa, "usa")]:
            pushed = ws.receive_json()
            assert pushed["seat"] == seat and pushed["view"] == t.view(seat)
        assert spectator.receive_json()["view"] == client.get(t.url("spectator", "view")).json()
        # commands over the socket: the answer carries the request id, then everyone gets a view
        usa.send_json({"type": "command", "id": 7, "command": {"type": "end_phase"}})
        msgs = [usa.receive_json(), usa.receive_json()]
        ack = next(m for m in msgs if m["type"] == "ack")
        assert ack["id"] == 7 and ack["events"][0]["side"] == "usa"
        assert ger.receive_json()["view"]["phase"] == "fire_all"
        ger.send_json({"type": "odds", "id": 8, "command": {"type": "fire", "unit": "g-panther"}})
        err = ger.receive_json()
        assert err["type"] == "error" and err["id"] == 8 and err["field"]
        assert spectator.receive_json()["type"] == "view"  # after the usa command
        spectator.send_json({"type": "command", "id": 9, "command": {"type": "end_phase"}})
        assert spectator.receive_json() == {
            "type": "error",
            "id": 9,
            "error": "illegal command",
            "reason": "spectators do not give commands",
            "field": "seat",
        }


@pytest.mark.parametrize("token", ["wrong", ""])
def test_a_socket_with_a_bad_token_is_refused(client, token):
    t = Table.create(client)
    if not token:  # no token at all is the spectator; an empty one is not a seat either
        with client.websocket_connect(f"/api/games/{t.id}/ws?token=") as ws:
            assert ws.receive_json()["seat"] == "spectator"
        return
    with (
        pytest.raises(WebSocketDisconnect) as exc,
        client.websocket_connect(f"/api/games/{t.id}/ws?token={token}") as ws,
    ):
        ws.receive_json()
    assert exc.value.code == 4403
    with (
        pytest.raises(WebSocketDisconnect) as exc,
        client.websocket_connect("/api/games/x/ws") as ws,
    ):
        ws.receive_json()
    assert exc.value.code == 4404


def test_a_malformed_socket_message_is_answered_and_the_socket_stays_open(client):
    t = Table.create(client)
    with client.websocket_connect(f"/api/games/{t.id}/ws?token={t.tokens['germany']}") as ws:
        assert ws.receive_json()["type"] == "view"
        ws.send_text("{not json")
        assert ws.receive_json()["field"] == "type"
        ws.send_json({"type": "command", "id": 2, "command": {"type": "end_phase"}})
        kinds = {ws.receive_json()["type"], ws.receive_json()["type"]}
        assert kinds == {"view", "ack"}
