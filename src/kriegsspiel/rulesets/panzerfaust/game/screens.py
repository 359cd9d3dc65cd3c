"""Vehicles screen lines of sight (p8 procedure step 1: vehicles can block DLOS; Q&A 3, p111:
a destroyed AFV blocks sight as it did before, so a live one does too). A vehicle on the table
(an AFV, motorised gun or softskin, not a passenger) stands on a disc of its size, the
footprint wrecks use (`RADIUS`, P192); a line of sight crossing a disc is screened.

Option `vehicle_screen` (decision P285):
- `size` (default): a vehicle, live or wrecked, hides a target no larger than itself (the
  Observation Table's sizes A-D, p8); a bigger one shows over it;
- `all`: every vehicle and wreck hides whatever is behind it;
- `wrecks`: only wrecks screen (the game before P285), and they hide everything.
In every mode the observer and the target see past a vehicle they stand against (inside its
disc), as with wrecks (P192), and an element never screens itself."""

from __future__ import annotations

import numpy as np

from .state import State

VEHICLES = ("afv", "motorised_gun", "softskin")
SIZES = "ABCD"
RADIUS = {"A": 1.5, "B": 1.5, "C": 2.5, "D": 3.0}  # cm: half a model's length (placeholder P192)

Disc = tuple[str, float, float, float, str]  # (id, x, y, radius, size)


def live(state: State) -> list[Disc]:
    """The discs of the vehicles on the table now (memoised until the next event: the game's
    `apply` and sight.look drop the memo)."""
    memo = state.cache.get("screens")
    if memo is None:
        memo = state.cache["screens"] = [
            (e.id, e.x, e.y, RADIUS[e.size], e.size)
            for e in state.elements.values()
            if e.kind in VEHICLES and e.active and e.x is not None and e.y is not None
        ]
    return memo


def mode(state: State) -> str:
    return state.rules.opts.vehicle_screen


def across(discs: list[Disc], a: tuple[float, float], b: tuple[float, float],
           size: str | None, skip: tuple[str, ...] = ()) -> bool:  # fmt: skip
    """Whether one of `discs` screens the line a-b from a target of `size` (None: anything;
    the size rule applies when `size` is given)."""
    ax, ay = a
    bx, by = b
    dx, dy = bx - ax, by - ay
    ll = dx * dx + dy * dy
    lo_x, hi_x = min(ax, bx), max(ax, bx)
    lo_y, hi_y = min(ay, by), max(ay, by)
    rank = SIZES.index(size) if size is not None else -1
    for did, cx, cy, r, s in discs:
        if cx + r < lo_x or cx - r > hi_x or cy + r < lo_y or cy - r > hi_y:
            continue
        if rank > SIZES.index(s) or did in skip:
            continue  # a bigger target shows over it (size rule)
        r2 = r * r
        if (cx - ax) ** 2 + (cy - ay) ** 2 <= r2 or (cx - bx) ** 2 + (cy - by) ** 2 <= r2:
            continue  # standing against it: sees past it (P192)
        t = 0.0 if ll == 0 else max(0.0, min(1.0, ((cx - ax) * dx + (cy - ay) * dy) / ll))
        px, py = ax + t * dx - cx, ay + t * dy - cy
        if px * px + py * py < r2:
            return True
    return False


def blocks(state: State, a: tuple[float, float], b: tuple[float, float],
           size: str | None = None, skip: tuple[str, ...] = ()) -> bool:  # fmt: skip
    """Whether a live vehicle screens the line of sight a-b from a target of `size` (p8,
    Q&A 3); `skip`: elements that do not count (a mover looked at along its own path)."""
    how = mode(state)
    if how == "wrecks":
        return False
    return across(live(state), a, b, size if how == "size" else None, skip)


def near(starts: list[tuple[float, float]], ends: list[tuple[float, float]],
         discs: list[Disc]) -> np.ndarray:  # fmt: skip
    """[i][j]: whether the line starts[i]-ends[j] passes within a radius of one of `discs`
    (no exemption, no size rule: the lines whose answer a moved vehicle may have changed)."""
    if not starts or not ends or not discs:
        return np.zeros((len(starts), len(ends)), bool)
    a = np.asarray(starts, float)[:, None, None, :]  # m 1 1 2
    b = np.asarray(ends, float)[None, :, None, :]  # 1 n 1 2
    c = np.asarray([(d[1], d[2]) for d in discs], float)[None, None, :, :]  # 1 1 k 2
    r = np.asarray([d[3] for d in discs], float)[None, None, :]
    ab = b - a
    ll = (ab * ab).sum(-1)
    t = np.clip(((c - a) * ab).sum(-1) / np.where(ll == 0, 1.0, ll), 0.0, 1.0)
    p = a + t[..., None] * ab - c
    return ((p * p).sum(-1) <= r * r).any(-1)
