"""Run a Battleground action the way the CLI does: parameters with their defaults."""

from __future__ import annotations

from kriegsspiel.chance import exact
from kriegsspiel.rulesets.battleground.actions import ACTIONS
from kriegsspiel.rulesets.battleground.options import Options


def query(cat, name: str, opts: Options | None = None, **params):
    action = ACTIONS[name]
    full = {p.name: p.default for p in action.params}
    full.update(params)
    return action.build(cat, opts or Options(), **full)


def odds(cat, name: str, opts: Options | None = None, **params):
    q = query(cat, name, opts, **params)
    return exact(q.fn, *q.args, **({"key": q.key} if q.key else {}))
