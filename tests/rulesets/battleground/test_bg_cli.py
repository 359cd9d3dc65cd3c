"""`kriegsspiel odds|resolve battleground ...`: JSON shape, seeded explanations, exit code 2."""

from __future__ import annotations

import json

import pytest

from kriegsspiel.cli.main import main


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_odds_json(capsys):
    code, out, _ = run(
        capsys, "odds", "battleground", "fire", "--weapon", "Kar 98k", "--range", "16", "--json"
    )
    data = json.loads(out)
    assert code == 0 and set(data) >= {"outcomes", "exact", "placeholders"}
    assert data["exact"]["jam"] == "1/20" and data["exact"]["KIA"] == "2/25"
    assert abs(sum(data["outcomes"].values()) - 1) < 1e-12
    assert "effects_chart.cells.5.E" in data["placeholders"]


def test_resolve_is_seeded_and_explained(capsys):
    args = ("resolve", "battleground", "tank-fire", "--firer", "pak40", "--target", "king_tiger")
    args += ("--range", "30", "--facing", "side", "--seed", "3", "--json")
    _, first, _ = run(capsys, *args)
    _, second, _ = run(capsys, *args)
    a, b = json.loads(first), json.loads(second)
    assert a == b and a["rolls"] and a["rolls"][0]["page"] == "§3.29"
    assert any("gun to-hit" in line for line in a["explanation"])


def test_injected_dice(capsys):
    code, out, _ = run(
        capsys, "resolve", "battleground", "morale", "--morale", "10", "--dice", "1,3", "--json"
    )
    data = json.loads(out)
    assert code == 0 and data["result"] == "hero" and data["detail"]["hero"] == "stud_hero"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("fire", "--weapon", "Kar98", "--range", "5"), "closest"),
        (
            ("fire", "--weapon", "kar98k", "--range", "-1"),
            "'--range': -1.0 is not in the range 0<=x<=100",
        ),
        (("grenade", "--range", "9"), "cannot reach"),
        (("morale", "--morale", "twelve"), "expected e.g. 12"),
        (("tank-fire", "--firer", "jeep", "--target", "pziv_h", "--range", "5"), "no main gun"),
        (("fire", "--weapon", "kar98k", "--range", "5", "--cover", "castle"), "cover 'castle'"),
        (("ramming",), "not implemented: ramming"),
        (("fire", "--weapon", "kar98k", "--range", "20", "--ambush"), "reaches 15 in"),
    ],
)
def test_bad_input_exits_2(capsys, argv, message):
    code, out, err = run(capsys, "odds", "battleground", *argv)
    assert code == 2 and message in out + err and "Traceback" not in out + err


def test_option_switch(capsys):
    code, out, _ = run(
        capsys,
        *("odds", "battleground", "rally", "--morale", "10", "--light-wound"),
        *("--option", "halving=down", "--json"),
    )
    assert code == 0 and json.loads(out)["exact"]["rallied"] == "1/10"


def test_negative_leadership_is_accepted(capsys):
    """A directing leader's modifier may be negative (e.g. -2): not refused as a count."""
    args = ("odds", "battleground", "fire", "--weapon", "Kar 98k", "--range", "16", "--json")
    _, plain, _ = run(capsys, *args)
    code, led, err = run(capsys, *args, "--leadership", "-2")
    assert code == 0, err
    assert json.loads(led)["outcomes"] != json.loads(plain)["outcomes"]
