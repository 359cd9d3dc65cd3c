"""The view envelope: the keys every ruleset's view has, so faces (CLI, picture, browser table,
bots) read any ruleset's view the same way (DESIGN: engine, views).

A view is a JSON object with the keys of `ENVELOPE` (what each holds is below), the piece lists
of `PIECES`, and one ruleset section under the ruleset's id for what only that ruleset has
(quickref's side A, Panzerfaust's pips, Battleground's card on the table). `Game.view` adds
`game`, `log` and `outcome`, and fills `options` with the options in force if the ruleset left
it out.
"""

from __future__ import annotations

from typing import Any

ENVELOPE: dict[str, str] = {
    "ruleset": "the ruleset's id",
    "you": "the side (or umpire / spectator) this view is for",
    "turn": "the turn number (1 = first)",
    "turn_limit": "the last turn, or null",
    "phase": "the phase's id",
    "phase_title": "the phase's name for people",
    "active": "the sides that may give a command now",
    "table": "{width, depth, unit}: the table in its unit (inch or cm)",
    "terrain": "the scenario's features (id, kind, polygon or line, height, attributes)",
    "objectives": "the scenario's objectives (id, name, x, y, radius)",
    "sides": "[{id, name, nation}] in the scenario's order",
    "options": "the ruleset options in force",
    "legal": "this side's legal command templates now",
    "result": "null while the game runs; the rules' verdict after",
    "prompt": "null, or the question the rules ask this side now (a reaction prompt)",
}

PIECES: dict[str, str] = {
    "units": "this side's own pieces in full",
    "enemies": "enemy pieces this side observes now, named by their alias for this side",
    "last_known": "markers where this side last saw enemy pieces it no longer observes",
}

PIECE_KEYS = ("id", "side", "x", "y", "facing", "kind", "name")  # every piece has these


def missing_keys(view: dict[str, Any]) -> list[str]:
    """The envelope keys (and the ruleset section) a view lacks; empty if it conforms."""
    missing = [k for k in (*ENVELOPE, *PIECES) if k not in view]
    rid = view.get("ruleset")
    if isinstance(rid, str) and not isinstance(view.get(rid), dict):
        missing.append(rid)
    return missing


def piece_problems(view: dict[str, Any]) -> list[str]:
    """Pieces that lack a common key (id, side, x, y, facing, kind, name)."""
    out = []
    for key in PIECES:
        for p in view.get(key) or []:
            gaps = [k for k in PIECE_KEYS if k not in p and not (key == "last_known" and k != "id")]
            if gaps:
                out.append(f"{key}: {p.get('id', '?')} lacks {', '.join(gaps)}")
    return out


def check_envelope(view: dict[str, Any]) -> None:
    """Raise ValueError naming what a view lacks."""
    gaps = missing_keys(view) + piece_problems(view)
    if gaps:
        raise ValueError(f"the view does not fit the envelope: {'; '.join(gaps)}")


def scenario_keys(sc: Any) -> dict[str, Any]:
    """The envelope keys every view takes from its scenario alone: turn limit, table, terrain,
    objectives and sides."""
    return {
        "turn_limit": sc.victory.turn_limit,
        "table": sc.table.model_dump(),
        "terrain": [f.model_dump() for f in sc.terrain],
        "objectives": [o.model_dump() for o in sc.objectives],
        "sides": [{"id": s.id, "name": s.name, "nation": s.nation} for s in sc.sides],
    }
