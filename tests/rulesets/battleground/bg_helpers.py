"""Run a Battleground action the way the CLI does: parameters with their defaults."""

from __future__ import annotations

from kriegsspiel.chance import exact
from kriegsspiel.rulesets.battleground.actions import query
from kriegsspiel.rulesets.battleground.options import Options

__all__ = ["odds", "query"]


def odds(cat, name: str, opts: Options | None = None, **params):
    q = query(cat, name, opts, **params)
    return exact(q.fn, *q.args, **({"key": q.key} if q.key else {}))
