"""The server serves every ruleset alike (issue 14 item 9): the lobby lists each ruleset's
scenarios, and a game of quickref or of the demo ruleset is played over HTTP and over the
WebSocket with the same code, each seat pushed its own view after every change."""

from __future__ import annotations

import pytest

from .client import SCENARIO, Table, next_command


def test_the_lobby_lists_every_rulesets_scenarios(client):
    listed = {s["id"]: s["ruleset"] for s in client.get("/api/scenarios").json()}
    assert listed[SCENARIO] == "quickref" and listed["demo-patrol"] == "demo"


@pytest.mark.parametrize("scenario", [SCENARIO, "demo-patrol"])
def test_commands_over_the_socket_push_each_seat_its_view(client, scenario):
    t = Table.create(client, scenario)
    base = f"/api/games/{t.id}/ws"
    a, b = t.sides
    with (
        client.websocket_connect(f"{base}?token={t.tokens[a]}") as wa,
        client.websocket_connect(f"{base}?token={t.tokens[b]}") as wb,
    ):
        socks = {a: wa, b: wb}
        for seat, ws in socks.items():
            first = ws.receive_json()
            assert first["type"] == "view" and first["seat"] == seat
        for i in range(6):
            side = t.view("umpire")["active"][0]
            cmd = next_command(t.view(side))
            socks[side].send_json({"type": "command", "id": i, "command": cmd})
            msgs = [socks[side].receive_json(), socks[side].receive_json()]
            ack = next(m for m in msgs if m["type"] == "ack")
            assert ack["id"] == i and ack["events"], msgs
            pushed = next(m for m in msgs if m["type"] == "view")
            assert pushed["view"] == t.view(side)
            other = next(s for s in socks if s != side)
            assert socks[other].receive_json()["view"] == t.view(other)


def test_rulesets_give_the_table_its_plug_in_data(client):
    rulesets = {r["id"]: r for r in client.get("/api/rulesets").json()}
    assert set(rulesets) >= {"quickref", "demo"} and "battleground" not in rulesets  # no games
    assert rulesets["demo"]["unit"] == "cm" and rulesets["quickref"]["unit"] == "inch"
    assert ["S", "suppressed"] in rulesets["quickref"]["status_flags"]
    assert "max" in rulesets["quickref"]["template_only"]
