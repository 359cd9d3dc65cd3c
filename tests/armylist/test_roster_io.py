"""Roster documents: JSON and .ros round trips, migration with a diff, and the `army` CLI."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kriegsspiel.armylist import RosterError, load_roster
from kriegsspiel.armylist.migrate import diff, migrate
from kriegsspiel.armylist.panzerfaust import Builder
from kriegsspiel.armylist.panzerfaust.catalogue import ADHOC
from kriegsspiel.armylist.ros import from_ros, to_ros
from kriegsspiel.armylist.roster import Roster, Selection, dump_roster, parse_roster
from kriegsspiel.cli.main import main


@pytest.fixture(scope="module")
def b() -> Builder:
    return Builder()


@pytest.fixture
def roster(b) -> Roster:
    r = b.new("germany", "1944-06", "Normandy", 3000, "Kampfgruppe")
    co = b.add(r, "", "organisation:germany/panzer-company-late", rating="ss", name="2./SS-Pz")
    co.notes = "Villers-Bocage"
    adhoc = b.add(r, "", ADHOC)
    b.add(r, adhoc.id, "organisation:germany/infantry-platoon")
    b.add(r, "", "gun:germany/105mm-l28-fh-18", count=2, options=["ammo:HEAT"])
    return r


def test_json_round_trip_is_lossless(roster):
    again = parse_roster(json.loads(dump_roster(roster, "json")))
    assert again == roster


def test_ros_round_trip_is_lossless(b, roster):
    text = to_ros(roster, b.sheet(roster))
    assert "<selection" in text and 'entryId="organisation:germany/panzer-company-late"' in text
    assert from_ros(text) == roster


_ids = st.integers(min_value=1, max_value=10_000).map(lambda n: f"s{n}")
_sel = st.recursive(
    st.builds(
        Selection,
        id=_ids,
        entry=st.sampled_from(["afv:germany/stug-iii-g", "infantry_team:germany/rifle-team"]),
        count=st.integers(1, 100),
        name=st.none() | st.text(st.characters(blacklist_categories=("Cc", "Cs")), max_size=20),
        notes=st.none()
        | st.text(
            st.characters(blacklist_categories=("Cs",), blacklist_characters="\r"), max_size=40
        ).map(
            lambda t: "".join(ch for ch in t if ch in "\n\t" or ord(ch) >= 32 and ord(ch) != 127)
        ),
        rating=st.none() | st.sampled_from(["ss", "all_other"]),
        options=st.lists(st.sampled_from(["skirts:6", "radio", "ammo:HEAT"]), max_size=3),
    ),
    lambda kids: st.builds(
        Selection,
        id=_ids,
        entry=st.just("organisation:germany/infantry-company"),
        children=st.lists(kids, max_size=3),
    ),
    max_leaves=8,
)


@settings(max_examples=40, deadline=None)
@given(st.lists(_sel, max_size=3))
def test_any_roster_survives_json_and_ros(selections):
    """Invariant: both documented formats keep every field of every selection."""
    r = Roster(ruleset="panzerfaust", nation="germany", date="1943-05", selections=selections)
    assert parse_roster(json.loads(dump_roster(r, "json"))) == r
    assert from_ros(to_ros(r)) == r


def test_migration_lists_every_change_and_drops_nothing(b, roster, tmp_path):
    roster.snapshot = b.snapshot(roster)
    old = roster.model_copy(deep=True)
    # as if saved against older data: another price, other dates, an entry since removed
    tank = "afv:germany/pz-iv-ausf-g-j"
    old.snapshot[tank] = old.snapshot[tank].model_copy(update={"pv": 150, "provenance": "seed"})
    ghost = "afv:germany/pz-iv-ausf-z"
    old.snapshot[ghost] = old.snapshot[tank].model_copy(update={"name": "Pz IV Z"})
    old.selections[0].children.append(Selection(id="s99", entry=ghost, count=1))
    changes = {(c.entry, c.field) for c in diff(old, b)}
    assert (tank, "pv") in changes and (tank, "provenance") in changes
    assert (ghost, "removed") in changes
    new, _ = migrate(old, b)
    assert any(s.entry == ghost for _, s, _ in new.walk())  # never a silent drop
    assert new.snapshot[tank].pv == b.ac.price(tank).pv
    assert new.data_revision == b.ac.revision
    rep = b.validate(new)
    assert any(m.path and m.path.endswith("s99") for m in rep.of("error"))


def test_roster_file_errors_name_the_file_and_field(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "format: kriegsspiel-roster\nruleset: panzerfaust\nnation: germany\ndate: 1950-1\n"
    )
    with pytest.raises(RosterError, match=r"bad.yaml: field date"):
        load_roster(bad)
    broken = tmp_path / "broken.yaml"
    broken.write_text("ruleset: [unclosed\n")
    with pytest.raises(RosterError, match=r"broken.yaml:\d+"):
        load_roster(broken)


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_cli_builds_validates_and_exports(tmp_path, capsys):
    f = str(tmp_path / "g.yaml")
    code, _, _ = run(
        capsys, "army", "new", "panzerfaust", "--nation", "germany", "--date", "1943-06",
        "--points", "1500", "--out", f,
    )  # fmt: skip
    assert code == 0
    code, out, _ = run(capsys, "army", "list", f, "--available", "--json")
    rows = json.loads(out)
    assert any(r["entry"] == "organisation:germany/infantry-company" for r in rows)
    assert run(capsys, "army", "add", f, "/", "organisation:germany/infantry-company")[0] == 0
    assert run(capsys, "army", "rename", f, "s1", "1. Kompanie")[0] == 0
    code, out, _ = run(capsys, "army", "validate", f, "--json")
    assert code == 0
    report = json.loads(out)
    assert set(report) >= {"total_pv", "limit", "errors", "warnings", "info"}
    assert report["limit"] == 1500 and report["errors"] == []
    html = tmp_path / "g.html"
    assert run(capsys, "army", "export", f, "--format", "html", "--out", str(html))[0] == 0
    assert "1. Kompanie" in html.read_text() and 'class="card"' in html.read_text()
    code, out, _ = run(capsys, "army", "export", f, "--format", "text")
    assert code == 0 and "1. Kompanie" in out
    ros = tmp_path / "g.ros"
    assert run(capsys, "army", "export", f, "--format", "bs-roster", "--out", str(ros))[0] == 0
    assert from_ros(ros.read_text()) == load_roster(tmp_path / "g.yaml")
    code, _, err = run(capsys, "army", "export", f, "--format", "pdf")
    assert code == 2 and "--out" in err  # a binary file is never written to the terminal
    pdf = tmp_path / "g.pdf"
    assert run(capsys, "army", "export", f, "--format", "pdf", "--out", str(pdf))[0] == 0
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF-") and b"/Type /Page" in data
    if shutil.which("pdftotext"):  # poppler-utils: read the page back as a person would
        text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True)
        assert "1. Kompanie" in text.stdout
    assert run(capsys, "army", "remove", f, "s1")[0] == 0
    assert load_roster(tmp_path / "g.yaml").selections == []
    code, out, _ = run(capsys, "army", "migrate", f, "--json")
    assert code == 0 and json.loads(out)["changes"] == []


def test_cli_invalid_roster_and_user_errors_exit_2(tmp_path, capsys):
    f = str(tmp_path / "g.yaml")
    run(capsys, "army", "new", "panzerfaust", "--nation", "germany", "--date", "1939-09",
        "--out", f)  # fmt: skip
    run(capsys, "army", "add", f, "/", "organisation:germany/panzer-grenadier-company")
    code, out, _ = run(capsys, "army", "validate", f, "--json")
    assert code == 2 and json.loads(out)["errors"][0]["code"] == "date_window"
    code, _, err = run(capsys, "army", "export", f, "--strict")
    assert code == 2 and "strict" in err
    before = (tmp_path / "g.yaml").read_text()
    code, _, err = run(capsys, "army", "add", f, "s77", "afv:germany/stug-iii-g")
    assert code == 2 and "no selection 's77'" in err
    code, _, err = run(capsys, "army", "add", f, "/", "afv:germany/no-such-tank")
    assert code == 2 and "no-such-tank" in err
    code, _, err = run(capsys, "army", "rename", f, "s1", "two\x01lines")
    assert code == 2 and "field name" in err
    assert (tmp_path / "g.yaml").read_text() == before  # nothing half-written
    code, _, err = run(capsys, "army", "new", "quickref", "--nation", "x", "--date", "1944-01",
                       "--out", f)  # fmt: skip
    assert code == 2 and "no army builder for ruleset 'quickref'" in err
    code, _, err = run(capsys, "army", "validate", str(tmp_path / "missing.yaml"))
    assert code == 2 and "missing.yaml" in err
