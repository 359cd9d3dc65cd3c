"""Durability with real SIGKILLs: the server is an OS process on a SQLite file (or a PostgreSQL
server), killed with -9 between commands and in the middle of a stream of them, then restarted
on the same database."""

from __future__ import annotations

import sys
import threading

import httpx

import infra
from kriegsspiel.engine.store import Store

from .client import Table, play_step


def serve(url: str):
    argv = [sys.executable, "-m", "kriegsspiel.cli.main", "serve", "--db", url, "--port", "{port}"]
    return infra.subprocess_server(argv)


def reopen(server, t: Table | None) -> Table:
    http = httpx.Client(base_url=server.url, timeout=30)
    return Table.create(http) if t is None else Table(http, t.id, t.tokens, t.links)


def umpire_log(t: Table) -> list[dict]:
    r = t.get("umpire", "log")
    assert r.status_code == 200, r.text  # a failure names itself, not a TypeError later
    return r.json()


def assert_kept(t: Table, acked: list[tuple[str, dict]]) -> list[dict]:
    """Every acknowledged event is in its seat's log (the seat's own numbering), identical;
    returns the umpire's log."""
    logs = {"umpire": {e["index"]: e for e in umpire_log(t)}}
    for seat, e in acked:
        if seat not in logs:
            logs[seat] = {x["index"]: x for x in t.get(seat, "log").json()}
        assert logs[seat].get(e["index"]) == e, (seat, e)
    return list(logs["umpire"].values())


def stream_until_killed(t: Table, acked: list[dict], started: threading.Event) -> None:
    """Send commands one after another until the server dies; record each ack's events."""
    try:
        while (step := play_step(t)) is not None:
            acked.extend((step[0], e) for e in step[2]["events"])
            started.set()
    except (httpx.HTTPError, AssertionError):
        pass  # the kill arrived: the command in flight was not acknowledged
    finally:
        started.set()


def test_sigkill_loses_no_acknowledged_command_and_restores_the_same_state(db_url):
    url = db_url
    t: Table | None = None
    acked: list[tuple[str, dict]] = []  # (seat, event as that seat saw it) of every ack
    before: dict = {}  # the state hash at the last kill with nothing in flight
    for round_ in range(6):
        with serve(url) as server:
            t = reopen(server, t)
            if round_ and round_ % 2:  # after a kill between commands: exactly the same state
                assert t.state_hash() == before
            log = assert_kept(t, acked)
            assert [e["index"] for e in log] == list(range(len(log)))
            if round_ % 2 == 0:  # sequential commands, then a kill with nothing in flight
                for _ in range(3 + round_):
                    step = play_step(t)
                    assert step is not None
                    acked.extend((step[0], e) for e in step[2]["events"])
                acked[:] = [
                    ("umpire", e) for e in umpire_log(t)
                ]  # an ack is the seat's view; the umpire sees it all
                before = t.state_hash()
                assert server.kill() == -9
            else:  # a kill while commands stream in
                t_acks: list[tuple[str, dict]] = []
                started = threading.Event()
                worker = threading.Thread(target=stream_until_killed, args=(t, t_acks, started))
                worker.start()
                started.wait(30)
                assert server.kill() == -9
                worker.join(30)
                assert t_acks, "no command was acknowledged before the kill"
                acked.extend(t_acks)
    with serve(url) as server:
        t = reopen(server, t)
        log = assert_kept(t, acked)
        game = Store(url).load(t.id)
        assert len(game.events) == len(log)
        assert t.state_hash()["hash"] == game.replay().state_hash()
        assert play_step(t) is not None  # and the game goes on
