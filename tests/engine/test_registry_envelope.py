"""The ruleset registry, the view envelope and per-side aliases (issue 14, items 6-7)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import kriegsspiel.engine as engine_pkg
from kriegsspiel.engine import Game, registry
from kriegsspiel.engine.aliases import PREFIX, Aliases
from kriegsspiel.engine.envelope import check_envelope, missing_keys
from kriegsspiel.engine.scenario import all_scenarios

ENGINE = Path(engine_pkg.__file__).parent


def test_engine_imports_no_ruleset():
    """No module of the engine imports the rulesets package (DESIGN: layering)."""
    for f in ENGINE.glob("*.py"):
        tree = ast.parse(f.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                mod = node.module or ""
                assert "rulesets" not in mod, (f.name, mod)
            elif isinstance(node, ast.Import):
                assert not any("rulesets" in a.name for a in node.names), f.name


def test_generic_layers_name_no_ruleset():
    """The ai/ root, sim/ and render/ import no ruleset and name none (issue 14 item 7): each
    ruleset's bot lives in ai/<id>/, its drawing data in its registry entry."""
    import kriegsspiel

    root = Path(kriegsspiel.__file__).parent
    files = [
        *(root / "ai").glob("*.py"),
        *(root / "sim").glob("*.py"),
        *(root / "render").glob("*.py"),
    ]
    assert len(files) > 8
    for f in files:
        text = f.read_text()
        for name in ("rulesets", "quickref", "panzerfaust", "battleground"):
            assert name not in text, (f.name, name)


def test_registry_lists_shipped_rulesets():
    ids = [e.id for e in registry.entries()]
    assert {"quickref", "panzerfaust", "battleground", "demo"} <= set(ids)
    assert registry.entry("QuickRef").unit == "inch"
    with pytest.raises(LookupError, match="unknown ruleset 'chess'"):
        registry.entry("chess")


def test_a_ruleset_without_games_says_so():
    with pytest.raises(NotImplementedError, match="not implemented"):
        registry.game_rules("battleground")


def playable():
    out = []
    for sc in all_scenarios():
        try:
            registry.game_rules(sc.ruleset)
        except NotImplementedError:
            continue
        out.append(sc)
    return out


@pytest.mark.parametrize("scenario", playable(), ids=lambda s: s.id)
def test_every_view_fits_the_envelope(scenario):
    game = Game(scenario, seed=3)
    for side in [*game.sides, "umpire", "spectator"]:
        view = game.view(side)
        check_envelope(view)
        assert view["ruleset"] == scenario.ruleset
        assert view["table"]["unit"] == scenario.table.unit


def test_missing_keys_are_named():
    assert "phase_title" in missing_keys({"ruleset": "x", "x": {}})
    assert "x" in missing_keys({"ruleset": "x"})  # the ruleset section
    with pytest.raises(ValueError, match="turn"):
        check_envelope({"ruleset": "x", "x": {}})


def test_aliases_are_per_side_stable_and_opaque():
    a, b = Aliases(seed=7), Aliases(seed=7)
    x = a.alias("blue", "red-hq")
    assert x == b.alias("blue", "red-hq")  # stable across replays
    assert x.startswith(PREFIX) and "red" not in x and "hq" not in x
    assert x != a.alias("green", "red-hq")  # another side, another name
    assert x != Aliases(seed=8).alias("blue", "red-hq")  # another game, another name
    assert a.resolve("blue", x) == "red-hq"
    assert a.resolve("green", x) is None  # one side's alias means nothing to another
    names = {a.alias("blue", f"p{i}") for i in range(200)}
    assert len(names) == 200


def test_playable_rulesets():
    assert registry.playable("quickref") and registry.playable("demo")
    assert not registry.playable("battleground") and not registry.playable("chess")
