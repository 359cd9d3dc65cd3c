"""Small geometric facts the quickref orders need (distances, aspect, facing)."""

from __future__ import annotations

import math

from .state import Unit


def distance(a: Unit | tuple[float, float], b: Unit | tuple[float, float]) -> float:
    ax, ay = a.pos if isinstance(a, Unit) else a
    bx, by = b.pos if isinstance(b, Unit) else b
    return math.hypot(ax - bx, ay - by)


def bearing(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Degrees clockwise from +y (north) of the direction a -> b."""
    return math.degrees(math.atan2(b[0] - a[0], b[1] - a[1])) % 360


def aspect(firer: Unit, target: Unit, front_half_angle: float = 45.0) -> str:
    """front if the firer is within the target's front arc, else side (no rear armour: Q8)."""
    off = (bearing(target.pos, firer.pos) - target.facing + 180) % 360 - 180
    if abs(off) <= front_half_angle:
        return "front"
    return "rear" if abs(off) >= 180 - front_half_angle else "side"


def path_length(path: list[tuple[float, float]]) -> float:
    return sum(math.hypot(b[0] - a[0], b[1] - a[1]) for a, b in zip(path, path[1:], strict=False))
