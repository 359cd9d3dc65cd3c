"""A small client of the web umpire API for tests (over TestClient or httpx.Client)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import httpx

SCENARIO = "qr-crossroads-armour"


@dataclass
class Table:
    """One game seen through the API: its id and every seat's token."""

    http: httpx.Client
    id: str
    tokens: dict[str, str]
    links: dict[str, str]

    @classmethod
    def create(cls, http: httpx.Client, scenario: str = SCENARIO, seed: int = 1) -> Table:
        r = http.post("/api/games", json={"scenario": scenario, "seed": seed})
        assert r.status_code == 201, r.text
        body = r.json()
        return cls(
            http,
            body["id"],
            {s["seat"]: s["token"] for s in body["seats"]},
            {s["seat"]: s["link"] for s in body["seats"]},
        )

    @property
    def sides(self) -> list[str]:
        return [s for s in self.tokens if s != "umpire"]

    def url(self, seat: str, what: str) -> str:
        return f"/api/games/{self.id}/seats/{seat}/{what}"

    def headers(self, seat: str, token: str | None = None) -> dict[str, str]:
        tok = token if token is not None else self.tokens.get(seat)
        return {"X-Token": tok} if tok else {}

    def get(self, seat: str, what: str, token: str | None = None) -> httpx.Response:
        return self.http.get(self.url(seat, what), headers=self.headers(seat, token))

    def post(self, seat: str, what: str, body: Any = None, token: str | None = None):
        return self.http.post(self.url(seat, what), json=body, headers=self.headers(seat, token))

    def view(self, seat: str) -> dict[str, Any]:
        r = self.get(seat, "view")
        assert r.status_code == 200, r.text
        return r.json()

    def command(self, seat: str, cmd: dict[str, Any]) -> dict[str, Any]:
        r = self.post(seat, "commands", cmd)
        assert r.status_code == 200, r.text
        return r.json()

    def state_hash(self) -> dict[str, Any]:
        r = self.http.get(f"/api/games/{self.id}/state-hash", headers=self.headers("umpire"))
        assert r.status_code == 200, r.text
        return r.json()


def next_command(view: dict[str, Any]) -> dict[str, Any] | None:
    """A deterministic legal command from a seat's view: fire first, then a short move, then
    whatever the phase offers, ending the phase last."""
    legal = view["legal"]
    if not legal:
        return None
    own = {u["id"]: u for u in view["units"]}
    for c in legal:
        if c["type"] == "fire":
            return c
    for c in legal:
        if c["type"] == "move" and c.get("max", 0) >= 1 and c["unit"] in own:
            u = own[c["unit"]]
            step = 1.0 if u["y"] < view["table"]["depth"] / 2 else -1.0
            return {"type": "move", "unit": c["unit"], "path": [[u["x"], u["y"] + step]]}
    centre = (view["table"]["width"] / 2, view["table"]["depth"] / 2)
    whole = [c for c in legal if c["type"] == "move" and "x" in c and "y" in c]
    if whole:  # a ruleset whose move templates are whole commands: the one nearest the centre
        return min(whole, key=lambda c: (c["x"] - centre[0]) ** 2 + (c["y"] - centre[1]) ** 2)
    for c in legal:
        if c["type"] not in ("end_phase", "move") and "max" not in c:
            return {k: v for k, v in c.items() if k != "target_hint"}
    return {"type": "end_phase"}


def play_step(table: Table) -> tuple[str, dict[str, Any], dict[str, Any]] | None:
    """One command by the first active side: (side, command, ack); None when the game is over."""
    view = table.view("umpire")
    if view["outcome"] or not view["active"]:
        return None
    side = view["active"][0]
    cmd = next_command(table.view(side))
    if cmd is None:
        return None
    r = table.post(side, "commands", cmd)
    if r.status_code == 400 and cmd["type"] == "move":  # a blocked short move: end the phase
        cmd = {"type": "end_phase"}
        r = table.post(side, "commands", cmd)
    assert r.status_code == 200, (cmd, r.text)
    return side, cmd, r.json()


def hidden_enemies(table: Table, side: str) -> list[dict[str, Any]]:
    """Enemy units (from the umpire's view) that `side` has never observed: not in sight now,
    no last-known marker, and named by no event that side was shown."""
    umpire = table.view("umpire")
    mine = table.view(side)
    told = json.dumps([e["data"] for e in mine["log"]])
    known = {u["id"] for u in mine["enemies"]} | {m["id"] for m in mine["last_known"]}
    return [
        u
        for u in umpire["units"]
        if u["side"] != side and u["id"] not in known and f'"{u["id"]}"' not in told
    ]


def leaks(text: str | dict | list, units: list[dict[str, Any]]) -> list[str]:
    """Ids or names of `units` that occur in `text` (a JSON document or a page's HTML)."""
    blob = text if isinstance(text, str) else json.dumps(text)
    return [w for u in units for w in (u["id"], u["name"]) if w in blob]
