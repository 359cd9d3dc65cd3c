"""Phase A (p6, p36, p42): written orders for artillery and aircraft, in secret.

Each side writes, for a battery, the point its POA counter will go to when the fire is called
down in phase E (a new order returns the counter to the base line: fire at the old point
stops), or stops its fire; for an aircraft on call, a strike at a point an FAC of the side
sees, with the approach and altitude, arriving after a 1D6 delay (p42). A written order is an
event only its writer reads (engine flow `SealedOrders.write_draft`); it is never revealed as a
whole: the other side learns only where fire lands that its elements can see (decision P171).
Map fire and prepared strikes were written before the game (scenario); they may be cancelled,
never postponed (p37, p42)."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, Literal

from ....chance import Outcome, Roll, sample
from ....engine.command_schema import CommandModel, Finite, Ident
from ....engine.commands import IllegalCommand
from ....engine.events import Draft, Event
from ....engine.flow import SealedOrders
from . import counter_battery, indirect_smoke, onboard_fire, orders_air, support, turn
from .state import Marker, State


class FireMission(CommandModel):
    """Phase A: battery `battery` will fire at (x, y) once called down (p36), HE or, where its
    guns can, smoke or WP (p37, game/indirect_smoke.py)."""

    type: Literal["fire_mission"]
    battery: Ident
    x: Finite
    y: Finite
    ammo: Literal["he", "smoke", "wp"] = "he"


class CeaseFire(CommandModel):
    """Phase A: the battery stops firing (its POA counter is removed; map fire cancelled)."""

    type: Literal["cease_fire"]
    battery: Ident


class AirStrike(CommandModel):
    """Phase A: an on-call strike at (x, y), flying along `heading`, at `altitude` (p42)."""

    type: Literal["air_strike"]
    aircraft: Ident
    x: Finite
    y: Finite
    heading: float = 0.0
    altitude: Literal["low", "medium"] = "low"


class ReassignBattery(CommandModel):
    """Phase A: the counter-battery battery turns to normal fire, five turns later (p37)."""

    type: Literal["reassign_battery"]
    battery: Ident


class CancelStrike(CommandModel):
    """Phase A: the aircraft's next strike (on call or prepared) is cancelled."""

    type: Literal["cancel_strike"]
    aircraft: Ident


COMMANDS = {"fire_mission": FireMission, "cease_fire": CeaseFire, "air_strike": AirStrike,
            "cancel_strike": CancelStrike, "reassign_battery": ReassignBattery}  # fmt: skip
TEMPLATES = 3  # targets offered per battery or aircraft in the legal templates


# ----------------------------------------------------------------------------- folds
def _poa(side: str, bid: str) -> str:
    return f"poa-{side}-{bid}"


def _fire_order(state: State, d: dict, e: Event) -> None:
    o = d["orders"]
    b = support.status(state, "batteries", o["battery"])
    if o["kind"] == "reassign":  # from counter-battery to normal fire (p37, P313)
        b["reassigned"] = state.turn
        return
    if o["kind"] == "cease":
        b.pop("order", None)
        b["ceased"] = state.turn
        state.markers.pop(_poa(d["side"], o["battery"]), None)
        return
    b["order"] = {"x": o["x"], "y": o["y"], "turn": state.turn, "landed": False,
                  "ammo": o.get("ammo", "he")}  # fmt: skip
    b["on_poa"] = 0
    state.markers[_poa(d["side"], o["battery"])] = Marker(
        _poa(d["side"], o["battery"]), "poa", d["side"], o["x"], o["y"], o["radius"],
        {"battery": o["battery"], "landed": False}, [d["side"]],
    )  # fmt: skip


def _air_order(state: State, d: dict, e: Event) -> None:
    o = d["orders"]
    p = support.status(state, "aircraft", o["aircraft"])
    if o["kind"] == "cancel":
        if o.get("prepared") is not None:
            p.setdefault("cancelled", []).append(o["prepared"])
        p.pop("strike", None)
        return
    p["strike"] = {k: o[k] for k in ("x", "y", "heading", "altitude", "arrives")}


