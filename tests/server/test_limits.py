"""Limits answered with 429 (issue 13 item 8) and a socket's outbox that never drops a reply
(item 7)."""

from __future__ import annotations

import asyncio
import json
import threading

import pytest
from starlette.websockets import WebSocketDisconnect

from kriegsspiel.server import create_app
from kriegsspiel.server.hub import Subscriber
from kriegsspiel.server.limits import Limits, Window

from .client import Table
from .conftest import TestClient


def app_with(tmp_path, **limits) -> TestClient:
    return TestClient(create_app(f"sqlite:///{tmp_path / 'g.db'}", Limits(**limits)))


def test_games_per_client_per_minute(tmp_path):
    with app_with(tmp_path, games_per_client_per_minute=3) as c:
        for _ in range(3):
            Table.create(c)
        r = c.post("/api/games", json={"scenario": "qr-crossroads-armour"})
        assert r.status_code == 429 and "3 games a minute" in r.json()["reason"]


def test_the_window_slides():
    w = Window(2, seconds=60)
    assert w.admit("a", 0) and w.admit("a", 1) and not w.admit("a", 2)
    assert w.admit("b", 2)  # per client
    assert w.admit("a", 60.5) and not w.admit("a", 60.6)


def test_sockets_per_game_and_per_client(tmp_path):
    with app_with(tmp_path, sockets_per_game=2, sockets_per_client=3) as c:
        t, u = Table.create(c), Table.create(c)
        with (
            c.websocket_connect(f"/api/games/{t.id}/ws") as a,
            c.websocket_connect(f"/api/games/{t.id}/ws") as b,
        ):
            a.receive_json(), b.receive_json()
            with (
                pytest.raises(WebSocketDisconnect) as exc,
                c.websocket_connect(f"/api/games/{t.id}/ws") as third,
            ):
                third.receive_json()
            assert exc.value.code == 4429 and "2 open sockets" in exc.value.reason
            with c.websocket_connect(f"/api/games/{u.id}/ws") as d:
                d.receive_json()  # the client's third socket, on another game
                with (
                    pytest.raises(WebSocketDisconnect) as exc,
                    c.websocket_connect(f"/api/games/{u.id}/ws") as fourth,
                ):
                    fourth.receive_json()
                assert exc.value.code == 4429 and "this client" in exc.value.reason
        with c.websocket_connect(f"/api/games/{t.id}/ws") as again:  # closed ones are freed
            assert again.receive_json()["type"] == "view"


def test_commands_per_step_stop_repeats_but_not_the_step_end(tmp_path):
    with app_with(tmp_path, commands_per_step=5) as c:
        t = Table.create(c)
        for i in range(5):
            t.command("germany", {"type": "hatches", "buttoned": {"g-panther": i % 2 == 0}})
        before = t.state_hash()
        r = t.post("germany", "commands", {"type": "hatches", "buttoned": {"g-panther": True}})
        assert r.status_code == 429 and r.json()["field"] == "type"
        assert t.state_hash() == before  # the refused repeat left nothing behind
        assert t.post("germany", "commands", {"type": "end_phase"}).status_code == 200
        t.command("usa", {"type": "end_phase"})  # a new step: a fresh count
        assert t.post("germany", "undo").status_code in (200, 400)


def test_limits_from_the_environment():
    got = Limits.from_env(
        {"KRIEGSSPIEL_MAX_BODY_BYTES": "1000", "KRIEGSSPIEL_TRUST_FORWARDED_FOR": "yes"}
    )
    assert got.max_body_bytes == 1000 and got.trust_forwarded_for
    assert got.commands_per_step == Limits().commands_per_step
    for bad in ("0", "-3", "lots"):
        with pytest.raises(ValueError, match="KRIEGSSPIEL_SOCKETS_PER_GAME"):
            Limits.from_env({"KRIEGSSPIEL_SOCKETS_PER_GAME": bad})


def drain(sub: Subscriber) -> list[dict]:
    async def run() -> list[dict]:
        out = []
        while sub._out:
            out.append(json.loads(await sub.next()))
        return out

    got: list[dict] = []  # in a thread of its own: the test's thread may hold a running loop
    worker = threading.Thread(target=lambda: got.extend(asyncio.run(run())))
    worker.start()
    worker.join(30)
    return got


