"""The army builder's JSON routes (issue 18 item 5): nations, the organisation tree by date,
edits that answer with the same report as the core builder, exports, and 422s naming the field."""

from __future__ import annotations

import warnings

import pytest

from kriegsspiel.armylist import builder
from kriegsspiel.armylist.ros import from_ros
from kriegsspiel.armylist.roster import parse_roster
from kriegsspiel.server import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

API = "/api/army/panzerfaust"
COMPANY = "organisation:germany/infantry-company"


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    with TestClient(create_app(f"sqlite:///{tmp_path_factory.mktemp('army') / 'g.db'}")) as c:
        yield c


def _new(client, **kw):
    r = client.post(f"{API}/new", json={"nation": "germany", "date": "1943-06", **kw})
    assert r.status_code == 200, r.text
    return r.json()


def _edit(client, st, op, **kw):
    r = client.post(f"{API}/edit", json={"roster": st["roster"], "op": op, **kw})
    assert r.status_code == 200, r.text
    return r.json()


def _find(rows, entry):
    return next(r for r in rows if r["entry"] == entry)


def test_nations_and_the_tree_by_date(client):
    assert client.get("/api/army").json() == ["panzerfaust"]
    nations = {n["id"] for n in client.get(f"{API}/nations").json()["nations"]}
    assert len(nations) == 13 and {"germany", "ussr"} <= nations
    germany = next(
        n for n in client.get(f"{API}/nations").json()["nations"] if n["id"] == "germany"
    )
    assert "ss" in germany["ratings"]

    def tree(date):
        r = client.get(f"{API}/tree", params={"nation": "germany", "date": date})
        assert r.status_code == 200, r.text
        return r.json()["entries"]

    early, late = tree("1940-06"), tree("1944-06")
    vg = "organisation:germany/vg-rifle-company"  # dated 1944-1945 (p66 ff.)
    assert not _find(early, vg)["available"] and _find(late, vg)["available"]
    company = _find(late, COMPANY)
    assert "organisation:germany/infantry-platoon" in {c["entry"] for c in company["children"]}
    platoon = _find(company["children"], "organisation:germany/infantry-platoon")
    assert platoon["children"], "the tree nests below the platoon too"
    adhoc = _find(late, "adhoc:company")
    assert adhoc["children"] and all(
        c["entry"].startswith("organisation:") for c in adhoc["children"]
    )


def test_edits_answer_with_the_core_report(client):
    st = _new(client, points=600, name="Kampfgruppe")
    assert st["report"]["total_pv"] == 0 and st["roster"]["name"] == "Kampfgruppe"
    st = _edit(client, st, "add", entry=COMPANY)
    b = builder("panzerfaust")
    core = b.validate(parse_roster(st["roster"])).as_dict()
    assert st["report"] == core and core["total_pv"] == 490 and not core["errors"]
    company = st["roster"]["selections"][0]
    platoon = next(c for c in company["children"] if c["entry"].endswith("/infantry-platoon"))
    path = f"{company['id']}/{platoon['id']}"
    teams = st["report"]["totals"]["teams"]

    dup = _edit(client, st, "duplicate", path=path)
    kids = dup["roster"]["selections"][0]["children"]
    assert len(kids) == len(company["children"]) + 1
    copy = kids[kids.index(next(k for k in kids if k["id"] == platoon["id"])) + 1]
    assert copy["entry"] == platoon["entry"] and copy["id"] != platoon["id"]
    ids = []

    def walk(sels):
        for s in sels:
            ids.append(s["id"])
            walk(s["children"])

    walk(dup["roster"]["selections"])
    assert len(ids) == len(set(ids)), "a duplicate gets fresh ids"
    assert dup["report"]["totals"]["teams"] > teams
    # a fourth platoon is one more than the chart allows, and 636 PV > 600 (p44)
    assert [e["code"] for e in dup["report"]["errors"]] == ["slot_max", "points_limit"]

    back = _edit(client, dup, "remove", path=f"{company['id']}/{copy['id']}")
    assert back["report"] == st["report"]
    renamed = _edit(client, back, "rename", path=company["id"], name="1. Kompanie")
    assert renamed["roster"]["selections"][0]["name"] == "1. Kompanie"
    where, team = next(
        (p, s)
        for p, s, _ in parse_roster(st["roster"]).walk()
        if s.entry.startswith("infantry_team:")
    )
    counted = _edit(client, st, "count", path=where, count=team.count + 2)
    assert counted["report"]["totals"]["teams"] == teams + 2

    # p22: the SS multiplier prices the company up, and p59 allows SS only for some units
    ss = _edit(client, st, "rating", path=company["id"], rating="ss")
    assert ss["roster"]["selections"][0]["rating"] == "ss"
    assert ss["report"]["total_pv"] > st["report"]["total_pv"]
    assert "rating_profile" in [e["code"] for e in ss["report"]["errors"]]
    assert _edit(client, ss, "rating", path=company["id"])["report"] == st["report"]


