"""The table's information endpoints (issue 15 item 9): briefing, unit cards and the sight
check, each answering only from what the asking seat may know."""

from __future__ import annotations

from .client import Table, hidden_enemies, leaks


def test_briefing_lists_own_forces_only(client):
    t = Table.create(client)
    ger = t.get("germany", "briefing").json()
    assert ger["turn_limit"] == 8 and ger["victory"][-1] == "otherwise at the turn limit: a draw"
    assert "side A" in ger["terms"] and ger["special_rules"]
    forces = {s["id"]: s.get("forces") for s in ger["sides"]}
    assert forces["usa"] is None and {f["name"] for f in forces["germany"]} >= {"Panther 311"}
    spectator = client.get(t.url("spectator", "briefing")).json()
    assert all("forces" not in s for s in spectator["sides"])
    umpire = t.get("umpire", "briefing").json()
    assert all(s["forces"] for s in umpire["sides"])


def test_cards_and_sight_tell_nothing_of_hidden_enemies(client):
    t = Table.create(client)
    hidden = hidden_enemies(t, "germany")
    assert hidden  # the StuG's opponent hides something too: the test has teeth
    card = t.get("germany", "units/g-panther/card").json()
    assert card["data"]["armour"] == {"front": 15, "side": 6}
    for u in hidden:
        r = t.get("germany", f"units/{u['id']}/card")
        assert r.status_code == 400 and r.json()["field"] == "unit"
    seen = t.view("germany")["enemies"][0]
    r = t.get("germany", f"units/{seen['id']}/card")
    assert r.status_code == 200 and not r.json()["own"]
    for u in hidden:  # aimed right at a hidden enemy: the answer names no piece
        r = t.get("germany", f"sight?unit=g-panther&x={u['x']}&y={u['y']}")
        assert r.status_code == 200 and not leaks(r.json(), hidden)
        assert set(r.json()) == {"sees", "clear_line", "distance", "reason"}


def test_info_endpoints_refuse_what_a_seat_may_not_ask(client):
    t = Table.create(client)
    assert t.get("germany", "units/g-panther/card", token=t.tokens["usa"]).status_code == 403
    assert client.get(t.url("spectator", "units/g-panther/card")).status_code == 403
    assert t.get("usa", "sight?unit=g-panther&x=1&y=1").status_code == 400  # not its unit
    assert t.get("germany", "sight?unit=g-panther&x=inf&y=1").status_code == 422
    r = t.get("germany", "sight?unit=g-panther&x=99&y=1")
    assert r.status_code == 400 and "off the table" in r.json()["reason"]
