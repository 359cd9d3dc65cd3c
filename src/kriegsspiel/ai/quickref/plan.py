"""A unit's move options as the quickref bot plans them: row 0 staying put, row i > 0 its
destination i - 1, scored in one numpy pass with the other units planned alongside. An option is
(score, its Plan, (destination, friends within 2")) until it is ranked: only the few ranked ones
are ever written out as commands and trace words (most destinations never are)."""

from __future__ import annotations

import math
from collections import OrderedDict
from typing import Any, NamedTuple

import numpy as np

from .terrain import ViewTerrain

MOVED = ("none", "half", "over_half")  # a unit's to-hit movement state after a move
DIRECTIONS = 12  # straight lines tried around a unit
CONTACT = 1.8  # inches: inside the rules' base contact (2") for an assault next phase
XY = tuple[float, float]
Path = tuple[tuple[XY, ...], float]  # points after the start, and length


class Reach(NamedTuple):
    """Where a unit stands and how far it may go now."""

    here: XY
    vehicle: bool
    cap: float  # inches it may still move in this step
    moved: float  # inches it moved earlier this turn


class Ground:
    """A unit's destinations from where it stands, as rows: row 0 staying put, row i its
    destination i - 1 (with `turn`, the last a turn on the spot), and the facts of each row
    that no enemy changes, each worked out once (a Ground is memoised with `destinations`)."""

    __slots__ = (
        "paths",
        "rows",
        "lengths",
        "seen",
        "hidden",
        "_terrain",
        "_vehicle",
        "_cover",
        "_at",
        "_travel",
    )

    def __init__(self, terrain: ViewTerrain, unit: Reach, paths: list[Path], turn: bool):
        self.paths = [*paths, ((unit.here,), 0.0)] if turn else paths
        self.rows = np.asarray([unit.here, *(p[-1] for p, _ in self.paths)], dtype=float)
        self.lengths = np.asarray([0.0, *(d for _, d in self.paths)])
        self._terrain, self._vehicle = terrain, unit.vehicle
        self._cover: np.ndarray | None = None
        self._at: list[str | None] | None = None
        self._travel: dict[tuple, np.ndarray] = {}
        # enemy position -> per row, whether an enemy there would be in sight (as the bot's
        # `_sight` works it out: a pure function of the rows, the position and the terrain)
        self.seen: dict[XY, np.ndarray] = {}
        # concealing patch (its place in the terrain's list) -> per row, the distance from it
        # and whether it could fire on the row (`VehicleExchange._hidden_sight`)
        self.hidden: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    def cover(self) -> np.ndarray:
        """Per row: the best chart modifier protecting the unit there (`ViewTerrain.cover`)."""
        if self._cover is None:
            found = self._terrain.protections(self.rows.tolist(), self._vehicle)
            self._cover = np.asarray([v for v, _row in found], dtype=float)
        return self._cover

    def cover_rows(self) -> list[str | None]:
        """Per row: the chart row a gun's shot at a vehicle there uses (`cover_row`)."""
        if self._at is None:
            self._at = [row for _v, row in self._terrain.protections(self.rows.tolist(), True)]
        return self._at

    def travel(self, goal: XY, table: tuple[float, float]) -> np.ndarray:
        """Per row: the travel distance to `goal` round closed ground (`path_distances`)."""
        hit = self._travel.get(goal)
        if hit is None:
            w, h = table
            hit = self._travel[goal] = self._terrain.path_distances(
                self.rows, goal, w, h, self._vehicle
            )
        return hit


_DESTS: OrderedDict[tuple, Ground] = OrderedDict()
DESTS_KEPT = 2048  # destination lists memoised in a process (the least recently used go)


def destinations(
    terrain: ViewTerrain,
    unit: Reach,
    goals: tuple[XY, ...],
    table: tuple[float, float],
    contact: tuple[XY, ...] = (),
    away: tuple[XY, ...] | None = None,
    turn: bool = False,
) -> Ground:
    """The paths a unit can take now: straight lines around it at full and half distance,
    routes towards each objective (`goals`) around closed ground, full and half, and steps
    into base contact with each of `contact`; with `away` (the enemies it must withdraw
    from), only the straight lines that take it no nearer to any of them; with `turn`, a
    turn on the spot last.

    A pure function of its arguments, memoised for the process: simulated battles of one
    scenario send units to the same places again and again."""
    key = (terrain, unit, goals, table, contact, away, turn)
    hit = _DESTS.get(key)
    if hit is not None:
        _DESTS.move_to_end(key)
        return hit
    paths = _destinations(terrain, unit, goals, table, contact, away)
    hit = _DESTS[key] = Ground(terrain, unit, paths, turn)
    if len(_DESTS) > DESTS_KEPT:
        _DESTS.popitem(last=False)
    return hit


def _destinations(terrain, unit: Reach, goals, table, contact, away) -> list[Path]:
    (x, y), vehicle, cap, moved = unit
    here = (x, y)
    w, h = table
    heads = _HEADS + [_sin_cos(math.atan2(gx - x, gy - y)) for gx, gy in goals]
    fars = [
        (min(max(x + cap * sin, 0.0), w), min(max(y + cap * cos, 0.0), h)) for sin, cos in heads
    ]
    out: list[Path] = []
    for far, reach in zip(fars, terrain.reaches(here, fars, vehicle, cap, moved), strict=True):
        length = math.dist(here, far)
        for frac in (1.0, 0.5):
            d = reach * frac
            if d < 0.3:
                continue
            pos = (x + (far[0] - x) * d / length, y + (far[1] - y) * d / length)
            out.append(((pos,), d))
    for far in contact:  # into base contact (close assault next)
        gap = math.dist(here, far)
        if gap <= CONTACT:
            continue
        stop = (gap - CONTACT * 0.8) / gap
        pos = (x + (far[0] - x) * stop, y + (far[1] - y) * stop)
        if terrain.reach(here, pos, vehicle, cap, moved) >= math.dist(here, pos) - 1e-6:
            out.append(((pos,), math.dist(here, pos)))
    if away is None:
        for goal in goals:
            for frac in (1.0, 0.5):
                pts, length = terrain.route(here, goal, w, h, vehicle, cap * frac, moved)
                if pts:
                    out.append((pts, length))
        return out
    return [
        (path, d)
        for path, d in out
        if not any(math.dist(path[-1], e) < math.dist(here, e) for e in away)
    ]


def _sin_cos(a: float) -> tuple[float, float]:
    return math.sin(a), math.cos(a)


# (sine, cosine) of the straight lines tried around every unit (worked out once)
_HEADS = [_sin_cos(2 * math.pi * i / DIRECTIONS) for i in range(DIRECTIONS)]


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
