"""The set-up before turn 1 (pp4-5). The scenario places the forces (its pre-game, branch
pfscen, game/pregame.py, chooses battle type, zones and weather). With hidden deployment
(option `hidden_deployment`, decision P150) each side may first put down dummy counters, at
most one per element it has (p5), in its deployment zone (the forces block's `deployment`
polygon, else within 30 cm of its own table edge); the enemy sees them, like the counters of
its real elements, until one of its elements would observe them."""

from __future__ import annotations

import math
import random
from typing import Any, Literal

from ....engine.command_schema import CommandModel, Finite
from ....engine.commands import IllegalCommand
from ....engine.events import Draft, Event
from . import turn
from .pregame import pregame
from .state import Marker, State

EDGE_ZONE = 30.0  # cm from its own edge: a side's zone when its forces give none (P150)


class Dummy(CommandModel):
    """Set-up: a dummy counter of size A-D at (x, y) (p5)."""

    type: Literal["dummy"]
    x: Finite
    y: Finite
    size: Literal["A", "B", "C", "D"] = "A"


COMMANDS: dict[str, Any] = {"dummy": Dummy}


def _pregame(state: State, d: dict, e: Event) -> None:
    state.pregame = dict(d)


def _exit_area(state: State, d: dict, e: Event) -> None:
    assert state.pregame is not None
    state.pregame["exit_area"] = dict(d)


def _placed(state: State, d: dict, e: Event) -> None:
    ident = f"dummy-{d['side']}-{e.index}"
    m = Marker(ident, "dummy", d["side"], d["x"], d["y"], data={"size": d["size"]},
               visible_to=[d["side"]])  # fmt: skip
    state.markers[m.id] = m


FOLDS = {"dummy_placed": _placed, "pregame": _pregame, "exit_area": _exit_area}


def hidden(state: State) -> bool:
    return any(e.hidden for e in state.elements.values())


def wants_pregame(state: State) -> bool:
    """The pre-game runs when the scenario has an `options.pregame` block (decision P152)."""
    opts = state.scenario.options
    return isinstance(opts, dict) and "pregame" in opts


def actors(state: State) -> list[str]:
    if wants_pregame(state) and state.pregame is None:
        return []
    return turn.waiting(state) if hidden(state) else []


def _dummies(state: State, side: str) -> int:
    return sum(1 for m in state.markers.values() if m.kind == "dummy" and m.side == side)


def in_zone(state: State, side: str, x: float, y: float) -> bool:
    zone = getattr(state.scenario.forces_of(side), "deployment", None)
    if zone:
        from shapely import Point, Polygon

        return Polygon(zone).covers(Point(x, y))
    spec = next(s for s in state.scenario.sides if s.id == side)
    t = state.scenario.table
    room = {"north": t.depth - y, "south": y, "east": t.width - x, "west": x}
    return room.get(spec.edge or "", math.inf) <= EDGE_ZONE


def legal(state: State, side: str) -> list[dict[str, Any]]:
    real = [e for e in state.side_elements(side) if e.on_table and e.hidden]
    if _dummies(state, side) >= len(real):
        return []
    out = []
    for e in real[:4]:  # a few offers beside real elements; any point in the zone will do
        x, y = round(e.x + 6.0, 1), e.y
        if state.board.on_table(x, y) and in_zone(state, side, x, y):
            out.append({"type": "dummy", "x": x, "y": y, "size": e.size})
    return out


def resolve(state: State, side: str, cmd: dict, rng: random.Random) -> list[Draft]:
    if not hidden(state):
        raise IllegalCommand(
            "dummy counters need hidden deployment (option hidden_deployment)", "type"
        )
    real = sum(1 for e in state.side_elements(side) if e.on_table and e.hidden)
    if _dummies(state, side) >= real:
        raise IllegalCommand(
            f"at most one dummy per hidden element: {real} hidden, all matched (p5)", "type"
        )
    x, y = float(cmd["x"]), float(cmd["y"])
    if not state.board.on_table(x, y) or not in_zone(state, side, x, y):
        raise IllegalCommand(f"({x:g}, {y:g}) is outside your deployment zone", "x")
    data = {"side": side, "x": x, "y": y, "size": cmd.get("size", "A")}
    return [Draft("dummy_placed", data, (side,))]


def automatic(state: State, rng: random.Random) -> list[Draft]:
    """The pre-game record (battle type, zones, objectives, weather ...) from the game's dice;
    a breakthrough's exit area chosen in secret is its chooser's alone (p5)."""
    if not wants_pregame(state) or state.pregame is not None:
        return []
    record = pregame(state.scenario, rng, state.rules.opts).model_dump(mode="json")
    lines = tuple(
        f"roll {r['label']}: {r['dice']} = {r['value']}" + (f" ({r['page']})" if r["page"] else "")
        for r in record["rolls"]
    )
    area = record.get("exit_area")
    drafts = []
    if area and area["secret"]:
        record["exit_area"] = {k: area[k] for k in ("chooser", "secret", "edge", "width")}
        drafts.append(Draft("exit_area", area, (area["chooser"],)))
    return [Draft("pregame", record, None, lines), *drafts]
