"""Data files and overlays: validation errors name file, line and field; provenance lookups."""

from __future__ import annotations

from pathlib import Path

import pytest

from kriegsspiel.data import DataError, Provenance, Record, apply_overlay, load_catalogue


class Thing(Record):
    armour: dict[str, int] | None = None
    speed: int | None = None


KINDS = {"thing": Thing}


def write(tmp: Path, name: str, text: str) -> Path:
    path = tmp / name
    path.write_text(text)
    return path


GOOD = """kind: thing
source: {seed: s.txt, page: 3}
provenance: seed
records:
  - id: a
    name: Alpha
    armour: {value: {front: 5, side: 2}, provenance: historical, ref: "a book"}
    speed: {value: 10, provenance: placeholder, note: invented}
  - id: b
    name: Beta
    speed: null
"""


def test_load_and_provenance(tmp_path):
    write(tmp_path, "t.yaml", GOOD)
    cat = load_catalogue("x", tmp_path, KINDS, overlays=[])
    a = cat.get("thing", "alpha")
    assert a.armour == {"front": 5, "side": 2}
    assert a.prov("armour.front") is Provenance.HISTORICAL
    assert a.prov_entry("armour").ref == "a book"
    assert a.prov("speed") is Provenance.PLACEHOLDER
    assert a.placeholders("speed", "armour.side") == ["a.speed"]
    assert cat.get("thing", "b").prov("speed") is Provenance.SEED


def test_error_names_file_line_and_field(tmp_path):
    write(tmp_path, "bad.yaml", GOOD.replace("speed: null", "speed: fast"))
    with pytest.raises(DataError) as exc:
        load_catalogue("x", tmp_path, KINDS, overlays=[])
    issue = exc.value.issues[0]
    assert issue.file.endswith("bad.yaml") and issue.line == 11 and "speed" in issue.field


def test_yaml_syntax_error_has_line(tmp_path):
    write(tmp_path, "bad.yaml", "kind: thing\nrecords:\n  - id: [unclosed\n")
    with pytest.raises(DataError) as exc:
        load_catalogue("x", tmp_path, KINDS, overlays=[])
    assert exc.value.issues[0].line is not None


def test_unknown_field_and_duplicate_id(tmp_path):
    write(tmp_path, "t.yaml", GOOD + "  - id: a\n    name: Again\n    colour: red\n")
    with pytest.raises(DataError) as exc:
        load_catalogue("x", tmp_path, KINDS, overlays=[])
    text = str(exc.value)
    assert "colour" in text and "t.yaml:14" in text


def test_duplicate_id(tmp_path):
    write(tmp_path, "t.yaml", GOOD + "  - id: a\n    name: Again\n")
    with pytest.raises(DataError, match="duplicate thing id 'a'"):
        load_catalogue("x", tmp_path, KINDS, overlays=[])


def test_unknown_name_lists_closest(tmp_path):
    write(tmp_path, "t.yaml", GOOD)
    cat = load_catalogue("x", tmp_path, KINDS, overlays=[])
    with pytest.raises(LookupError, match="closest: Alpha"):
        cat.get("thing", "Alpah")


def test_aliases_resolve_and_shared_ones_list_every_record(tmp_path):
    text = GOOD.replace("name: Alpha", 'name: Alpha\n    aliases: ["The A", "Common"]')
    write(tmp_path, "t.yaml", text.replace("name: Beta", "name: Beta\n    aliases: [Common]"))
    cat = load_catalogue("x", tmp_path, KINDS, overlays=[])
    assert cat.get("thing", "the  a").id == "a"
    with pytest.raises(LookupError, match=r"ambiguous.*a \(Alpha\), b \(Beta\)"):
        cat.get("thing", "common")
    with pytest.raises(LookupError, match="closest: The A"):
        cat.get("thing", "The B")


def test_alias_hiding_another_record_is_refused(tmp_path):
    write(tmp_path, "t.yaml", GOOD.replace("name: Alpha", "name: Alpha\n    aliases: [beta]"))
    with pytest.raises(DataError, match=r"t.yaml:5 \[a: aliases\]: alias 'beta' is the id or name"):
        load_catalogue("x", tmp_path, KINDS, overlays=[])


def test_overlay_sets_fields_with_overlay_provenance(tmp_path):
    write(tmp_path, "t.yaml", GOOD)
    ov = write(
        tmp_path.parent,
        "ov.yaml",
        """ruleset: x
changes:
  - kind: thing
    id: b
    set: {speed: 12, armour.front: 3}
    note: my printed copy
""",
    )
    cat = load_catalogue("x", tmp_path, KINDS, overlays=[ov])
    b = cat.get("thing", "b")
    assert b.speed == 12 and b.armour == {"front": 3}
    assert b.prov("speed") is Provenance.OVERLAY
    assert b.prov_entry("armour.front").note == "my printed copy"


def test_bad_overlay_changes_nothing(tmp_path):
    write(tmp_path, "t.yaml", GOOD)
    cat = load_catalogue("x", tmp_path, KINDS, overlays=[])
    ov = write(
        tmp_path.parent,
        "ov.yaml",
        """ruleset: x
changes:
  - kind: thing
    id: a
    set: {speed: 99}
  - kind: thing
    id: b
    set: {speed: slow}
""",
    )
    with pytest.raises(DataError) as exc:
        apply_overlay(cat, ov)
    assert "ov.yaml:8" in str(exc.value) and "speed" in str(exc.value)
    assert cat.get("thing", "a").speed == 10  # the valid first change was not applied either


def test_overlay_for_another_ruleset_is_refused(tmp_path):
    write(tmp_path, "t.yaml", GOOD)
    cat = load_catalogue("x", tmp_path, KINDS, overlays=[])
    ov = write(tmp_path.parent, "ov.yaml", "ruleset: y\nchanges: []\n")
    with pytest.raises(DataError, match="not 'x'"):
        apply_overlay(cat, ov)


class Listed(Record):
    to_hit: list[int | None] = []
    shield: bool | None = None
    NOT_APPLICABLE = frozenset({"shield"})


def test_audit_flattens_lists_and_tells_lost_from_not_applicable(tmp_path):
    from kriegsspiel.data.audit import audit

    write(
        tmp_path,
        "l.yaml",
        """kind: listed
source: {seed: s.txt}
records:
  - id: g
    name: Gun
    to_hit: [12, null, {value: null, provenance: seed, note: lost in transcription}]
""",
    )
    cat = load_catalogue("x", tmp_path, {"listed": Listed}, overlays=[])
    g = cat.get("listed", "g")
    assert list(g.leaf_fields()) == ["to_hit.0", "to_hit.1", "to_hit.2", "shield"]
    assert g.null_status("to_hit.2") == "missing" and g.null_status("shield") == "n/a"
    row = audit(cat)[0].as_dict()
    assert (
        row["counts"]["seed"] == 1 and row["counts"]["missing"] == 2 and row["not_applicable"] == 1
    )
    assert cat.resolve("listed:g") is g
    with pytest.raises(LookupError, match="no listed with id"):
        cat.resolve("listed:h")
    with pytest.raises(LookupError, match="bad reference"):
        cat.resolve("g")