def test_exports(client):
    st = _edit(client, _new(client, name="Export me"), "add", entry=COMPANY)
    body = {"roster": st["roster"]}
    html = client.post(f"{API}/export/html", json=body)
    assert html.status_code == 200 and html.headers["content-type"].startswith("text/html")
    assert "Export me" in html.text and "Infantry Company" in html.text
    text = client.post(f"{API}/export/text", json=body).text
    assert text.startswith("Export me") and "490" in text
    assert client.post(f"{API}/export/json", json=body).json()["validation"]["total_pv"] == 490
    pdf = client.post(f"{API}/export/pdf", json=body)
    assert pdf.headers["content-type"] == "application/pdf" and pdf.content[:5] == b"%PDF-"
    ros = client.post(f"{API}/export/bs-roster", json=body).text
    assert from_ros(ros).selections == parse_roster(st["roster"]).selections
    strict = _edit(client, _new(client), "add", entry="adhoc:company")  # first_company error
    refused = client.post(f"{API}/export/text", json={"roster": strict["roster"], "strict": True})
    assert refused.status_code == 422 and refused.json()["detail"]["field"] == "roster"


def _field(r) -> str:
    d = r.json()["detail"]
    return d["field"] if isinstance(d, dict) else ".".join(map(str, d[0]["loc"]))


def test_bad_input_names_the_field(client):
    st = _new(client)
    roster = st["roster"]
    cases = [
        (client.post(f"{API}/new", json={"nation": "atlantis", "date": "1943-06"}), "nation"),
        (client.post(f"{API}/new", json={"nation": "germany", "date": "1943-13"}), "date"),
        (
            client.post(f"{API}/new", json={"nation": "germany", "date": "1943-06", "points": 0}),
            "points",
        ),
        (client.get(f"{API}/tree", params={"nation": "germany", "date": "43"}), "date"),
        (client.get(f"{API}/tree", params={"nation": "mars", "date": "1943-06"}), "nation"),
        (client.post(f"{API}/edit", json={"roster": roster, "op": "remove", "path": "s9"}), "path"),
        (
            client.post(f"{API}/edit", json={"roster": roster, "op": "add", "entry": "afv:nope"}),
            "entry",
        ),
        (client.post(f"{API}/edit", json={"roster": roster, "op": "add"}), "entry"),
        (client.post(f"{API}/edit", json={"roster": roster, "op": "explode"}), "op"),
        (client.post(f"{API}/validate", json={"roster": {**roster, "date": "1999-01"}}), "date"),
        (
            client.post(f"{API}/validate", json={"roster": {**roster, "ruleset": "x"}}),
            "roster.ruleset",
        ),
        (client.post(f"{API}/validate", json={"roster": {**roster, "colour": 1}}), "colour"),
        (client.post(f"{API}/export/odt", json={"roster": roster}), "format"),
    ]
    for r, field in cases:
        assert r.status_code == 422, (field, r.text)
        assert _field(r).endswith(field), (field, r.json())
    missing = client.get("/api/army/quickref/nations")
    assert missing.status_code == 404 and missing.json()["detail"]["field"] == "ruleset"
