"""Idempotent commands and stale steps (issue 13 item 6): a repeated key gets the first answer
and changes nothing; a command given at an older step is refused (409), never applied to the
step after; concurrent duplicates over a real server are one event."""

from __future__ import annotations

import threading

import httpx
import pytest

import infra
from kriegsspiel.server import create_app

from .client import Table

END = {"type": "end_phase"}


def umpire_events(t: Table) -> int:
    return t.state_hash()["events"]


def test_a_repeated_http_key_gets_the_first_answer_and_changes_nothing(client):
    t = Table.create(client)
    key = {"Idempotency-Key": "k-1"}
    first = client.post(
        t.url("germany", "commands"), json=END, headers={**t.headers("germany"), **key}
    )
    assert first.status_code == 200 and "Idempotent-Replayed" not in first.headers
    after = t.state_hash()
    again = client.post(
        t.url("germany", "commands"), json=END, headers={**t.headers("germany"), **key}
    )
    assert again.status_code == 200 and again.json() == first.json()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert t.state_hash() == after
    # the same key for another command is a client bug, not a repeat
    hatch = {"type": "hatches", "buttoned": {"u-m4a": False}}
    other = client.post(
        t.url("germany", "commands"), json=hatch, headers={**t.headers("germany"), **key}
    )
    assert other.status_code == 409 and other.json()["field"] == "id"
    # keys belong to a seat: usa may use the same string for its own command
    r = client.post(t.url("usa", "commands"), json=END, headers={**t.headers("usa"), **key})
    assert r.status_code == 200 and r.json()["seat"] == "usa"
    assert umpire_events(t) > after["events"]


def test_a_repeated_socket_id_gets_the_first_answer_and_changes_nothing(client):
    t = Table.create(client)
    with client.websocket_connect(f"/api/games/{t.id}/ws?token={t.tokens['germany']}") as ws:
        assert ws.receive_json()["type"] == "view"
        answers = []
        for _ in range(3):
            ws.send_json({"type": "command", "id": 41, "command": END})
            msgs = [ws.receive_json()]
            while msgs[-1]["type"] == "view":
                msgs.append(ws.receive_json())
            answers.append(msgs[-1])
        assert answers[0]["type"] == "ack" and answers[0] == answers[1] == answers[2]
    log = t.get("umpire", "log").json()
    assert sum(e["type"] == "end_phase" and e["side"] == "germany" for e in log) == 1


def test_a_command_given_at_an_older_step_is_refused_as_stale(client):
    t = Table.create(client)
    step = t.view("germany")["game"]["step"]
    assert step == t.view("usa")["game"]["step"]  # one public key for every seat
    headers = {**t.headers("germany"), "X-Step": step}
    assert client.post(t.url("germany", "commands"), json=END, headers=headers).status_code == 200
    moved_on = t.state_hash()
    assert t.view("usa")["game"]["step"] != step
    # usa's end_phase given at the old step is not applied to the step after it
    r = client.post(
        t.url("usa", "commands"), json=END, headers={**t.headers("usa"), "X-Step": step}
    )
    assert r.status_code == 409 and r.json()["error"] == "stale" and r.json()["field"] == "step"
    assert t.state_hash() == moved_on
    with client.websocket_connect(f"/api/games/{t.id}/ws?token={t.tokens['usa']}") as ws:
        now = ws.receive_json()["view"]["game"]["step"]
        ws.send_json({"type": "command", "id": "a", "step": step, "command": END})
        err = ws.receive_json()
        assert err["type"] == "error" and err["status"] == 409 and err["field"] == "step"
        ws.send_json({"type": "command", "id": "b", "step": now, "command": END})
        assert {ws.receive_json()["type"], ws.receive_json()["type"]} == {"ack", "view"}


def test_the_step_key_does_not_count_hidden_commands(client):
    """Commands that do not end the step leave the key alone: it tells nothing of how many
    commands the other side gave."""
    t = Table.create(client)
    step = t.view("usa")["game"]["step"]
    for buttoned in (False, True, False):
        t.command("germany", {"type": "hatches", "buttoned": {"g-panther": buttoned}})
        assert t.view("usa")["game"]["step"] == step


@pytest.fixture
def live(db_url):
    with infra.live_server(lambda: create_app(db_url)) as base:
        yield base


def at_once(n: int, send) -> list[httpx.Response]:
    """Run `send` in n threads released together; their responses."""
    gate = threading.Barrier(n)
    out: list[httpx.Response] = []

    def run() -> None:
        gate.wait()
        out.append(send())

    threads = [threading.Thread(target=run) for _ in range(n)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(30)
    return out


def test_the_same_move_posted_at_once_is_one_event_over_a_real_server(live):
    http = httpx.Client(base_url=live, timeout=30)
    t = Table.create(http)
    for side in ("germany", "usa"):
        t.command(side, END)
    before = umpire_events(t)
    headers = {**t.headers("germany"), "Idempotency-Key": "fire-1"}
    fire = {"type": "fire", "unit": "g-panther", "target": "u-m4a"}

    def send() -> httpx.Response:
        with httpx.Client(base_url=live, timeout=30) as h:
            return h.post(t.url("germany", "commands"), json=fire, headers=headers)

    answers = at_once(4, send)
    assert [r.status_code for r in answers] == [200] * 4
    assert len({r.text for r in answers}) == 1
    log = t.get("umpire", "log").json()
    assert sum(e["type"] == "fire" for e in log) == 1
    assert (
        umpire_events(t) == before + len(answers[0].json()["events"]) or umpire_events(t) > before
    )


def test_two_concurrent_end_phase_of_one_side_end_one_step(live):
    http = httpx.Client(base_url=live, timeout=30)
    t = Table.create(http)
    step = t.view("germany")["game"]["step"]

    def send() -> httpx.Response:
        headers = {**t.headers("germany"), "X-Step": step}
        with httpx.Client(base_url=live, timeout=30) as h:
            return h.post(t.url("germany", "commands"), json=END, headers=headers)

    answers = at_once(2, send)
    assert sorted(r.status_code for r in answers) == [200, 409]
    log = t.get("umpire", "log").json()
    assert sum(e["type"] == "end_phase" and e["side"] == "germany" for e in log) == 1
