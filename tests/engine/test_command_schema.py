"""Commands validated as data before the rules see them (issue 13 item 5): every quickref
command type has a schema; malformed commands are refused naming the field and change nothing;
a fuzz test over the schemas and broken variants finds no other exception."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kriegsspiel.engine import Game, IllegalCommand, load_scenario
from kriegsspiel.rulesets.quickref.game.commands import MODELS

from .test_game import advance_to

PROBE = Path(__file__).parent / "scenarios" / "infantry_probe.yaml"
NAN = float("nan")


def at(phase: str) -> Game:
    g = Game(load_scenario(PROBE), seed=1)
    advance_to(g, phase)
    return g


def refused(g: Game, side: str, cmd: dict) -> IllegalCommand:
    n, h = len(g.events), g.state_hash()
    with pytest.raises(IllegalCommand) as exc:
        g.submit(side, cmd)
    assert len(g.events) == n and g.state_hash() == h
    return exc.value


def test_every_command_type_of_quickref_has_a_schema():
    g = at("move_a1")
    types = {c["type"] for side in g.sides for c in g.rules.legal_commands(g.state, side)}
    assert types <= set(MODELS)
    assert set(MODELS) == {
        "end_phase",
        "initiative",
        "hatches",
        "fire",
        "move",
        "dismount",
        "call_fire",
        "hold",
        "adjust",
        "assault",
    }
    assert g.rules.command_models() is MODELS


@pytest.mark.parametrize(
    "phase,cmd,field",
    [
        ("move_a1", {"type": "move", "unit": "r1", "path": [[NAN, NAN]]}, "path"),
        ("move_a1", {"type": "move", "unit": "r1", "path": [[15, 3]], "facing": NAN}, "facing"),
        ("move_a1", {"type": "move", "unit": "r1", "path": [[15, 3]], "facing": "abc"}, "facing"),
        ("move_a1", {"type": "move", "unit": "r1", "path": [{"x": 15, "y": 3}]}, "path"),
        ("move_a1", {"type": "move", "unit": "r1", "path": [[15, 2]] * 100_000}, "path"),
        ("move_a1", {"type": "move", "unit": "r1", "path": [[10**400, 3]]}, "path"),
        ("move_a1", {"type": "move", "unit": ["r1"], "path": [[15, 3]]}, "unit"),
        ("move_a1", {"type": "move", "unit": "r1", "path": [[15, math.inf]]}, "path"),
        ("fire_all", {"type": "fire", "unit": "r1", "target": "b3", "weapon": "xyz"}, "weapon"),
        ("fire_all", {"type": "fire", "unit": "r1", "target": "b3", "weapon": 7}, "weapon"),
        ("fire_all", {"type": "fire", "units": ["r1"] * 1000, "target": "b3"}, "units"),
        ("fire_all", {"type": "fire", "target": "b3"}, "unit"),
        (
            "fire_all",
            {"type": "fire", "unit": "r1", "target": "b3", "suppressive": "yes!"},
            "suppressive",
        ),
        (
            "arty_plot",
            {
                "type": "call_fire",
                "observer": "rhq",
                "battery": "medium-mortar",
                "x": NAN,
                "y": NAN,
            },
            "x",
        ),
        (
            "arty_plot",
            {
                "type": "call_fire",
                "observer": "rhq",
                "battery": "medium-mortar",
                "x": 10**400,
                "y": 3,
            },
            "x",
        ),
        (
            "arty_plot",
            {"type": "call_fire", "observer": "rhq", "battery": "medium-mortar", "x": 99, "y": 3},
            "x",
        ),
        ("move_a1", {"type": "dismount", "unit": "r1", "x": NAN, "y": 1}, "x"),
        ("move_a1", {"type": "hatches", "buttoned": {"r1": "maybe"}}, "buttoned"),
        ("move_a1", {"type": "hatches", "buttoned": []}, "buttoned"),
    ],
)
def test_malformed_commands_are_refused_by_field_and_change_nothing(phase, cmd, field):
    g = at(phase)
    side = "red"
    exc = refused(g, side, cmd)
    assert exc.field == field, exc.reason
    assert len(exc.reason) < 400  # the refusal does not echo a huge input


def test_adjust_with_nan_is_refused_before_it_can_hit_anything():
    g = at("move_a1")
    exc = refused(g, "red", {"type": "adjust", "mission": "m1", "x": NAN, "y": NAN})
    assert exc.field == "x"


def test_a_refused_command_never_leaves_nan_in_any_view():
    g = at("move_a1")
    for facing in (NAN, math.inf, "abc"):
        refused(g, "red", {"type": "move", "unit": "r1", "path": [[15, 3]], "facing": facing})
    for side in (*g.sides, "umpire"):
        json.dumps(g.view(side), allow_nan=False)  # strict JSON: would raise on NaN


# ------------------------------------------------------------------ fuzz
def _value():
    return st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(10**30), 10**30),
        st.floats(allow_nan=True, allow_infinity=True),
        st.text(max_size=12),
        st.sampled_from(["r1", "r2", "rhq", "b1", "b2", "b3", "m1", "red-m1", "medium-mortar"]),
    )


_scalars = _value()
_values = st.recursive(
    _scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)
_points = st.lists(
    st.tuples(st.floats(-5, 35, allow_nan=False), st.floats(-5, 35, allow_nan=False)).map(list),
    min_size=1,
    max_size=4,
)


@st.composite
def commands(draw):
    """A command of a known type with fields drawn from its schema's names, holding good or
    broken values (right-looking ids, points on and off the table, NaN, nested junk)."""
    kind = draw(st.sampled_from(sorted(MODELS)))
    fields = [f for f in MODELS[kind].model_fields if f != "type"]
    cmd = {"type": kind}
    for f in draw(st.lists(st.sampled_from(fields), unique=True)) if fields else []:
        if f == "path":
            cmd[f] = draw(st.one_of(_points, _values))
        elif f == "buttoned":
            cmd[f] = draw(
                st.one_of(
                    st.dictionaries(st.sampled_from(["r1", "b1", "x"]), _scalars, max_size=3),
                    _values,
                )
            )
        elif f in ("units",):
            cmd[f] = draw(
                st.one_of(st.lists(st.sampled_from(["r1", "r2", "rhq", "b3"]), max_size=4), _values)
            )
        elif f in ("x", "y", "facing"):
            cmd[f] = draw(st.one_of(st.floats(-5, 35), _values))
        else:
            cmd[f] = draw(_values)
    if draw(st.booleans()):
        cmd[draw(st.text(max_size=6))] = draw(_values)
    return cmd


PHASES = ["initiative", "arty_plot", "fire_all", "move_a1"]
GAMES: dict[str, Game] = {}


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(PHASES), st.sampled_from(["red", "blue"]), commands())
def test_fuzzed_commands_raise_only_illegal_command_and_refusals_change_nothing(phase, side, cmd):
    if phase not in GAMES:
        GAMES[phase] = at(phase)
    g = GAMES[phase]
    n, h = len(g.events), g.state_hash()
    try:
        new = g.submit(side, cmd)
    except IllegalCommand as exc:
        assert len(g.events) == n and g.state_hash() == h, exc.reason
        assert isinstance(exc.reason, str) and len(exc.reason) < 600
        return
    for e in new:
        json.dumps(e.to_json(), allow_nan=False)
    for s in (*g.sides, "umpire"):
        json.dumps(g.view(s), allow_nan=False)
    g.undo("umpire")  # back to the phase for the next example
    assert g.state_hash() == h


def test_a_command_gives_the_same_answer_from_the_memo():
    """`validate_command` memoises the commands it accepted (by model and the exact bytes of
    context and command): a command accepted is accepted again with the same checked form and
    canonical text, each caller gets its own copy, and a command refused is refused every
    time."""
    from pydantic import model_validator

    from kriegsspiel.engine.command_schema import CommandModel, validate_command
    from kriegsspiel.engine.fairplay import canonical

    class NeedsUnit(CommandModel):
        unit: str | None = None

        @model_validator(mode="after")
        def _named(self):
            if self.unit is None:
                raise ValueError("unit: name a unit")
            return self

    models = {"end_phase": MODELS["end_phase"], "hold": NeedsUnit}
    ctx = {"table": (48.0, 48.0)}
    for _ in range(2):
        assert validate_command(models, {"type": "end_phase"}, ctx) == (
            {"type": "end_phase"},
            '{"type":"end_phase"}',
        )
        with pytest.raises(IllegalCommand) as exc:
            validate_command(models, {"type": "hold"}, ctx)
        assert exc.value.field == "unit"
    for _ in range(2):
        out, text = validate_command(models, {"type": "hold", "unit": "a", "hint": 3}, ctx)
        assert out == {"type": "hold", "unit": "a"} and text == canonical(out)
        out["unit"] = "changed"  # the caller's copy: the memo keeps its own
    again, _ = validate_command(models, {"type": "hold", "unit": "a", "hint": 3}, ctx)
    assert again == {"type": "hold", "unit": "a"}


@pytest.mark.parametrize("first", [1, 1.0, True, "1"])
def test_equal_values_of_other_types_are_not_one_memo_entry(first):
    """1, 1.0 and True are equal in Python but not the same command: each is read by the
    model as if the memo were empty (the canonical text keys the dice)."""
    from kriegsspiel.engine import command_schema
    from kriegsspiel.engine.command_schema import CommandModel, validate_command

    class Aim(CommandModel):
        x: Any  # kept as given: 1, 1.0 and True dump as they came

    models, ctx = {"aim": Aim}, {"table": (48.0, 48.0)}
    values = [first, *(v for v in (1, 1.0, True, "1") if v is not first)]
    fresh = {}
    for v in values:
        command_schema._ACCEPTED.clear()
        fresh[repr(v)] = _answer(validate_command, models, {"type": "aim", "x": v}, ctx)
    command_schema._ACCEPTED.clear()
    for v in values:  # one after another through the memo
        assert _answer(validate_command, models, {"type": "aim", "x": v}, ctx) == fresh[repr(v)]


def _answer(validate, models, command, ctx):
    try:
        return validate(models, command, ctx)
    except IllegalCommand as exc:
        return ("refused", str(exc), exc.field)
