"""Every action of every ruleset's `odds` and `resolve`, enumerated from the actions registry
(a new ruleset's actions are covered without editing this file; a required parameter needs
an `example`): with its defaults it answers
(exit 0; an action declared `not_implemented` refuses by name, exit 2); with a bad value for any parameter it refuses with one line and exit 2; never a
traceback or an internal error (issue 15 item 2)."""

from __future__ import annotations

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from kriegsspiel.cli.main import main
from kriegsspiel.rulesets import RULESETS, ruleset_actions
from kriegsspiel.server import odds_api

CASES = [(ruleset, action) for ruleset in RULESETS for action in ruleset_actions(ruleset).values()]
IDS = [f"{r}-{a.name}" for r, a in CASES]


def flag(name: str) -> str:
    return "--" + name.replace("_", "-")


def required_args(ruleset, action) -> list[str]:
    args, lacking = [], []
    for p in action.params:
        value = p.example
        if value is None and not p.required:
            continue  # its default; an optional example completes a one-of pair
        if value is None:
            lacking.append(p.name)
        args += [flag(p.name), str(value)]
    assert not lacking, f"{ruleset} {action.name}: give {lacking} an `example` in its Param"
    return args


def run(capsys, argv):
    code = main(argv)
    out = capsys.readouterr()
    assert "Traceback" not in out.err + out.out
    assert "internal error" not in out.err, out.err
    return code, out.out, out.err


@pytest.mark.parametrize("face", ["odds", "resolve"])
@pytest.mark.parametrize("ruleset, action", CASES, ids=IDS)
def test_defaults_answer(capsys, face, ruleset, action):
    extra = ["--seed", "1"] if face == "resolve" else []
    code, out, err = run(
        capsys, [face, ruleset, action.name, *required_args(ruleset, action), *extra]
    )
    if action.not_implemented:  # a rule whose tables were lost: refused, by name and page
        assert code == 2 and f"not implemented: {action.name}" in err, err
        return
    assert code == 0, err
    assert out.strip()


def bad_values(p) -> list[str]:
    if p.flag:
        return []
    if p.choices:
        return ["no-such-choice"]
    if p.type in (int, float):
        return ["abc", "-5"] if p.min is not None and p.min >= 0 else ["abc"]
    return []


@pytest.mark.parametrize("ruleset, action", CASES, ids=IDS)
def test_bad_values_exit_2(capsys, ruleset, action):
    base = required_args(ruleset, action)
    for p in action.params:
        for bad in bad_values(p):
            argv = ["odds", ruleset, action.name, *base, flag(p.name), bad]
            code, _, err = run(capsys, argv)
            assert code == 2, (argv, err)
            assert err.count("\n") == 1 and flag(p.name) in err, err
    code, _, err = run(capsys, ["odds", ruleset, action.name, *base, "--no-such-flag"])
    assert code == 2 and "No such option" in err


def numeric(action) -> list:
    return [p for p in action.params if p.type in (int, float) and not p.flag and not p.choices]


def out_of_range(p) -> list:
    """A value just past each bound (issue 15 item 3: every number has both)."""
    step = 1 if p.type is int else 0.5
    return [p.type(p.max + step), p.type(p.min - step)]


@pytest.mark.parametrize("ruleset, action", CASES, ids=IDS)
def test_numbers_have_bounds(ruleset, action):
    """Every numeric parameter says how far it goes, and its help says where that comes from."""
    for p in numeric(action):
        assert p.min is not None and p.max is not None, f"{ruleset} {action.name} {p.name}"
        assert p.min <= p.max
        for value in (p.default, p.example):
            assert value is None or p.min <= value <= p.max, (p.name, value)


@pytest.fixture(scope="module")
def api():
    app = FastAPI()
    app.include_router(odds_api.router())
    with TestClient(app) as client:
        yield client


@pytest.mark.parametrize("ruleset, action", CASES, ids=IDS)
def test_out_of_range_refused(capsys, api, ruleset, action):
    """Past either bound: the CLI exits 2 naming the flag and its range, the API odds route
    answers 422 naming the field."""
    base = required_args(ruleset, action)
    examples = {p.name: p.example for p in action.params if p.example is not None}
    for p in numeric(action):
        for bad in out_of_range(p):
            argv = ["odds", ruleset, action.name, *base, flag(p.name), str(bad)]
            code, _, err = run(capsys, argv)
            assert code == 2, (argv, err)
            assert err.count("\n") == 1 and flag(p.name) in err and "range" in err, err
            answer = api.post(
                f"/api/odds/{ruleset}/{action.name}", json={"params": {**examples, p.name: bad}}
            )
            assert answer.status_code == 422, (p.name, bad, answer.text)
            assert answer.json()["detail"]["field"] == p.name, answer.text


@pytest.mark.parametrize("ruleset, action", CASES, ids=IDS)
def test_unknown_names_exit_2(capsys, ruleset, action):
    """A free-text parameter (a vehicle, a weapon, a terrain, a list of modifiers) with
    nonsense in it: refused, never accepted silently nor a crash (issue 15 item 3)."""
    base = required_args(ruleset, action)
    for p in action.params:
        if p.type is str and not p.choices and not p.flag:
            argv = ["odds", ruleset, action.name, *base, flag(p.name), "zz-no-such-thing"]
            code, _, err = run(capsys, argv)
            assert code == 2 and err.count("\n") == 1, (argv, err)


@pytest.mark.parametrize(
    "argv, says",
    [
        (["odds", "foo", "fire"], "No such command 'foo'"),
        (
            ["odds", "quickref", "fire", "--firer", "Tiger", "--range", "5"],
            "Missing option '--target'",
        ),
        (
            ["odds", "quickref", "small-arms", "--strength", "99", "--range", "5"],
            "not in the range 0<=x<=24, the Effects table's last column (L2)",
        ),
        (
            [
                "resolve",
                "quickref",
                "small-arms",
                "--strength",
                "2",
                "--range",
                "5",
                "--dice",
                "3,4,5",
            ],
            "used only 2",
        ),
        (  # issue 15 item 3: out-of-range assault strengths (bounds from the data, L7)
            ["odds", "quickref", "assault-infantry", "--attackers", "99,99", "--defender", "2"],
            "strength 99 is out of range: 1 to 6",
        ),
        (
            ["resolve", "quickref", "assault-infantry", "--attackers", "0", "--defender", "2"],
            "strength 0 is out of range",
        ),
        (
            ["odds", "quickref", "assault-infantry", "--attackers", "1,1", "--defender", "40"],
            "'--defender': 40 is not in the range 0<=x<=9",
        ),
        (
            ["odds", "quickref", "assault-vehicle", "--vehicle", "Tiger", "--riders-sa", "99"],
            "'--riders-sa': 99 is not in the range 0<=x<=9",
        ),
        (["simulate", "nosuch"], "unknown scenario 'nosuch'"),
        (["play", "nosuch", "--ai", "germany"], "unknown scenario 'nosuch'"),
        (["data", "missing", "quickref", "--out", "/no/such/dir/x.yaml"], "/no/such/dir"),
        (["game", "view", "x", "usa", "--db", "nosuchdialect://x"], "database"),
    ],
)
def test_user_errors_are_one_line(capsys, argv, says):
    code, _, err = run(capsys, argv)
    assert code == 2 and says in err and err.count("\n") == 1, err


@pytest.mark.parametrize("argv", [["odds"], ["odds", "panzerfaust"], []])
def test_bare_groups_show_help(capsys, argv):
    code, out, err = run(capsys, argv)
    assert code == 2 and "Commands" in out + err