FOLDS = {"fire_order": _fire_order, "air_order": _air_order}


# ----------------------------------------------------------------------------- queries
def _has_support(state: State, side: str) -> bool:
    return bool(support.batteries(state, side) or support.planes(state, side))


def note(state: State) -> str | None:
    if not any(_has_support(state, s) for s in state.sides):
        return "phase A: no written orders for artillery and aircraft in this scenario"
    return None


def actors(state: State) -> list[str]:
    return [s for s in turn.waiting(state) if _has_support(state, s)]


def _targets(state: State, side: str, b: Any = None) -> list[tuple[float, float]]:
    """Points offered for orders (`b`: an on-board platoon's, only those in its range)."""
    marks = state.last_seen.get(side, {})  # keyed by true ids: order by place, not by id
    spots = sorted({(xy[0], xy[1]) for xy in marks.values()})
    if b is not None and b.on_board:
        spots = [p for p in spots if onboard_fire.range_refused(state, b, p) is None]
    return spots[:TEMPLATES]


def legal(state: State, side: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for _, b in support.batteries(state, side):
        o = support.peek(state, "batteries", b.id).get("order") or {}
        if _mission_refused(state, side, b) is None:
            out += [{"type": "fire_mission", "battery": b.id, "x": x, "y": y}
                    for x, y in _targets(state, side, b) if (x, y) != (o.get("x"), o.get("y"))]  # fmt: skip
            out += [{"type": "fire_mission", "battery": b.id, "x": x, "y": y, "ammo": "smoke"}
                    for x, y in _targets(state, side, b)[:1]
                    if indirect_smoke.battery_refused(state, side, b, "smoke") is None]  # fmt: skip
        if _firing(state, b):
            out.append({"type": "cease_fire", "battery": b.id})
        if counter_battery.reassign_refused(state, b) is None:
            out.append({"type": "reassign_battery", "battery": b.id})
    for _, p in support.planes(state, side):
        for x, y in _targets(state, side):
            cmd = {"type": "air_strike", "aircraft": p.id, "x": x, "y": y, "heading": 0.0,
                   "altitude": "low"}  # fmt: skip
            if _strike_refused(state, side, cmd) is None:
                out.append(cmd)
        if support.next_strike(state, side, p) is not None:
            out.append({"type": "cancel_strike", "aircraft": p.id})
    return out


def _firing(state: State, b: Any) -> bool:
    """Whether the battery has fire to stop: a written POA, or map fire not yet cancelled."""
    st = support.peek(state, "batteries", b.id)
    return "order" in st or bool(b.plan and not st.get("ceased"))


def _mission_refused(state: State, side: str, b: Any) -> str | None:
    if b.plan:
        return f"battery {b.id} fires map fire written before the game (p37); it may only cease"
    if support.peek(state, "batteries", b.id).get("silenced"):
        return f"battery {b.id} is out of action"
    if support.missions_left(state, b) == 0:
        return f"battery {b.id} has fired all its {b.missions} missions"
    return counter_battery.mission_refused(state, b)


def _on_table(state: State, cmd: dict[str, Any]) -> tuple[float, float]:
    x, y = float(cmd["x"]), float(cmd["y"])
    if not state.board.on_table(x, y):
        raise IllegalCommand(f"({x:g}, {y:g}) is off the table", "x")
    return x, y


def _strike_refused(state: State, side: str, cmd: dict[str, Any]) -> str | None:
    p = support.plane(state, side, cmd.get("aircraft"))
    st = support.peek(state, "aircraft", p.id)
    if st.get("gone"):
        return f"{p.id} has gone home"
    if state.turn < p.from_turn:
        return f"{p.id} may be called from turn {p.from_turn}"
    if support.next_strike(state, side, p) is not None:
        return f"{p.id} already has a strike ordered; cancel it first"
    if not orders_air.weapons_left(state, p):
        return f"{p.id} has no bombs, rockets or gun ammunition left (p43)"
    if cmd.get("altitude") == "medium" and orders_air.attack_weapon(state, p, False) != "bombs":
        return "only bombs may be dropped from medium altitude (p42)"
    xy = (float(cmd["x"]), float(cmd["y"]))
    if not any(
        support.role_of(state, e, "fac") and support.observes_point(state, e, xy)
        for e in state.side_elements(side)
    ):
        return "no FAC team of yours sees that point (p42: on-call strikes need one)"
    return None


# ----------------------------------------------------------------------------- commands
def _delay():
    d = yield Roll("1d6", "on-call delay in turns", "p42")
    return Outcome(f"delay_{d}")


def resolve(state: State, side: str, cmd: dict[str, Any], rng: random.Random) -> list[Draft]:
    sealed = SealedOrders(list(state.sides))
    kind = cmd["type"]
    if kind == "reassign_battery":
        b = support.battery(state, side, cmd.get("battery"))
        why = counter_battery.reassign_refused(state, b)
        if why:
            raise IllegalCommand(why, "battery")
        ready = state.turn + counter_battery.DELAY
        draft = sealed.write_draft(side, {"kind": "reassign", "battery": b.id}, "fire_order")
        note = (f"battery {b.id} leaves counter-battery fire now and takes normal fire missions "
                f"from turn {ready} (p37: a five-move delay; P313)")  # fmt: skip
        return [replace(draft, explanation=(note,))]
    if kind in ("fire_mission", "cease_fire"):
        b = support.battery(state, side, cmd.get("battery"))
        if kind == "cease_fire":
            if not _firing(state, b):
                raise IllegalCommand(f"battery {b.id} has no fire to stop", "battery")
            order = {"kind": "cease", "battery": b.id}
            return [sealed.write_draft(side, order, "fire_order")]
        why = _mission_refused(state, side, b)
        if why:
            raise IllegalCommand(why, "battery")
        x, y = _on_table(state, cmd)
        if b.on_board:
            why = onboard_fire.range_refused(state, b, (x, y))
            if why:
                raise IllegalCommand(why, "x")
        ammo = cmd.get("ammo", "he")
        why = indirect_smoke.battery_refused(state, side, b, ammo)
        if why:
            raise IllegalCommand(why, "ammo")
        o = support.peek(state, "batteries", b.id).get("order")
        if o and (o["x"], o["y"], o.get("ammo", "he")) == (x, y, ammo):
            raise IllegalCommand(f"battery {b.id} already has orders for ({x:g}, {y:g})", "x")
        order = {"kind": "fire", "battery": b.id, "x": x, "y": y, "ammo": ammo,
                 "radius": support.bzr(state, b)}  # fmt: skip
        return [sealed.write_draft(side, order, "fire_order")]
    p = support.plane(state, side, cmd.get("aircraft"))
    if kind == "cancel_strike":
        nxt = support.next_strike(state, side, p)
        if nxt is None:
            raise IllegalCommand(f"{p.id} has no strike to cancel", "aircraft")
        order = {"kind": "cancel", "aircraft": p.id, "prepared": nxt.get("prepared")}
        return [sealed.write_draft(side, order, "air_order")]
    _on_table(state, cmd)
    why = _strike_refused(state, side, cmd)
    if why:
        raise IllegalCommand(why, "aircraft")
    res = sample(_delay, rng=rng)
    wait = int(res.result.name.split("_")[1])
    order = {"kind": "strike", "aircraft": p.id, "x": float(cmd["x"]), "y": float(cmd["y"]),
             "heading": float(cmd.get("heading", 0.0)) % 360, "altitude": cmd.get("altitude", "low"),
             "arrives": state.turn + wait}  # fmt: skip
    return [replace(sealed.write_draft(side, order, "air_order"), explanation=tuple(res.lines()))]


def automatic(state: State, rng: random.Random) -> list[Draft]:
    return []


def check(state: State) -> None:
    support.check(state)
    counter_battery.check(state)
    for side, b in support.batteries(state):
        for m in b.plan:
            why = indirect_smoke.battery_refused(state, side, b, m.ammo)
            if why:
                raise ValueError(f"forces.{side}.batteries {b.id}: map fire {m.ammo}: {why}")
