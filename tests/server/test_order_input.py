"""The order-input endpoints over HTTP (issue 15 items 8, 10): a seat's reach area and order
previews; other seats, spectators and bad names are refused with the field named."""

from __future__ import annotations

import warnings

import pytest

from kriegsspiel.server import create_app

from .client import Table

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


@pytest.fixture
def table(tmp_path):
    with TestClient(create_app(f"sqlite:///{tmp_path / 'input.db'}")) as c:
        t = Table.create(c)
        while not t.view("umpire")["game"]["step"].startswith("1/move_a1"):
            t.command(t.view("umpire")["active"][0], {"type": "end_phase"})
        yield t


def test_reach_and_preview_answer_the_seat_only(table):
    before = table.view("umpire")["game"]["events"]
    r = table.get("germany", "reach/g-panther")
    assert r.status_code == 200 and r.json()["cell"] == 1.0 and r.json()["cells"]
    move = {"type": "move", "unit": "g-panther", "path": [[15.5, 21.5]], "facing": 45}
    p = table.post("germany", "preview", move).json()
    assert p["ok"] and p["facing"] == 45 and p["legs"][0]["terrain"]
    assert table.get("germany", "reach/g-panther", token="wrong").status_code == 403
    assert table.get("spectator", "reach/g-panther").status_code == 403
    enemy = table.get("usa", "reach/g-panther")
    assert enemy.status_code == 400 and "not your turn" in enemy.json()["reason"]
    assert table.get("germany", "reach/no such").status_code == 422
    bad = table.post("germany", "preview", {**move, "path": [["a", 1]]})
    assert bad.status_code == 400 and bad.json()["field"].startswith("path")
    odd = table.post("germany", "preview", {"type": "end_phase"})
    assert odd.status_code == 400 and odd.json()["field"] == "type"
    assert table.view("umpire")["game"]["events"] == before  # nothing was written
