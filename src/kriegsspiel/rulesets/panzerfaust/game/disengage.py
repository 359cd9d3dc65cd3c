"""Disengaging from close combat (pp. 18-19, P309).

An infantry base on foot in a melee with an enemy its side observes may not simply move
away: in phase F it is given a `disengage {unit}` order (a single order, 1 pip, +1 out of
command radius, p7), which is its move for the turn. It fights once more in this turn's
close combat, its enemy at +1 ("enemy unit disengaging", p18), and then, if it still stands,
steps straight back from the enemies of that combat until it touches none of them, at most
its cross-country move (placeholder: the book gives no distance). A base that cannot break
contact so stays in the melee, and the log says so."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from ....engine.commands import IllegalCommand
from ....engine.events import Draft, Event
from . import fieldworks, melee_contact, melee_groups, movement
from .state import Element, State

STEP = 0.5  # cm: the steps a disengaging base tries, straight back from its enemies
COUNTER = "disengaging"


def engaged_known(state: State, e: Element) -> bool:
    """Whether `e` is in a melee with an enemy its side observes (what the side can know,
    P281)."""
    if e.kind != "infantry" or not e.active:
        return False
    fighting = melee_groups.contacts(state).get(e.id, ())
    return any(t in state.seen.get(e.side, ()) for t in fighting)


def why_not_move(state: State, e: Element) -> str | None:
    """A base disengaging, or in a melee its side knows of, makes no other move (p18-19)."""
    if e.has(COUNTER):
        return f"{e.name} is disengaging: it steps back after the close combat (p18-19)"
    if engaged_known(state, e):
        return f"{e.name} is in close combat: it may only disengage (p18-19)"
    return None


def why_not(state: State, e: Element) -> str | None:
    """Why `e` may not be ordered to disengage now."""
    if e.has(COUNTER):
        return f"{e.name} is already disengaging"
    if e.kind != "infantry" or not e.active:
        return f"{e.name} is not infantry on foot: only they disengage (p18-19)"
    if not engaged_known(state, e):
        return f"{e.name} is in no close combat your side knows of"
    if e.moved > 0:
        return f"{e.name} has already moved this turn"
    if e.has("retreat"):
        return f"{e.name} is retreating: its move is compulsory (p24)"
    if e.has("pinned"):
        return f"{e.name} is pinned: it cannot leave the close combat this turn (p17)"
    return None


def templates(state: State, members: list[Element]) -> list[dict[str, Any]]:
    return [{"type": "disengage", "unit": e.id} for e in members if why_not(state, e) is None]


def order(state: State, side: str, e: Element, base: dict) -> list[Draft]:
    why = why_not(state, e)
    if why:
        raise IllegalCommand(why, "unit")
    note = (f"{e.name} disengages: it fights this turn's close combat with its enemy at +1, "
            "then steps back (p18-19)",)  # fmt: skip
    return [Draft("disengage", base | {"unit": e.id}, (side,), note)]


def done(state: State) -> None:
    """Fold, once every melee of the turn is fought: no base is disengaging any more."""
    for e in state.elements.values():
        e.counters.pop(COUNTER, None)


def fold(state: State, d: dict, e: Event) -> None:
    state.elements[d["unit"]].counters[COUNTER] = 1


def steps(state: State, combat: Any, fallen: set[str]) -> tuple[list[list], list[str]]:
    """Where each disengaging base of a combat that did not fall steps back to: [[id, x, y]],
    and the log lines."""
    out, lines = [], []
    ids = dict(combat.sides)
    for side, mine in combat.sides:
        enemies = [state.elements[j] for j in ids[state.enemy(side)]]
        for i in mine:
            if state.elements[i].has(COUNTER) and i not in fallen:
                move, line = step_out(state, state.elements[i], enemies)
                out.append(move)
                lines.append(line)
    return out, lines


def step_out(state: State, e: Element, enemies: list[Element]) -> tuple[list, str]:
    """Where base `e` steps back to, out of contact with `enemies` ([id, x, y]; where it
    stands if it cannot), and the log line (p18-19, P309)."""
    spot = _clear(state, e, enemies)
    if spot is None:
        return [e.id, e.x, e.y], f"{e.name} cannot break contact: it stays in the close combat"
    return [e.id, *spot], f"{e.name} steps back out of the close combat (p18-19)"


def _clear(state: State, e: Element, enemies: list[Element]) -> tuple[float, float] | None:
    """The nearest point straight back from the enemies' centre where `e` touches none of the
    enemy's fighters, within its cross-country move; None if there is none."""
    cx = sum(t.x for t in enemies) / len(enemies)
    cy = sum(t.y for t in enemies) / len(enemies)
    dx, dy = e.x - cx, e.y - cy
    n = math.hypot(dx, dy)
    if n < 1e-9:
        a = math.radians(e.facing + 180.0)
        dx, dy, n = math.sin(a), math.cos(a), 1.0
    dx, dy = dx / n, dy / n
    far = movement.reach(state, e)
    them = [f for f in melee_groups._fighters(state) if f.side != e.side]
    k = 1
    while k * STEP <= far + 1e-9:
        x, y = round(e.x + dx * k * STEP, 3), round(e.y + dy * k * STEP, 3)
        if state.board.on_table(x, y):
            ghost = replace(e, x=x, y=y)
            if not any(melee_contact.touch(state, ghost, t) for t in them):
                return x, y
        k += 1
    return None


def step_back(state: State, moves: list[list]) -> None:
    """Fold: the disengaged bases stand where they stepped back to."""
    for uid, x, y in moves:
        e = state.elements[uid]
        e.counters.pop(COUNTER, None)
        if e.lost:
            continue
        if (e.x, e.y) != (x, y):
            e.x, e.y = x, y
            e.feature = state.board.feature(x, y)
            for k in fieldworks.POSITION:  # it has left its position (p9)
                e.counters.pop(k, None)
