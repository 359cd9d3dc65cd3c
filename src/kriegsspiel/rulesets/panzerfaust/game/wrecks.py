"""Wrecks (p8, p31-32): a destroyed AFV, motorised gun or softskin stays on the table where it
was hit as a wreck, and vehicles block lines of sight (p8), wrecks included. A wreck is a
table marker over the model's footprint (a disc, decision P192); a line of sight that crosses
it is blocked, unless the observer or the target stands against it (inside the disc).

Who knows of a wreck: its own side, and each side that observed the vehicle until it was
destroyed; any other side learns of it when one of its elements would observe a vehicle of that
size there (p8), as it would a dummy counter."""

from __future__ import annotations

from . import screens
from .state import Element, Marker, State

VEHICLES = screens.VEHICLES
RADIUS = screens.RADIUS


def leave(state: State, t: Element) -> None:
    """A vehicle destroyed at its place leaves its wreck there (a fold)."""
    if t.kind not in VEHICLES or t.x is None or t.y is None:
        return
    knew = [s for s in state.sides if s == t.side or t.id in state.seen.get(s, ())
            or t.id in state.last_seen.get(s, {})]  # fmt: skip
    mid = f"wreck-{sum(1 for m in state.markers.values() if m.kind == 'wreck') + 1}"  # no id
    data = {"size": t.size}
    state.markers[mid] = Marker(mid, "wreck", None, t.x, t.y, RADIUS[t.size], data, knew)
    state.cache.pop("wrecks", None)


def _discs(state: State) -> list[screens.Disc]:
    memo = state.cache.get("wrecks")
    if memo is None:
        memo = state.cache["wrecks"] = [
            (m.id, m.x, m.y, m.radius, m.data["size"])
            for m in state.markers.values()
            if m.kind == "wreck"
        ]
    return memo


def blocks(state: State, a: tuple[float, float], b: tuple[float, float],
           size: str | None = None) -> bool:  # fmt: skip
    """Whether a wreck stands across the line of sight a-b (p8) from a target of `size`: a
    wreck screens as the vehicle did (Q&A 3), so by size when `vehicle_screen=size` (P285)."""
    discs = _discs(state)
    if not discs:
        return False
    return screens.across(discs, a, b, size if screens.mode(state) == "size" else None)


def spot(state: State, side: str) -> None:
    """Wrecks unknown to `side` that one of its elements would observe are known from now."""
    from . import sight  # sight imports this module

    for m in state.markers.values():
        if m.kind != "wreck" or m.visible_to is None or side in m.visible_to:
            continue
        ghost = Element(m.id, "", "", "afv", "", "", "", m.x, m.y, size=m.data["size"])
        ghost.feature = state.board.feature(m.x, m.y)
        if any(sight.sees(state, o, ghost, {}) for o in state.elements.values() if o.side == side):
            m.visible_to = [*m.visible_to, side]
