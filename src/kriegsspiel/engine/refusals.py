"""The last check on a refusal before a side reads it (DESIGN: fair play, fog-safe errors).

The rules build their refusals from what the side may know (tests/engine/test_fog.py checks it
over random games). This guard makes a slip harmless: if a ruleset's refusal names a piece the
side does not know (an id or a name found in the umpire's view but in none of the side's pieces,
and not in the command the side wrote itself), the side gets a plain refusal instead, naming
only the field.
"""

from __future__ import annotations

import re
from typing import Any

from .commands import IllegalCommand
from .envelope import PIECES
from .events import UMPIRE

PLAIN = "this command is not possible now"


def _pieces(view: dict[str, Any]) -> list[dict[str, Any]]:
    return [p for key in PIECES for p in view.get(key) or [] if isinstance(p, dict)]


def secrets_in(reason: str, rules: Any, state: Any, side: str, command_text: str) -> list[str]:
    """Ids and names of pieces unknown to `side` that `reason` mentions."""
    mine = _pieces(rules.view(state, side))
    known = {str(p.get(k)) for p in mine for k in ("id", "name") if p.get(k) is not None}
    found = []
    for p in _pieces(rules.view(state, UMPIRE)):
        for k in ("id", "name"):
            token = p.get(k)
            if not isinstance(token, str) or not token or token in known:
                continue
            word = re.compile(rf"(?<![\w-]){re.escape(token)}(?![\w-])")
            if word.search(command_text):  # the side's own words echoed back tell it nothing
                continue
            if word.search(reason):
                found.append(token)
    return found


def guard(exc: IllegalCommand, rules: Any, state: Any, side: str, command_text: str):
    """`exc`, or a plain refusal if it names a piece `side` does not know."""
    if side == UMPIRE or not secrets_in(exc.reason, rules, state, side, command_text):
        return exc
    return IllegalCommand(PLAIN, exc.field)
