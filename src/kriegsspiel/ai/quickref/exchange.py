"""How the quickref bot's vehicles weigh their destinations (a part of `QuickrefBot`): the exact
odds of the best gun shot each gives next fire step against those of the shots the enemies that
would see it have (`ShotOdds`, the rules core's own numbers), with the facing that exposes least;
an enemy's one shot a turn shared among all the units it sees; guns suspected in concealing
terrain no own unit has looked into yet; nothing at stake in a move that no enemy fire step
follows. All destinations of all the units being planned are weighed at once, as numpy arrays
(rows: destinations, columns: known enemies, facings tried).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from .shot_odds import BANDS

SIGHT = 40.0  # inches: beyond this an enemy is not counted as seeing or being seen
SPOT = 10.0  # inches: an own unit this close to concealing terrain has looked into it (Q32)
SEEN_KEPT = 64  # enemy positions whose sight a destination list keeps (`plan.Ground.seen`)
TIE = 1e-9  # a facing replaces an earlier one only when it exposes less by more than this


@dataclass(frozen=True)
class Sight:
    """Who sees whom between destinations (rows) and the known enemies (columns)."""

    pos: np.ndarray  # (R, 2) destinations
    enemies: list[dict[str, Any]]
    dist: np.ndarray  # (R, E) inches
    seen: np.ndarray  # (R, E) within SIGHT and in line of sight

    def rows(self, idx: np.ndarray) -> Sight:
        """The same for the rows `idx` only."""
        return Sight(self.pos[idx], self.enemies, self.dist[idx], self.seen[idx])


@dataclass(frozen=True)
class Exchange:
    """Per destination: the score of the exchange, its best shot and least threat, and the
    facing that gives that threat (None: the profile does not turn to face threats)."""

    score: np.ndarray
    shot: np.ndarray
    threat: np.ndarray
    facing: np.ndarray | None
    weighed: bool = True  # False: not a vehicle, or the profile weighs no exchange

    def why(self, i: int) -> str:
        if not self.weighed:
            return ""
        return f"; best shot {self.shot[i]:.2f}, threat {self.threat[i]:.2f}"


def _box_gap(box: tuple[float, float, float, float], x: float, y: float) -> float:
    """Distance from (x, y) to a box (x0, y0, x1, y1): never more than to what it bounds."""
    x0, y0, x1, y1 = box
    return math.hypot(max(x0 - x, 0.0, x - x1), max(y0 - y, 0.0, y - y1))


def bearings(frm: np.ndarray, to: np.ndarray) -> np.ndarray:
    """Degrees clockwise from +y of the directions frm -> to (broadcasting; `bearing`'s rule)."""
    return np.degrees(np.arctan2(to[..., 0] - frm[..., 0], to[..., 1] - frm[..., 1])) % 360


def aspect_index(off_bearing: np.ndarray, facing: np.ndarray, half_angle: float) -> np.ndarray:
    """0 front, 1 side, 2 rear: the side of a unit facing `facing` that is seen from the
    bearing `off_bearing` (from the unit), as `aspect_from` decides it."""
    off = np.abs((off_bearing - facing + 180) % 360 - 180)
    return np.where(off <= half_angle, 0, np.where(off >= 180 - half_angle, 2, 1))


class VehicleExchange:
    """Mixed into `QuickrefBot`, whose profile, terrain, memos and target values it uses."""

    profile: Any
    shots: Any
    _scouted: set[str]
    _enemy_types: set[str]
    _watch: dict[str, frozenset[str]] | None
    _share_memo: dict[str, dict[str, int]]
    _looked: tuple[set, set]  # (own, enemy) places looked from / seen at, this game

    def _scout(self, view, fresh: bool = True) -> None:
        """Mark concealing terrain as looked into once an own unit came within spotting range
        of it or an enemy was seen in it; remember the enemy's vehicle types. `fresh`: False
        when the enemies are those of the last view scouted (nothing new to learn of them)."""
        terrain = self.terrain(view)
        if fresh:
            for e in self._known_enemies(view):
                if e.get("kind") == "vehicle":
                    self._enemy_types.add(e.get("type", ""))
        # a place looked from (or an enemy seen at) before has marked all it could then
        looked_from, seen_at = self._looked
        spots = {(u["x"], u["y"]) for u in view["units"]}.difference(looked_from)
        seen = {(e["x"], e["y"]) for e in view["enemies"]}.difference(seen_at) if fresh else set()
        if not (spots or seen):  # nobody moved since the last look
            return
        looked_from |= spots
        seen_at |= seen
        pending = [p for p in terrain.concealing if p.id not in self._scouted]
        if not pending:
            return
        # only a place within SPOT of a patch's box can be within SPOT of the patch
        close = [
            (x, y)
            for x, y in sorted(spots)
            if any(_box_gap(p.box, x, y) <= SPOT + 1e-6 for p in pending)
        ]
        mine = np.asarray(close, dtype=float).reshape(-1, 2)
        near = (terrain.concealing_distances(mine) <= SPOT).any(axis=0) if close else None
        for k, patch in enumerate(terrain.concealing):
            if patch.id in self._scouted:
                continue
            if (near is not None and near[k]) or any(patch.contains(at) for at in seen):
                self._scouted.add(patch.id)

    def _sight(self, view, rows, grounds=None) -> Sight:
        """Distances and sight between each row position and each known enemy. With the
        `plan.Ground`s whose rows `rows` are, one after another, the sight of each ground's
        rows from an enemy position is kept on the ground (`Ground.seen`) and read again
        when the ground is planned again with an enemy there (units that stand still and
        enemies that do: most of the sight lines of a new phase)."""
        terrain = self.terrain(view)
        enemies = self._known_enemies(view)
        pos = np.asarray(rows, dtype=float).reshape(-1, 2)
        xy = [(e["x"], e["y"]) for e in enemies]
        at = np.asarray(xy, dtype=float).reshape(-1, 2)
        dist = np.hypot(pos[:, None, 0] - at[None, :, 0], pos[:, None, 1] - at[None, :, 1])
        seen = dist <= SIGHT
        if grounds is None:
            seen &= terrain.los_matrix(pos, at, seen)
            return Sight(pos, enemies, dist, seen)
        want = np.zeros(seen.shape, dtype=bool)  # the pairs not kept on their ground
        start, todo = 0, []
        for g in grounds:
            end = start + len(g.rows)
            for j, e in enumerate(xy):
                col = g.seen.get(e)
                if col is None:
                    want[start:end, j] = True
                    todo.append((g, start, end, j))
                else:
                    seen[start:end, j] = col
            start = end
        if todo:
            want &= seen
            seen &= terrain.los_matrix(pos, at, want)
            for g, start, end, j in todo:
                if len(g.seen) >= SEEN_KEPT:
                    g.seen.clear()
                g.seen[xy[j]] = seen[start:end, j].copy()
        return Sight(pos, enemies, dist, seen)

    def _hiding_places(
        self, view, pos: np.ndarray, grounds=None
    ) -> tuple[list[int], list, list[float]]:
        """(row, centre, distance) of each pairing of a row position with concealing terrain
        not yet looked into that could fire on it (a unit inside the terrain is not fired on
        from it; closer than 1" counts as 1"). With the `plan.Ground`s whose rows `pos` are,
        one after another, each ground keeps its rows' distance and sight from each patch
        (`Ground.hidden`) for the next time it is planned (a unit that stands still)."""
        terrain = self.terrain(view)
        rows, centres, dists = [], [], []
        ks = [k for k, p in enumerate(terrain.concealing) if p.id not in self._scouted]
        if not ks:
            return rows, centres, dists
        hidden = [terrain.concealing[k] for k in ks]
        far, sees = self._hidden_sight(terrain, ks, hidden, pos, grounds)
        for patch, d, sight in zip(hidden, far, sees, strict=True):
            for i in np.nonzero(sight)[0].tolist():
                rows.append(i)
                centres.append(patch.centre)
                dists.append(max(float(d[i]), 1.0))
        return rows, centres, dists

    @staticmethod
    def _hidden_sight(terrain, ks: list[int], hidden: list, pos: np.ndarray, grounds):
        """(distance, in sight) of each row from each patch of `hidden` (`ks`: their places in
        `terrain.concealing`), as (patches, rows) arrays: in sight within SIGHT, outside the
        patch and with a clear line from its centre. The ground kept columns are read, not
        worked out again (a pure function of the rows, the patch and the terrain)."""
        centres = np.asarray([p.centre for p in hidden])
        if grounds is None:
            far = np.asarray([p.distances(pos) for p in hidden])  # (patches, rows)
            sees = (far > 0) & (far <= SIGHT)
            sees &= terrain.los_matrix(centres, pos, sees)
            return far, sees
        far = np.empty((len(hidden), len(pos)))
        sees = np.zeros(far.shape, dtype=bool)
        want = np.zeros(far.shape, dtype=bool)  # pairs not kept on their ground
        start, todo = 0, []
        for g in grounds:
            end = start + len(g.rows)
            for j, k in enumerate(ks):
                hit = g.hidden.get(k)
                if hit is None:
                    col = far[j, start:end] = hidden[j].distances(g.rows)
                    want[j, start:end] = (col > 0) & (col <= SIGHT)
                    todo.append((g, start, end, j, k))
                else:
                    far[j, start:end], sees[j, start:end] = hit
            start = end
        if todo:
            sees |= want & terrain.los_matrix(centres, pos, want)
            for g, start, end, j, k in todo:
                g.hidden[k] = (far[j, start:end].copy(), sees[j, start:end].copy())
        return far, sees

    def _watchers(self, view) -> dict[str, frozenset[str]]:
        """For each known enemy, the own units in its sight now: an enemy fires once a turn,
        so its threat to one of them is shared among all it sees."""
        terrain = self.terrain(view)
        mine = [u for u in view["units"] if not u.get("removed") and not u.get("transport")]
        enemies = self._known_enemies(view)
        at = np.asarray([(e["x"], e["y"]) for e in enemies], dtype=float).reshape(-1, 2)
        own = np.asarray([(u["x"], u["y"]) for u in mine], dtype=float).reshape(-1, 2)
        dist = np.hypot(at[:, None, 0] - own[None, :, 0], at[:, None, 1] - own[None, :, 1])
        sees = dist <= SIGHT
        sees &= terrain.los_matrix(at, own, sees)
        return {
            e["id"]: frozenset(u["id"] for u, s in zip(mine, row, strict=True) if s)
            for e, row in zip(enemies, sees.tolist(), strict=True)
        }

    def _shares(self, view, uid: str) -> dict[str, int]:
        """For each known enemy, how many own units (counting `uid`) share its one shot a turn
        (memoised per decision, as `_watch`, worked out at most once per decision)."""
        hit = self._share_memo.get(uid)
        if hit is None:
            if self._watch is None:
                self._watch = self._watchers(view)
            hit = self._share_memo[uid] = {
                e: len(ids - {uid}) + 1 for e, ids in self._watch.items()
            }
        return hit

    def _exchange(
        self,
        view,
        units,
        owner: np.ndarray,
        moved: list[str],
        sight: Sight,
        covers=None,
        grounds=None,
    ):
        """Vehicles: for each row of `sight` (a destination of `units[owner[row]]`), the worth
        of the best gun shot from there next fire step less the worth of the shots the
        enemies that would see it have at the unit (exact odds by `ShotOdds`), with the facing
        that exposes the least. `covers`: each row's `cover_row` for vehicles, if known;
        `grounds`: the `plan.Ground`s whose rows the rows are, one after another, if known."""
        p = self.profile
        rows = len(sight.pos)
        if not (p.kill or p.loss):
            zero = np.zeros(rows)
            return Exchange(zero, zero, zero, None, weighed=False)
        pos, seen = sight.pos, sight.seen
        here = np.asarray([(u["x"], u["y"]) for u in units], dtype=float)[owner]
        still = np.hypot(pos[:, 0] - here[:, 0], pos[:, 1] - here[:, 1]) <= 1e-6
        facing = np.asarray([float(u.get("facing", 0.0)) for u in units])[owner]
        travel = np.where(still, facing, bearings(here, pos))
        at = np.asarray([(e["x"], e["y"]) for e in sight.enemies], dtype=float).reshape(-1, 2)
        towards = bearings(pos[:, None, :], at[None, :, :])  # (R, E)
        facings, usable = travel[:, None], np.ones((rows, 1), dtype=bool)
        if p.face_threat:
            facings = np.concatenate([facings, towards], axis=1)
            usable = np.concatenate([usable, seen], axis=1)
        types = [units[i]["type"] for i in owner.tolist()]
        target_moved = [m != "none" for m in moved]
        terrain = self.terrain(view)
        if covers is None:
            covers = [terrain.cover_row(x, y, True) for x, y in pos.tolist()]
        mine = np.asarray([self._value(u) for u in units])[owner]
        threat = mine[:, None] * (
            self._known_threat(view, units, owner, sight, towards, facings, target_moved, covers)
            + self._suspects(view, types, pos, facings, target_moved, grounds)
        )
        best, pick = threat[:, 0].copy(), np.zeros(rows, dtype=int)
        for f in range(1, facings.shape[1]):  # the first facing of least exposure
            better = usable[:, f] & (threat[:, f] < best - TIE)
            best = np.where(better, threat[:, f], best)
            pick = np.where(better, f, pick)
        shot = self._best_shot(view, types, sight, moved)
        score = (p.kill * shot - p.loss * best) * self._fire_ahead(view)
        chosen = facings[np.arange(rows), pick] if p.face_threat else None
        return Exchange(score, shot, best, chosen)

    def _known_threat(self, view, units, owner, sight: Sight, towards, facings, moved, covers):
        """(rows, facings): the worth of the known enemies' shots at the row's unit, each
        enemy's shot shared among the own units it sees (`towards`: bearing of each enemy
        from each row)."""
        if not sight.enemies:
            return np.zeros(facings.shape)
        combos: dict[tuple, int] = {}
        combo = np.asarray(
            [
                combos.setdefault((units[i]["type"], m, c), len(combos))
                for i, m, c in zip(owner.tolist(), moved, covers, strict=True)
            ]
        )
        keys = tuple(
            (e.get("type", ""), t, m, "none", c) for e in sight.enemies for t, m, c in combos
        )
        limits, worth = self.shots.stacked(keys)
        n = len(sight.enemies)
        limits, worth = limits[:: len(combos)], worth.reshape(n, len(combos), 3, BANDS)
        band = (sight.dist[:, :, None] > limits[None]).sum(axis=2)  # (R, E)
        threat = worth[np.arange(n)[None, :], combo[:, None], :, band]  # (R, E, aspect)
        shares = [self._shares(view, u["id"]) for u in units]
        part = np.asarray(
            [[s.get(e["id"], 1) for e in sight.enemies] for s in shares],
            dtype=float,
        )[owner]
        threat = threat * (sight.seen / part)[:, :, None]
        aspect = aspect_index(towards[:, None, :], facings[:, :, None], self.shots.half_angle)
        return np.take_along_axis(threat[:, None], aspect[..., None], axis=3)[..., 0].sum(axis=2)

    def _suspects(
        self, view, types: list[str], pos, facings, target_moved, grounds=None
    ) -> np.ndarray:
        """(rows, facings): worth of the shots an enemy not yet seen could have at the row's
        unit (of type `types[row]`) from concealing terrain not yet looked into: the worst
        enemy vehicle type seen so far, at the terrain's distance, times the profile's
        `suspect` probability."""
        p = self.profile
        out = np.zeros(facings.shape)
        if not p.suspect or not self._enemy_types:
            return out
        rows, centres, dists = self._hiding_places(view, pos, grounds)
        if not rows:
            return out
        at, d = np.asarray(rows), np.asarray(dists)
        combos: dict[tuple[str, bool], int] = {}
        combo = np.asarray(
            [combos.setdefault((types[i], target_moved[i]), len(combos)) for i in at.tolist()]
        )
        kinds = sorted(self._enemy_types)
        keys = tuple((k, t, m, "none", None) for k in kinds for t, m in combos)
        limits, worth = self.shots.stacked(keys)
        limits = limits[:: len(combos)]
        worth = worth.reshape(len(kinds), len(combos), 3, BANDS)
        band = (d[:, None, None] > limits[None]).sum(axis=2)  # (K, kinds)
        worst = worth[np.arange(len(kinds))[None, :], combo[:, None], :, band].max(axis=1)
        towards = bearings(pos[at], np.asarray(centres, dtype=float))
        aspect = aspect_index(towards[:, None], facings[at], self.shots.half_angle)
        np.add.at(out, at, np.take_along_axis(worst, aspect, axis=1))
        return p.suspect * out

    def _best_shot(self, view, types: list[str], sight: Sight, moved: list[str]) -> np.ndarray:
        """Per row: the worth of the best gun shot the row's unit (of type `types[row]`) has
        at a seen enemy (0 when none)."""
        rows, n = len(sight.pos), len(sight.enemies)
        if not n:
            return np.zeros(rows)
        terrain = self.terrain(view)
        combos: dict[tuple[str, str], int] = {}
        combo = np.asarray(
            [combos.setdefault(k, len(combos)) for k in zip(types, moved, strict=True)]
        )
        covers = [
            terrain.cover_row(e["x"], e["y"], e.get("kind") == "vehicle") for e in sight.enemies
        ]
        keys = tuple(
            (t, e.get("type", ""), False, m, c)
            for e, c in zip(sight.enemies, covers, strict=True)
            for t, m in combos
        )
        limits, worth = self.shots.stacked(keys)
        limits = limits.reshape(n, len(combos), BANDS - 1)
        worth = worth.reshape(n, len(combos), 3, BANDS)
        enemy = np.arange(n)[None, :]
        band = (sight.dist[:, :, None] > limits[enemy, combo[:, None]]).sum(axis=2)  # (R, E)
        at = np.asarray([(e["x"], e["y"]) for e in sight.enemies], dtype=float)
        facing = np.asarray([float(e.get("facing", 0.0)) for e in sight.enemies])
        aspect = aspect_index(
            bearings(at[None], sight.pos[:, None]), facing[None], self.shots.half_angle
        )
        value = worth[enemy, combo[:, None], aspect, band]  # (R, E)
        value = value * np.asarray([self._value(e, view) for e in sight.enemies])[None]
        return np.where(sight.seen, value, 0.0).max(axis=1)
