"""`kriegsspiel odds|resolve panzerfaust ACTION`: every action of the issue runs, the JSON has
quickref's shape, bad input exits 2 with the reason, `--option` switches a contradiction, and a
user's overlay replaces a lost table's placeholder with no code change."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from kriegsspiel.cli.main import main

PAK40 = ("--firer", "germany/75mm-l46-pak-40")
ACTIONS = {
    "at-fire": (*PAK40, "--target", "usa_europe/m4", "--range", "65"),
    "area-fire": (*PAK40, "--range", "65"),
    "infantry-fire": ("--teams", "common/rifle-team:3,common/lmg-team-belt", "--range", "20"),
    "cqc": ("--attackers", "common/rifle-team:3", "--defenders", "common/smg-team:2"),
    "infantry-at": ("--weapon", "Panzerfaust 30/60", "--target", "usa_europe/m4", "--range", "5"),
    "indirect": (),
    "call-down": (),
    "morale": (),
    "pips": (),
    "observe": ("--distance", "100"),
    "bog": (),
    "aa-fire": (),
    "mine": (),
}


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("action", ACTIONS)
def test_every_action_gives_exact_odds(capsys, action):
    code, out, err = run(capsys, "odds", "panzerfaust", action, *ACTIONS[action], "--json")
    assert code == 0, err
    payload = json.loads(out)
    assert set(payload) >= {"outcomes", "exact", "placeholders"}
    assert sum(Fraction(v) for v in payload["exact"].values()) == 1
    code, out, err = run(capsys, "resolve", "panzerfaust", action, *ACTIONS[action], "--seed", "5")
    assert code == 0, err
    assert "result:" in out


def test_placeholders_are_listed_in_text_and_json(capsys):
    code, out, _ = run(capsys, "odds", "panzerfaust", "call-down")
    assert code == 0 and "placeholder" in out and "call-down-table.fao.vet_reg" in out
    code, out, _ = run(capsys, "odds", "panzerfaust", "call-down", "--json")
    assert json.loads(out)["placeholders"] == ["rules-placeholder:call-down-table.fao.vet_reg"]


def test_resolve_is_repeatable_and_explained(capsys):
    argv = ("resolve", "panzerfaust", "at-fire", *ACTIONS["at-fire"], "--seed", "3", "--json")
    _, first, _ = run(capsys, *argv)
    _, second, _ = run(capsys, *argv)
    assert first == second
    payload = json.loads(first)
    assert any("band 4 (to 80 cm)" in line for line in payload["explanation"])
    assert payload["rolls"][0]["dice"] == "3d6"


@pytest.mark.parametrize(
    "argv, reason",
    [
        (("at-fire", "--firer", "Pak 4O", "--target", "usa_europe/m4", "--range", "65"), "PaK 40"),
        (
            ("at-fire", "--firer", "Panther", "--target", "usa_europe/m4", "--range", "300"),
            "250 cm",
        ),
        (
            ("at-fire", "--firer", "StuG", "--target", "usa_europe/m4", "--range", "65"),
            "use an id",
        ),
        (("infantry-fire", "--teams", "common/rifle-team:x", "--range", "20"), "not a number"),
        (("cqc", "--attackers", "common/lmg-team-belt", "--defenders", "common/smg-team"), "lost"),
        (("aa-fire", "--altitude", "medium"), "medium altitude"),
        (("aa-fire", "--range", "50"), "beyond"),
    ],
)
def test_bad_input_exits_2_with_the_reason(capsys, argv, reason):
    code, out, err = run(capsys, "odds", "panzerfaust", *argv)
    assert code == 2 and reason in err + out
    assert "Traceback" not in err + out


def test_unknown_option_exits_2(capsys):
    code, _, err = run(capsys, "odds", "panzerfaust", "pips", "--option", "mortar_flash=half")
    assert code == 2 and "mortar_flash" in err


def test_option_switches_a_contradiction(capsys):
    """Decision P70: a mortar's flash at x1/3 (p9) or x1/4 (p36)."""
    argv = ("odds", "panzerfaust", "flash", "--weapon", "mortar", "--calibre-mm", "81")
    argv += ("--distance", "18", "--json")
    _, third, _ = run(capsys, *argv)
    _, quarter, _ = run(capsys, *argv, "--option", "mortar_flash=quarter")
    assert json.loads(third)["exact"]["exact"] == "1/1"
    assert json.loads(quarter)["exact"]["general"] == "1/1"


def test_overlay_replaces_lost_tables(capsys, tmp_path):
    """A printed copy's call-down table (a table the data did not have) and one Observation
    Table cell: the placeholders disappear and the odds change, with no code change."""
    ov = tmp_path / "printed.yaml"
    ov.write_text(
        """ruleset: panzerfaust
changes:
  - kind: table
    add:
      id: common/call-down-table
      name: Call-down table (printed copy)
      nation: common
      page: 36
      source: {seed: 000_74e73e3716f2a7dc.txt, page: 36}
      columns: [us, vet_reg, conscript]
      rows:
        - {key: fao, values: {us: 11, vet_reg: 10, conscript: 9}}
        - {key: company_commander, values: {us: 10, vet_reg: 9, conscript: 8}}
  - kind: table
    id: common/observation-table
    set: {rows.0.values.size_c: 300}
"""
    )
    code, out, _ = run(
        capsys, "--data-overlay", str(ov), "odds", "panzerfaust", "call-down", "--json"
    )
    payload = json.loads(out)
    assert code == 0 and payload["exact"]["arrives"] == "1/2" and payload["placeholders"] == []
    argv = ("odds", "panzerfaust", "observe", "--distance", "250", "--json")
    _, before, _ = run(capsys, *argv)
    _, after, _ = run(capsys, "--data-overlay", str(ov), *argv)
    assert json.loads(before)["exact"]["observed"] == "0/1"
    assert json.loads(after)["exact"]["observed"] == "1/1"
    assert json.loads(after)["placeholders"] == []
