"""A scenario's briefing for one seat, in words (issue 15 item 9): what it is about, the seat's
own forces, objectives, victory conditions, turn limit, special rules and the ruleset's terms
(its optional `glossary()` hook, e.g. what "side A" means). Enemy forces are not listed: a seat
learns them at the table."""

from __future__ import annotations

from collections import Counter
from typing import Any

from .scenario import Scenario, VictoryCondition


def exit_goal(c: VictoryCondition, worth: str | None) -> str:
    """What an exit condition asks, in words: how many pieces, or worth how much (`worth`:
    what the ruleset counts a piece's worth in, registry entry; None: each piece is 1)."""
    unit = worth or "points"
    if c.measure == "count":
        goal = f"{c.count} of its units"
    elif c.measure == "points":
        goal = f"units worth {c.points:g} {unit}"
    elif worth:
        goal = f"units worth {c.share:.0%} of its whole force in {unit}"
    else:
        goal = f"{c.share:.0%} of its units (its whole force, counted piece by piece)"
    by = f" by the end of turn {c.by_turn}" if c.by_turn else ""
    return f"{goal} have left the table by the {c.edge} edge{by}"


def condition_text(c: VictoryCondition, names: dict[str, str], worth: str | None = None) -> str:
    """One victory condition in words (engine/victory.py evaluates it)."""
    side = names.get(c.side, c.side)
    objs = ", ".join(names.get(o, o) for o in c.objectives)
    if c.kind == "destroy":
        return f"{side} wins at once when the enemy has lost {c.fraction:.0%} of its units"
    if c.kind == "hold":
        return f"{side} wins if at the end it alone holds {objs}"
    if c.kind == "occupy":
        return (
            f"{side} wins if at the end it has a unit at {objs} and no enemy within "
            f"{c.distance:g} of it"
        )
    if c.kind == "losses":
        lost = f"{c.points:g} points" if c.points is not None else f"{c.share:.0%} of its points"
        return f"{side} wins at once when the enemy has lost {lost}"
    if c.kind == "exit":
        return f"{side} wins at once when {exit_goal(c, worth)}"
    return f"{side}: {c.kind} {c.model_dump(exclude={'kind', 'side'})}"


def worth_name(ruleset: str) -> str | None:
    """What the ruleset counts a piece's worth in (registry entry `worth`), or None."""
    from .registry import entry

    try:
        return entry(ruleset).worth
    except LookupError:
        return None


def victory_lines(sc: Scenario) -> list[str]:
    names = {s.id: s.name for s in sc.sides} | {o.id: o.name for o in sc.objectives}
    v = sc.victory
    worth = worth_name(sc.ruleset)
    lines = [condition_text(c, names, worth) for c in v.conditions]
    fallback = names.get(v.default_winner, v.default_winner) if v.default_winner else "a draw"
    lines.append(f"otherwise at the turn limit: {fallback}")
    return lines


def briefing_lines(sc: Scenario) -> list[str]:
    """Objectives, victory conditions, turn limit and special rules, as lines of text."""
    lines = [
        f"objective {o.name} ({o.id}) at ({o.x:g}, {o.y:g}), radius {o.radius:g}"
        for o in sc.objectives
    ]
    lines.append(f"victory (turn limit {sc.victory.turn_limit}):")
    lines += [f"  - {line}" for line in victory_lines(sc)]
    if sc.special_rules:
        lines.append("special rules:")
        lines += [f"  - {r}" for r in sc.special_rules]
    return lines


def briefing(sc: Scenario, seat: str, rules: Any = None) -> dict[str, Any]:
    """The briefing a seat reads: its own forces only (the umpire's: every side's)."""
    sides = []
    for s in sc.sides:
        entry: dict[str, Any] = {"id": s.id, "name": s.name, "nation": s.nation}
        if seat in (s.id, "umpire"):
            kinds = Counter(p.name or p.type for p in sc.pieces(s.id))
            entry["forces"] = [{"name": k, "count": n} for k, n in kinds.items()]
            arriving = [r for r in sc.reinforcements if r.side == s.id]
            entry["reinforcements"] = [{"turn": r.turn, "edge": r.edge} for r in arriving]
        sides.append(entry)
    glossary = getattr(rules, "glossary", None)
    return {
        "scenario": sc.id,
        "name": sc.name,
        "ruleset": sc.ruleset,
        "description": sc.description,
        "briefing": sc.briefing,
        "sides": sides,
        "objectives": [o.model_dump() for o in sc.objectives],
        "turn_limit": sc.victory.turn_limit,
        "victory": victory_lines(sc),
        "special_rules": list(sc.special_rules),
        "terms": glossary() if callable(glossary) else {},
    }
