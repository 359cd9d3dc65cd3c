"""WebSocket command round trip under load: 50 concurrent clients on loopback.

Starts `kriegsspiel serve` as a separate process on a fresh SQLite file, creates 25 quickref
games and connects both seats of each (50 sockets). Every client plays its side: whenever the
latest pushed view says it is to move, it sends a command (a legal fire if any, else end the
phase) for TURNS turns and times the trip until the server's ack, which comes only after the events are
committed. Two runs: "paced", where each client thinks 50-250 ms before a command (people at a
table click slower than that), and "flat out", where every client sends its next command the
moment it may, which measures the server saturated. Prints p50/p99 of the round trips of both
(target p99 < 50 ms)."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets

GAMES = int(os.environ.get("BENCH_GAMES", "25"))
TURNS = 3  # each game is played for this many turns
SCENARIO = "qr-crossroads-armour"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(db: Path, port: int) -> subprocess.Popen:
    argv = [sys.executable, "-m", "kriegsspiel.cli.main", "serve", "--db", f"sqlite:///{db}"]
    proc = subprocess.Popen(
        [*argv, "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    for _ in range(400):
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/scenarios", timeout=1)
            return proc
        except httpx.HTTPError:
            time.sleep(0.05)
    proc.kill()
    raise SystemExit("the server did not start")


def pick(view: dict) -> dict:
    fire = [c for c in view["legal"] if c["type"] == "fire"]
    return fire[0] if fire else {"type": "end_phase"}


async def player(
    url: str, seat: str, trips: list[float], errors: list[str], think: tuple[float, float]
) -> None:
    rng = random.Random(url)
    async with websockets.connect(url, max_size=None) as ws:
        view, waiting, sent_at, sent = None, None, 0.0, 0
        while True:
            msg = json.loads(await ws.recv())
            if msg["type"] == "view":
                view = msg["view"]
            elif msg.get("id") == waiting:
                if msg["type"] == "ack":
                    trips.append(time.perf_counter() - sent_at)
                else:  # the other side moved on first: try again on the next view
                    errors.append(msg.get("reason", "?"))
                waiting = None
            if view is None:
                continue
            if view["outcome"] or view["turn"] > TURNS:
                return
            if waiting is None and seat in view["active"] and view["legal"]:
                if think[1]:
                    await asyncio.sleep(rng.uniform(*think))
                    view = await latest(ws, view)
                    if view["outcome"] or seat not in view["active"] or not view["legal"]:
                        continue
                sent += 1
                waiting = sent
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "command", "id": waiting, "command": pick(view)}))


async def latest(ws, view: dict) -> dict:
    """The newest view already delivered on the socket (views pushed while thinking)."""
    while True:
        try:
            msg = json.loads(await asyncio.wait_for(ws.recv(), timeout=0.001))
        except TimeoutError:
            return view
        if msg["type"] == "view":
            view = msg["view"]


async def run(port: int, think: tuple[float, float]) -> tuple[list[float], list[str], float]:
    base = f"http://127.0.0.1:{port}"
    async with httpx.AsyncClient(base_url=base) as http:
        games = [
            (await http.post("/api/games", json={"scenario": SCENARIO, "seed": i})).json()
            for i in range(GAMES)
        ]
    trips: list[float] = []
    errors: list[str] = []
    clients = [
        player(
            f"ws://127.0.0.1:{port}/api/games/{g['id']}/ws?token={s['token']}",
            s["seat"],
            trips,
            errors,
            think,
        )
        for g in games
        for s in g["seats"]
        if s["seat"] != "umpire"
    ]
    assert len(clients) == 2 * GAMES
    t0 = time.perf_counter()
    await asyncio.wait_for(asyncio.gather(*clients), timeout=300)
    return trips, errors, time.perf_counter() - t0


def report(name: str, trips: list[float], errors: list[str], wall: float) -> None:
    ms = sorted(t * 1000 for t in trips)
    p50 = statistics.median(ms)
    p99 = ms[min(len(ms) - 1, round(0.99 * (len(ms) - 1)))]
    print(
        f"  {name}: committed commands: {len(ms)} in {wall:.1f} s ({len(ms) / wall:.0f}/s); raced: {len(errors)}"
    )
    print(
        f"    round trip p50 {p50:.1f} ms, p99 {p99:.1f} ms, max {ms[-1]:.1f} ms (target p99 < 50 ms)"
    )


def main() -> None:
    print(f"bench_ws: {2 * GAMES} WebSocket clients, {GAMES} games, loopback, SQLite file")
    for name, think in [("paced", (0.05, 0.25)), ("flat out", (0.0, 0.0))]:
        port = free_port()
        with tempfile.TemporaryDirectory() as tmp:
            proc = start_server(Path(tmp) / "bench.db", port)
            try:
                report(name, *asyncio.run(run(port, think)))
            finally:
                os.killpg(proc.pid, signal.SIGTERM)
                proc.wait(10)


if __name__ == "__main__":
    main()
