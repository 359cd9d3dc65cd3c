"""Exact odds of shots that have not happened yet: what a vehicle could do from a square it might
move to, and what the enemies there could do to it. Only the public rules and data are read
(the quickref vehicle charts), never the game: a bot may weigh positions with them.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ...chance import exact
from ...data.errors import RuleError
from ...rulesets.quickref import direct_fire as df
from ...rulesets.quickref.game.geometry_helpers import bearing
from ...rulesets.quickref.models import Vehicle
from ...rulesets.quickref.tables import rules as quickref_rules

XY = tuple[float, float]
ASPECTS = ("front", "side", "rear")  # the aspect index of `ShotOdds.table`
MOVED = ("none", "half", "over_half")  # a firer's movement state, as `worth` takes it
BANDS = 3  # columns of a stacked table: the short band, the long band, out of range


def aspect_from(shooter: XY, target: XY, target_facing: float, half_angle: float) -> str:
    """The side of the target the shooter sees (the engine's rule, on bare positions)."""
    off = (bearing(target, shooter) - target_facing + 180) % 360 - 180
    if abs(off) <= half_angle:
        return "front"
    return "rear" if abs(off) >= 180 - half_angle else "side"


# probabilities of outcomes per shot situation, shared by every bot of the process
_PROBS: dict[tuple, dict[str, float]] = {}
# worths, tables, stacks and stack rows per set of outcome values (a profile's), shared the
# same way
_WORTHS: dict[tuple, tuple[dict, dict, dict, dict]] = {}


class ShotOdds:
    """Expected worth of a gun shot between two vehicle types, by the profile's outcome values;
    exact odds from the rules core, memoised per range band (the only way range enters)."""

    def __init__(self, outcome_value: Mapping[str, float]):
        self.rules = quickref_rules()
        self.half_angle = self.rules.opts.front_arc_half_angle
        self.value = dict(outcome_value)
        memos = _WORTHS.setdefault(
            (tuple(sorted(self.value.items())), id(self.rules)), ({}, {}, {}, {})
        )
        self._memo: dict[tuple, float] = memos[0]
        self._tables: dict[tuple, tuple[np.ndarray, np.ndarray]] = memos[1]
        self._stacks: dict[tuple, tuple[np.ndarray, np.ndarray]] = memos[2]
        self._rows: dict[tuple, tuple[np.ndarray, np.ndarray]] = memos[3]

    def _vehicle(self, type_id: str) -> Vehicle | None:
        entry = self.rules.cat.entries.get("vehicle", {}).get(type_id)
        return entry.record if entry is not None else None  # type: ignore[return-value]

    def worth(
        self,
        firer: str,
        target: str,
        distance: float,
        aspect: str,
        *,
        target_moved: bool = False,
        firer_moved: str = "none",
        cover: str | None = None,
    ) -> float:
        """Sum over outcomes of probability x outcome value; 0 when the firer has no gun that
        reaches or may not fire (a gun that moved over half, decision Q6)."""
        f = self._vehicle(firer)
        band = f.gun.band(distance) if f is not None and f.gun is not None else None
        if band is None:
            return 0.0
        key = (firer, target, band, aspect, target_moved, firer_moved, cover)
        hit = self._memo.get(key)
        if hit is None:
            probs = _PROBS.get(key)
            if probs is None:
                probs = _PROBS[key] = self._probs(f, target, band, *key[3:])
            hit = self._memo[key] = sum(p * self.value.get(k, 0.0) for k, p in probs.items())
        return hit

    def _probs(self, f, target, band, aspect, target_moved, firer_moved, cover):
        t = self._vehicle(target)
        if t is None:
            return {}
        if firer_moved == "over_half" and self.rules.opts.firer_moved_over_half == "no_fire":
            return {}
        shot = df.Shot(
            f,
            t,
            float(f.gun.range[band]),
            "main",
            aspect,
            target_moved,
            firer_moved,
            False,
            False,
            cover,
            False,
        )
        try:
            dist = exact(df.direct_fire, self.rules, shot)
        except (RuleError, LookupError, ValueError):
            return {}
        return {str(k): float(p) for k, p in dist.probs.items()}

    def table(
        self,
        firer: str,
        target: str,
        *,
        target_moved: bool = False,
        firer_moved: str = "none",
        cover: str | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """`worth` as arrays for many shots at once: (the firer's band limits, worth[aspect,
        band]); a distance's band is `np.searchsorted(limits, d)` (short band inclusive, as
        `Gun.band`) and the last column, beyond the long band, is 0 (memoised)."""
        key = (firer, target, target_moved, firer_moved, cover)
        hit = self._tables.get(key)
        if hit is None:
            f = self._vehicle(firer)
            limits = [float(r) for r in f.gun.range] if f is not None and f.gun else []
            worth = np.zeros((len(ASPECTS), len(limits) + 1))
            for a, aspect in enumerate(ASPECTS):
                for b, limit in enumerate(limits):
                    worth[a, b] = self.worth(
                        firer,
                        target,
                        limit,
                        aspect,
                        target_moved=target_moved,
                        firer_moved=firer_moved,
                        cover=cover,
                    )
            hit = self._tables[key] = (np.asarray(limits), worth)
        return hit

    def stacked(self, keys: tuple[tuple, ...]) -> tuple[np.ndarray, np.ndarray]:
        """Many `table`s in one array, for keys (firer, target, target_moved, firer_moved,
        cover): limits (n, BANDS - 1) padded with inf and worth (n, aspect, BANDS) padded with
        0, so that a distance's band is the count of limits below it (memoised)."""
        hit = self._stacks.get(keys)
        if hit is None:
            rows = [self._row(key) for key in keys]
            limits = np.array([lim for lim, _ in rows]).reshape(len(keys), BANDS - 1)
            worth = np.array([w for _, w in rows]).reshape(len(keys), len(ASPECTS), BANDS)
            if len(self._stacks) >= 4096:
                self._stacks.clear()
            hit = self._stacks[keys] = (limits, worth)
        return hit

    def _row(self, key: tuple) -> tuple[np.ndarray, np.ndarray]:
        """One key's `table` padded as `stacked` stacks it: limits (BANDS - 1,) padded with
        inf, worth (aspect, BANDS) padded with 0 (memoised: a new stack is mostly known keys)."""
        hit = self._rows.get(key)
        if hit is None:
            firer, target, target_moved, firer_moved, cover = key
            lim, w = self.table(
                firer, target, target_moved=target_moved, firer_moved=firer_moved, cover=cover
            )
            limits = np.full(BANDS - 1, np.inf)
            worth = np.zeros((len(ASPECTS), BANDS))
            limits[: len(lim)] = lim
            worth[:, : len(lim)] = w[:, : len(lim)]
            hit = self._rows[key] = (limits, worth)
        return hit