def test_a_slow_reader_loses_no_reply_and_gets_the_latest_view():
    """The probe's slow reader got 230 of 1,000 acks: views crowded them out of the queue."""
    sub = Subscriber("germany", max_unread=2000)
    for i in range(1000):
        sub.offer_view(json.dumps({"type": "view", "n": i}))
        sub.offer_reply(json.dumps({"type": "ack", "id": i}))
    assert not sub.too_slow
    got = drain(sub)
    assert [m["id"] for m in got if m["type"] == "ack"] == list(range(1000))
    views = [m for m in got if m["type"] == "view"]
    assert views == [{"type": "view", "n": 999}]  # coalesced to the latest
    assert got[-2:] == [views[-1], {"type": "ack", "id": 999}]  # in the order offered


def test_a_reader_that_cannot_keep_up_is_marked_too_slow():
    sub = Subscriber("germany", max_unread=10)
    for i in range(11):
        assert not sub.too_slow
        sub.offer_reply(json.dumps({"type": "ack", "id": i}))
    assert sub.too_slow and sub.unread == 11
    drain(sub)
    assert not sub.too_slow and sub.unread == 0


def test_a_socket_too_slow_for_its_replies_is_closed_and_resyncs_by_its_key(tmp_path):
    """unread_replies=0: a reply still queued when the next is due overflows at once."""
    with app_with(tmp_path, unread_replies=0) as c:
        t = Table.create(c)
        url = f"/api/games/{t.id}/ws?token={t.tokens['germany']}"
        with c.websocket_connect(url) as ws:
            assert ws.receive_json()["type"] == "view"
            ws.send_json({"type": "command", "id": "e1", "command": {"type": "end_phase"}})
            with pytest.raises(WebSocketDisconnect) as exc:
                while True:
                    ws.receive_json()
        assert exc.value.code == 4008 and "reconnect to resync" in exc.value.reason
        # the command was committed before the close; on reconnect the client gets a fresh
        # view, and re-sending its key gets the first answer, not a second command
        events = t.state_hash()["events"]
        seen = t.view("germany")["game"]["events"]  # the seat's own count (seat numbering)
        with c.websocket_connect(url) as ws:
            view = ws.receive_json()["view"]
            assert view["game"]["events"] == seen
        r = c.post(
            t.url("germany", "commands"),
            json={"type": "end_phase"},
            headers={**t.headers("germany"), "Idempotency-Key": "e1"},
        )
        assert r.status_code == 200 and r.headers["Idempotent-Replayed"] == "true"
        assert t.state_hash()["events"] == events


def test_serve_refuses_a_bad_limit_with_exit_2_naming_the_variable():
    from typer.testing import CliRunner

    from kriegsspiel.cli.main import app as cli

    out = CliRunner().invoke(cli, ["serve"], env={"KRIEGSSPIEL_COMMANDS_PER_STEP": "many"})
    assert out.exit_code == 2 and "KRIEGSSPIEL_COMMANDS_PER_STEP" in out.output


def test_a_real_reader_that_stops_reading_is_closed_with_4008_and_can_reconnect(tmp_path):
    """A real socket with a 2 KiB receive buffer that sends and never reads: once the TCP
    buffers are full the replies queue up in the server, and past the limit it hangs up."""
    import socket

    import httpx
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    import infra

    app = lambda: create_app(f"sqlite:///{tmp_path / 'g.db'}", Limits(unread_replies=20))  # noqa: E731
    with infra.live_server(app) as base:
        t = Table.create(httpx.Client(base_url=base, timeout=30))
        host, port = base.removeprefix("http://").split(":")
        url = f"ws://{host}:{port}/api/games/{t.id}/ws?token={t.tokens['germany']}"
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)  # before the handshake
        sock.connect((host, int(port)))
        ask = {"type": "odds", "command": {"type": "fire", "unit": "nobody"}}
        with pytest.raises(ConnectionClosed) as exc, connect(url, sock=sock) as ws:
            for i in range(20_000):
                ws.send(json.dumps({**ask, "id": i}))
            while True:
                ws.recv(timeout=10)
        close = exc.value.rcvd
        assert close is not None and close.code == 4008 and "reconnect" in close.reason
        with connect(url) as ws:  # a fresh view on reconnect
            assert json.loads(ws.recv(timeout=10))["type"] == "view"
