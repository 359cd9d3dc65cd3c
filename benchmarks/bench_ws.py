"""WebSocket command round trip under load: 50 concurrent clients on loopback.

Starts `kriegsspiel serve` as a separate process on a fresh SQLite file, creates 25 quickref
games and connects both seats of each (50 sockets). Then the same on a fresh PostgreSQL
server, with one server process and with two processes on the one database (each game's
first seat on process A, its second on process B, so every view the other side sees crossed
processes by LISTEN/NOTIFY), side by side in one run. Every client plays its side: whenever the
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

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import infra  # noqa: E402  (tests/infra.py: a throwaway PostgreSQL server)

GAMES = int(os.environ.get("BENCH_GAMES", "25"))
TURNS = 3  # each game is played for this many turns
SCENARIO = "qr-crossroads-armour"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(db_url: str, port: int) -> subprocess.Popen:
    argv = [sys.executable, "-m", "kriegsspiel.cli.main", "serve", "--db", db_url]
    env = {**os.environ, "KRIEGSSPIEL_GAMES_PER_CLIENT_PER_MINUTE": "10000"}
    log = tempfile.TemporaryFile()  # noqa: SIM115  (closed with the process)
    proc = subprocess.Popen(
        [*argv, "--port", str(port)],
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
        env=env,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/scenarios", timeout=1)
            return proc
        except httpx.HTTPError:
            time.sleep(0.05)
    proc.kill()
    log.seek(0)
    raise SystemExit(f"the server did not start: {log.read().decode(errors='replace')[-2000:]}")


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


async def run(ports: list[int], think: tuple[float, float]) -> tuple[list[float], list[str], float]:
    """Seat k of every game plays through server ports[k % len(ports)]."""
    base = f"http://127.0.0.1:{ports[0]}"
    async with httpx.AsyncClient(base_url=base) as http:
        games = [
            (await http.post("/api/games", json={"scenario": SCENARIO, "seed": i})).json()
            for i in range(GAMES)
        ]
    trips: list[float] = []
    errors: list[str] = []
    clients = [
        player(
            f"ws://127.0.0.1:{ports[k % len(ports)]}/api/games/{g['id']}/ws?token={s['token']}",
            s["seat"],
            trips,
            errors,
            think,
        )
        for g in games
        for k, s in enumerate(x for x in g["seats"] if x["seat"] != "umpire")
    ]
    assert len(clients) == 2 * GAMES
    t0 = time.perf_counter()
    await asyncio.wait_for(asyncio.gather(*clients), timeout=300)
    return trips, errors, time.perf_counter() - t0


def report(name: str, trips: list[float], errors: list[str], wall: float) -> tuple[float, float]:
    ms = sorted(t * 1000 for t in trips)
    p50 = statistics.median(ms)
    p99 = ms[min(len(ms) - 1, round(0.99 * (len(ms) - 1)))]
    print(
        f"  {name}: committed commands: {len(ms)} in {wall:.1f} s ({len(ms) / wall:.0f}/s); raced: {len(errors)}"
    )
    print(
        f"    round trip p50 {p50:.1f} ms, p99 {p99:.1f} ms, max {ms[-1]:.1f} ms (target p99 < 50 ms)"
    )
    return p50, p99


def measure(urls: list[str], think: tuple[float, float]) -> tuple[list[float], list[str], float]:
    """One run on fresh server processes, one per database URL given."""
    ports = [free_port() for _ in urls]
    procs = [start_server(url, port) for url, port in zip(urls, ports, strict=True)]
    try:
        return asyncio.run(run(ports, think))
    finally:
        for proc in procs:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(10)


def main() -> None:
    print(f"bench_ws: {2 * GAMES} WebSocket clients, {GAMES} games, loopback")
    paces = [("paced", (0.05, 0.25)), ("flat out", (0.0, 0.0))]
    print("SQLite file, one server process")
    for name, think in paces:
        with tempfile.TemporaryDirectory() as tmp:
            report(name, *measure([f"sqlite:///{Path(tmp) / 'bench.db'}"], think))
    side_by_side: list[str] = []
    try:
        with infra.postgres_server("bench") as server:
            for name, think in paces:
                row = []
                for procs in (1, 2):
                    print(f"PostgreSQL, {procs} server process{'es' if procs > 1 else ''}")
                    p50, p99 = report(name, *measure([server.url] * procs, think))
                    row.append(f"{p50:6.1f} / {p99:6.1f} ms")
                side_by_side.append(f"  {name:9} {row[0]:>20} {row[1]:>20}  ({p99_ratio(row)})")
    except infra.Missing as e:
        print(f"PostgreSQL runs skipped: {e}")
        return
    print("PostgreSQL round trip p50 / p99:   1 process          2 processes")
    print("\n".join(side_by_side))


def p99_ratio(row: list[str]) -> str:
    one, two = (float(r.split("/")[1].split()[0]) for r in row)
    return f"p99 ratio 2/1 = {two / one:.2f}"


if __name__ == "__main__":
    main()
