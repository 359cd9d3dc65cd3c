"""Sight through a battery's beaten zone (p8, note 5 of the observation modifiers): a line of
sight that passes through the beaten zone of an artillery battery firing this turn halves the
range at which the target is observed; mortars and batteries of fewer than four guns (one pair)
do not. The zones are the `bz` markers of the turn (support.zone) other than smoke, whose
cloud blocks sight by itself (p33, p37). Sight is physical: a side's observers see less through
a zone whether or not the side knows of the fire (decision P314)."""

from __future__ import annotations

import numpy as np

from .state import State

MIN_PAIRS = 2  # four guns (p8: not batteries of less than 4 guns)


def zones(state: State) -> tuple[tuple[float, float, float], ...]:
    """(x, y, radius) of each beaten zone this turn that halves sight through it (p8)."""
    return tuple(
        sorted(
            (m.x, m.y, m.radius)
            for m in state.markers.values()
            if m.kind == "bz"
            and m.data.get("turn") == state.turn
            and not m.data.get("mortar")
            and m.data.get("pairs", 0) >= MIN_PAIRS
            and m.data.get("ammo", "he") != "smoke"
        )
    )


def _gap(a: np.ndarray, b: np.ndarray, c: tuple[float, float]) -> np.ndarray:
    """The least distance from point `c` to each segment a-b (arrays of shape (..., 2))."""
    ab = b - a
    ac = np.asarray(c, float) - a
    den = np.einsum("...i,...i", ab, ab)
    t = np.where(den > 1e-12, np.einsum("...i,...i", ac, ab) / np.where(den > 1e-12, den, 1.0), 0.0)
    t = np.clip(t, 0.0, 1.0)
    near = a + ab * t[..., None]
    return np.hypot(*(np.asarray(c, float) - near).T).T


def through(state: State, a: tuple[float, float], b: tuple[float, float]) -> bool:
    """Whether the line of sight a-b passes through such a beaten zone (p8)."""
    zs = zones(state)
    if not zs:
        return False
    pa, pb = np.array([a], float), np.array([b], float)
    return any(bool(_gap(pa, pb, (x, y))[0] <= r) for x, y, r in zs)


def through_many(state: State, obs: np.ndarray, pts: np.ndarray) -> np.ndarray | None:
    """For observers `obs` (n, 2) and points `pts` (m, 2): an (n, m) array, True where the line
    passes through such a zone; None when there is none this turn."""
    zs = zones(state)
    if not zs:
        return None
    a = np.broadcast_to(obs[:, None, :], (len(obs), len(pts), 2))
    b = np.broadcast_to(pts[None, :, :], (len(obs), len(pts), 2))
    hit = np.zeros((len(obs), len(pts)), bool)
    for x, y, r in zs:
        hit |= _gap(a, b, (x, y)) <= r
    return hit
