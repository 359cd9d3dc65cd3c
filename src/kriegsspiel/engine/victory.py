"""The library of victory predicates a scenario's conditions name (docs/scenarios.md, Victory).

A ruleset describes its pieces as `PieceStatus` rows (where each is, whether it is lost, has left
the table, counts for losses, its points) and asks `decide` for the verdict; the predicates know
nothing of any ruleset's units. Conditions that decide at once (destroy, losses, exit) are
checked whenever asked (an exit with `by_turn` only up to that turn); those that decide at the
turn limit (hold, occupy) only then, and the scenario's `default_winner` (or a draw) after them.

An exit condition counts its side's pieces that left by its edge and are not lost: how many
(`count`), what they are worth (`points`: `PieceStatus.points`, the ruleset's worth of a piece),
or what share of the worth of the side's whole force (`share`: every piece of the side the
ruleset reports, lost, aboard or still to arrive). `exit_progress` gives the numbers, which the
verdict spells out and a side's view shows for its own conditions (`exit_counters`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any, NamedTuple

from .events import UMPIRE
from .scenario import Objective, Scenario, VictoryCondition

AT_ONCE = ("destroy", "losses", "exit")
AT_LIMIT = ("hold", "occupy")


class PieceStatus(NamedTuple):
    """What the victory predicates need of one piece (a named tuple: rulesets build one per
    piece at every step's end, and a frozen dataclass cost three times as much to build).

    `present`: on the table now (arrived, not carried, not gone); `counts`: part of its side's
    strength for losses (the ruleset decides: e.g. not a passenger, not yet arrived);
    `lost`: destroyed or removed; `exited`: the edge it left the table by, if it did;
    `points`: its worth (the ruleset's, registry entry `worth`; 1 where it prices nothing)."""

    id: str
    side: str
    x: float
    y: float
    present: bool = True
    counts: bool = True
    lost: bool = False
    exited: str | None = None
    points: float = 1.0


def _near(p: PieceStatus, x: float, y: float, r: float) -> bool:
    return math.hypot(p.x - x, p.y - y) <= r


def holder(objective: Objective, pieces: Iterable[PieceStatus]) -> str | None:
    """The side that alone has pieces within the objective's radius, or None."""
    present = {
        p.side for p in pieces if p.present and _near(p, objective.x, objective.y, objective.radius)
    }
    return present.pop() if len(present) == 1 else None


def occupies(objective: Objective, pieces: list[PieceStatus], side: str, distance: float) -> bool:
    """`side` has a piece within the objective's radius and no enemy piece is within
    `distance` of it."""
    ox, oy = objective.x, objective.y
    mine = any(p.present and p.side == side and _near(p, ox, oy, objective.radius) for p in pieces)
    theirs = any(p.present and p.side != side and _near(p, ox, oy, distance) for p in pieces)
    return mine and not theirs


def loss_share(pieces: Iterable[PieceStatus], side: str) -> float:
    """The share of `side`'s counted pieces that are lost (0 if it has none)."""
    mine = [p for p in pieces if p.side == side and p.counts]
    return sum(1 for p in mine if p.lost) / len(mine) if mine else 0.0


def lost_points(pieces: Iterable[PieceStatus], side: str) -> tuple[float, float]:
    """(points lost, points in all) of `side`'s counted pieces."""
    mine = [p for p in pieces if p.side == side and p.counts]
    return sum(p.points for p in mine if p.lost), sum(p.points for p in mine)


def exited(pieces: Iterable[PieceStatus], side: str, edge: str) -> int:
    """How many of `side`'s pieces have left the table by `edge`."""
    return sum(1 for p in pieces if p.side == side and p.exited == edge and not p.lost)


class ExitProgress(NamedTuple):
    """Where an exit condition stands: `done` against `needed`, both in the condition's
    measure (pieces for `count`, points for `points` and `share`); `total` is the worth of
    the side's whole force (the base of a share); `pieces` how many have left."""

    measure: str
    done: float
    needed: float
    total: float
    pieces: int

    @property
    def reached(self) -> bool:
        return self.needed > 0 and self.done >= self.needed - 1e-9


def exit_progress(c: VictoryCondition, pieces: Iterable[PieceStatus]) -> ExitProgress:
    """The progress of exit condition `c` over the pieces (of its side only)."""
    assert c.kind == "exit" and c.edge is not None and c.measure is not None
    mine = [p for p in pieces if p.side == c.side]
    out = [p for p in mine if p.exited == c.edge and not p.lost]
    total = math.fsum(p.points for p in mine)
    if c.measure == "count":
        assert c.count is not None
        return ExitProgress("count", len(out), c.count, len(mine), len(out))
    worth = math.fsum(p.points for p in out)
    if c.measure == "points":
        assert c.points is not None
        return ExitProgress("points", worth, c.points, total, len(out))
    assert c.share is not None
    return ExitProgress("share", worth, c.share * total, total, len(out))


def exit_text(c: VictoryCondition, p: ExitProgress) -> str:
    """An exit condition's numbers in words (the verdict's reason, a side's own counter)."""
    edge = f"by the {c.edge} edge"
    if p.measure == "count":
        return f"{p.pieces} pieces left {edge} ({p.needed:g} needed)"
    left = f"{p.pieces} pieces worth {p.done:g} points left {edge}"
    if p.measure == "points":
        return f"{left} ({p.needed:g} needed)"
    share = p.done / p.total if p.total else 0.0
    return f"{left}, {share:.0%} of its force's {p.total:g} ({c.share:.0%} needed: {p.needed:g})"


def _open(c: VictoryCondition, turn: int | None) -> bool:
    """An exit condition with `by_turn` can no longer be met after that turn."""
    return c.by_turn is None or turn is None or turn <= c.by_turn


def _enemy(scenario: Scenario, side: str) -> str:
    return next(s for s in scenario.side_ids if s != side)


def met(
    scenario: Scenario, c: VictoryCondition, pieces: list[PieceStatus], turn: int | None = None
) -> str | None:
    """The reason `c` is met now (for people), or None (`turn`: the turn now, for `by_turn`)."""
    enemy = _enemy(scenario, c.side)
    objectives = {o.id: o for o in scenario.objectives}
    if c.kind == "destroy":
        assert c.fraction is not None
        if loss_share(pieces, enemy) >= c.fraction:
            return f"the enemy lost {c.fraction:.0%} of its units"
    elif c.kind == "losses":
        lost, total = lost_points(pieces, enemy)
        if c.points is not None and lost >= c.points:
            return f"the enemy lost {lost:g} points"
        if c.share is not None and total and lost / total >= c.share:
            return f"the enemy lost {c.share:.0%} of its points"
    elif c.kind == "exit":
        progress = exit_progress(c, pieces)
        if progress.reached and _open(c, turn):
            return exit_text(c, progress)
    elif c.kind == "hold":
        if all(holder(objectives[o], pieces) == c.side for o in c.objectives):
            return f"holds {', '.join(c.objectives)}"
    elif c.kind == "occupy":
        assert c.distance is not None
        if all(occupies(objectives[o], pieces, c.side, c.distance) for o in c.objectives):
            return f"occupies {', '.join(c.objectives)} with no enemy within {c.distance:g}"
    return None


def decide(
    scenario: Scenario, pieces: list[PieceStatus], turn: int, end_of_turn: bool
) -> dict[str, Any] | None:
    """The verdict `{winner, reason, turn}` if the scenario's conditions decide the game now
    (at-once conditions first, in the scenario's order; at the end of the last turn the
    turn-limit conditions, then the default winner), else None."""
    for c in scenario.victory.conditions:
        if c.kind in AT_ONCE:
            why = met(scenario, c, pieces, turn)
            if why:
                return {"winner": c.side, "reason": why, "turn": turn}
    if end_of_turn and turn >= scenario.victory.turn_limit:
        return at_limit(scenario, pieces, turn)
    return None


def at_limit(scenario: Scenario, pieces: list[PieceStatus], turn: int) -> dict[str, Any]:
    """The verdict at the turn limit: the first turn-limit condition met, else the default."""
    for c in scenario.victory.conditions:
        if c.kind in AT_LIMIT:
            why = met(scenario, c, pieces)
            if why:
                return {"winner": c.side, "reason": why, "turn": turn}
    winner = scenario.victory.default_winner
    short = [  # why each exit goal was missed, for the record of the game's end
        f"{c.side} exit goal missed: {exit_text(c, exit_progress(c, pieces))}"
        + (f", by turn {c.by_turn}" if c.by_turn else "")
        for c in scenario.victory.conditions
        if c.kind == "exit"
    ]
    return {
        "winner": winner,
        "reason": "turn limit reached"
        + ("" if winner else ": draw")
        + "".join(f"; {s}" for s in short),
        "turn": turn,
    }


def exit_counters(
    scenario: Scenario, pieces: list[PieceStatus], viewer: str
) -> list[dict[str, Any]]:
    """What `viewer` is told of each exit condition while the game runs (decision P258 in
    docs/decisions/panzerfaust.md, the same for every ruleset): its own conditions' progress
    in full (built from its own pieces only); of an enemy's, the goal as the briefing states
    it and nothing of its progress, since a piece leaving is seen by its own side alone. The
    umpire sees every counter."""
    from .briefing import exit_goal, worth_name

    worth = worth_name(scenario.ruleset)
    out: list[dict[str, Any]] = []
    for c in scenario.victory.conditions:
        if c.kind != "exit":
            continue
        row: dict[str, Any] = {
            "side": c.side,
            "edge": c.edge,
            "measure": c.measure,
            "goal": getattr(c, c.measure or "count"),
            "by_turn": c.by_turn,
            "text": f"goal: {exit_goal(c, worth)}; its progress is hidden from you",
        }
        if viewer in (c.side, UMPIRE):
            p = exit_progress(c, pieces)
            row |= {
                "done": p.done,
                "needed": p.needed,
                "total": p.total,
                "pieces": p.pieces,
                "reached": p.reached,
                "text": f"goal: {exit_goal(c, worth)}; so far {exit_text(c, p)}",
            }
        out.append(row)
    return out
