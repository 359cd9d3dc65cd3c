"""A unit's move options as the quickref bot plans them: row 0 staying put, row i > 0 its
destination i - 1, scored in one numpy pass with the other units planned alongside. An option is
(score, its Plan, (destination, friends within 2")) until it is ranked: only the few ranked ones
are ever written out as commands and trace words (most destinations never are)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

MOVED = ("none", "half", "over_half")  # a unit's to-hit movement state after a move


def moved_states(lengths: np.ndarray, moved: float, cap: float, first_half: bool) -> np.ndarray:
    """Index into MOVED of the state each move of `lengths` inches leaves a unit in that has
    already moved `moved` this turn and may move `cap` more now (`first_half`: side A's
    first half-move, whose allowance is half the turn's)."""
    total = moved + lengths
    full = 2 * (cap + moved) if first_half else cap + moved
    return np.where(total <= 0, 0, np.where(total <= full / 2 + 1e-9, 1, 2))


class Pass:
    """What one planning pass leaves for the trace of any of its rows: the figures of each
    row's score (in groups of rows sharing one wording), the exchange of the vehicles' rows
    and the facing each row turns to (nan: none given)."""

    def __init__(self, rows: int):
        self.groups: list[tuple[str, tuple[np.ndarray, ...]]] = []
        self.group = np.zeros(rows, dtype=int)
        self.at = np.zeros(rows, dtype=int)
        self.trade: Any = None  # `exchange.Exchange` of the vehicles' rows
        self.slot = np.full(rows, -1)  # each row's index in `trade` (-1: not a vehicle)
        self.facing = np.full(rows, np.nan)

    def add(self, idx: np.ndarray, fmt: str, figures: tuple[np.ndarray, ...]) -> None:
        """Rows `idx` are worded by `fmt` with `figures` (one array per figure, row-aligned)."""
        self.group[idx] = len(self.groups)
        self.at[idx] = np.arange(len(idx))
        self.groups.append((fmt, figures))

    def words(self, row: int) -> str:
        fmt, figures = self.groups[int(self.group[row])]
        at = int(self.at[row])
        text = fmt.format(*(f[at].item() for f in figures))
        j = int(self.slot[row])
        return text + (self.trade.why(j) if j >= 0 else "")


class Plan:
    """One unit's planned options: positions and scores (without crowding) per row, and its
    destinations as (path, length), row i + 1 being destination i."""

    __slots__ = ("unit", "pos", "score", "dests", "start", "batch")

    def __init__(self, unit: str, pos, score, dests, start: int, batch: Pass):
        self.unit, self.pos, self.score, self.dests = unit, pos, score, dests
        self.start, self.batch = start, batch

    def command(self, i: int) -> dict[str, Any]:
        """The move command of destination i (row i + 1)."""
        path = self.dests[i][0]
        cmd = {
            "type": "move",
            "unit": self.unit,
            "path": [[round(x, 3), round(y, 3)] for x, y in path],
        }
        facing = float(self.batch.facing[self.start + i + 1])
        if not math.isnan(facing):
            cmd["facing"] = round(facing, 1)
        return cmd

    def why(self, i: int, crowd: int) -> str:
        """Trace words of destination i with `crowd` friends within 2" of it."""
        path, d = self.dests[i]
        x, y = path[-1]
        words = self.batch.words(self.start + i + 1)
        return f'{d:.1f}" to ({x:.1f}, {y:.1f}): {words}, {crowd} friends within 2"'
