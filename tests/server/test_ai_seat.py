"""An AI seat run by the server (issue 15 item 11): the server plays that side after every
command, no token is issued for it, and it survives a reload from the store."""

from __future__ import annotations

from kriegsspiel.server import create_app

from .conftest import TestClient

NEW = {"scenario": "qr-crossroads-armour", "seed": 1, "ai": ["usa"]}


def test_the_server_plays_the_ai_side_after_each_command(client, db_url):
    g = client.post("/api/games", json=NEW).json()
    assert [s["seat"] for s in g["seats"]] == ["germany", "umpire"]
    token = {s["seat"]: s["token"] for s in g["seats"]}
    url = f"/api/games/{g['id']}/seats"
    ger = {"X-Token": token["germany"]}
    # nobody can act for the AI's side: its seat has no token, and Germany's is not its
    r = client.post(f"{url}/usa/commands", json={"type": "end_phase"}, headers=ger)
    assert r.status_code in (401, 403)
    assert client.post(
        f"{url}/germany/commands", json={"type": "end_phase"}, headers=ger
    ).is_success
    view = client.get(f"{url}/germany/view", headers=ger).json()
    assert view["phase"] == "fire_all"  # USA ended its part of the initiative by itself
    ump = client.get(f"{url}/umpire/log", headers={"X-Token": token["umpire"]}).json()
    assert any(e["type"] == "end_phase" and by_usa(e) for e in ump)
    # a fresh server (the store only) still plays the AI side at its next turn to act
    with TestClient(create_app(db_url)) as fresh:
        before = len(fresh.get(f"{url}/umpire/log", headers={"X-Token": token["umpire"]}).json())
        for _ in range(4):
            r = fresh.post(f"{url}/germany/commands", json={"type": "end_phase"}, headers=ger)
            assert r.is_success, r.text
            log = fresh.get(f"{url}/umpire/log", headers={"X-Token": token["umpire"]}).json()
            if any(by_usa(e) for e in log[before:]):
                break
        assert any(by_usa(e) for e in log[before:])


def by_usa(e: dict) -> bool:
    return e["side"] == "usa" or (e["data"] or {}).get("side") == "usa"
