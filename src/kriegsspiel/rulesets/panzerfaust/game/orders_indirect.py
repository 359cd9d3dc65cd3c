"""Phases E and H (p6, pp. 35-37): indirect fire from off-table batteries.

E: map fire due this turn comes down where it was written (no call-down, p37); a battery
already firing on its POA keeps firing there (p36); for a battery whose written POA is still
on the base line, the side names an observer to call it down: an FAO team, or a company HQ with
a radio (p36), that sees the point (p36). The call-down is the rules core's 3D6 roll
(indirect.call_down, +1 within 20 cm of the battery's last POA). Fire that comes down marks a
beaten zone for the turn; the other side sees it only where it can see the point or stands in
it (decision P171).
H: every element the zone caught this turn (support.caught: sat in it, ended in it, or left
it, diced where it left) rolls on the rules core's beaten-zone table (indirect.bz_hit); the
results land at once (orders_fire.land) and the platoons hit test morale."""

from __future__ import annotations

import math
import random
from typing import Any, Literal

from ....chance import sample
from ....engine.command_schema import CommandModel, Ident
from ....engine.commands import IllegalCommand
from ....engine.events import Draft, Event
from ..forces import Battery
from ..rules import indirect
from . import (
    counter_battery,
    indirect_smoke,
    mortar_sights,
    onboard_fire,
    orders_fire,
    support,
    turn,
)
from .state import Element, State

NEAR = 20.0  # cm: the creeping-barrage bonus (p36)


class CallDown(CommandModel):
    """Phase E: `observer` calls the fire of `battery` down on its written POA (p36)."""

    type: Literal["call_down"]
    battery: Ident
    observer: Ident


# ----------------------------------------------------------------------------- helpers
def _map_target(b: Battery, when: int) -> tuple[float, float, str] | None:
    return next(((m.x, m.y, m.ammo) for m in b.plan if when in m.turns), None)


def _continuing(state: State, b: Battery) -> bool:
    o = support.peek(state, "batteries", b.id).get("order")
    return bool(o and o["landed"])


def _pending(state: State, side: str) -> list[Battery]:
    """The side's batteries whose written POA waits to be called down this turn."""
    tried = state.phase_data.get("tried", [])
    out = []
    for _, b in support.batteries(state, side):
        st = support.peek(state, "batteries", b.id)
        o = st.get("order")
        if o and not o["landed"] and b.id not in tried and _can_fire(state, b):
            if b.on_board and onboard_fire.refused(state, b, (o["x"], o["y"])):
                continue
            out.append(b)
    return out


def _can_fire(state: State, b: Battery) -> bool:
    st = support.peek(state, "batteries", b.id)
    return not st.get("silenced") and support.missions_left(state, b) != 0


def _caller(state: State, b: Battery, e: Element) -> str | None:
    """`fao`, `company_commander` or None: who may call the battery down (p36); a battery
    with named `observers` answers those alone (FAOs on the FAO column, others as a company
    commander)."""
    fao = support.role_of(state, e, "fao")
    if b.on_board:  # P325: only an FAO directs an on-board platoon (p36)
        return "fao" if fao and (not b.observers or e.id in b.observers) else None
    if b.observers:
        return None if e.id not in b.observers else "fao" if fao else "company_commander"
    if fao:
        return "fao"
    if e.hq == "company" and e.radio:
        return "company_commander"
    return None


def _observer_refused(state: State, b: Battery, e: Element, xy: tuple[float, float]) -> str | None:
    if _caller(state, b, e) is None:
        if b.on_board:
            return (
                f"{e.name} is not an FAO of {b.id}: only an FAO directs an on-board platoon (p36)"
            )
        if b.observers:
            return f"{e.name} is not one of battery {b.id}'s observers ({', '.join(b.observers)})"
        return f"{e.name} is neither an FAO team nor a company HQ with a radio (p36)"
    if e.moved > 0:
        return f"{e.name} moved this turn; an FAO directs fire only standing still (p36)"
    if not support.observes_point(state, e, xy):
        return f"{e.name} cannot see the written point (p36: DLOS to the target)"
    return None


def _barrage(
    state: State, side: str, b: Battery, xy: tuple[float, float], why: str, ammo: str = "he"
) -> list[Draft]:
    """Fire comes down at xy this turn: the beaten zone (smoke or WP: its cloud, p37), and
    what the enemy sees of it."""
    st = support.peek(state, "batteries", b.id)
    same = st.get("last") is not None and math.dist(st["last"], xy) < 1e-6
    radius = support.bzr(state, b)
    enemy = state.enemy(side)
    sees = support.learns(state, enemy, xy, radius)
    constant = same and st.get("ammo", "he") == ammo and st.get("fired") == state.turn - 1
    run = st.get("run", 0) + 1 if constant else 1  # turns in a row on this point (p37 smoke)
    data = {"battery": b.id, "side": side, "x": xy[0], "y": xy[1], "radius": radius,
            "calibre": b.calibre_mm, "pairs": support.pairs(state, b),
            "mortar": support.is_mortar(state, b), "rocket": support.is_rocket(state, b),
            "heavy_rocket": support.heavy_rocket(state, b),
            **(onboard_fire.data(state, b) if b.on_board else {}),
            "turns": (st.get("on_poa", 0) if same else 0) + 1, "ammo": ammo, "run": run,
            "visible_to": [side, enemy] if sees else [side]}  # fmt: skip
    lines = [f"{b.id}: {why}; beaten zone {radius:g} cm at ({xy[0]:g}, {xy[1]:g}) (p35-36)"]
    if b.on_board:
        lines.append(f"on-board platoon {b.on_board}: its {data['pairs']} mortar(s) fire from the "
                     "table as one battery and show their flash (p36; P325)")  # fmt: skip
    if ammo != "he":
        data["cloud"], more = indirect_smoke.lay(state, ammo, radius, data["pairs"], run)
        lines += more
    drafts = [Draft("barrage", data, (side,), tuple(lines))]
    if sees:
        drafts.append(support.seen_draft(enemy, xy, radius, ammo))
    return drafts


# ----------------------------------------------------------------------------- folds
def _enter_e(state: State) -> None:
    for k in [k for k, m in state.markers.items() if m.kind == "bz"]:
        del state.markers[k]


def _called(state: State, d: dict, e: Event) -> None:
    state.phase_data.setdefault("tried", []).append(d["battery"])


def _fold_barrage(state: State, d: dict, e: Event) -> None:
    st = support.status(state, "batteries", d["battery"])
    st["last"], st["on_poa"] = [d["x"], d["y"]], d["turns"]
    st["ammo"], st["run"] = d.get("ammo", "he"), d.get("run", 1)
    counter_battery.fired(state, st)
    onboard_fire.fired(state, d)
    st["missions"] = st.get("missions", 0) + 1
    if "order" in st:
        st["order"]["landed"] = True
    state.markers.pop(f"poa-{d['side']}-{d['battery']}", None)
    support.zone(state, d["side"], d)


def _noted(state: State, d: dict, e: Event) -> None:
    pass


def _landed(state: State, d: dict, e: Event) -> None:
    orders_fire.land(state, d["results"])
    state.phase_data["landed"] = True


# ----------------------------------------------------------------------------- phase E
class Calls:
    """Phase E: indirect fire comes down or is called down; on-board mortars fire over open
    sights (game/mortar_sights.py); counter-battery fire (game/counter_battery.py)."""

    COMMANDS = {"call_down": CallDown} | mortar_sights.COMMANDS | counter_battery.COMMANDS
    FOLDS = {"call_down": _called, "barrage": _fold_barrage, "barrage_seen": _noted,
             "mortar_fired": mortar_sights.FOLDS["mortar_fired"]} | counter_battery.FOLDS  # fmt: skip

    def enter(self, state: State) -> None:
        _enter_e(state)

    def note(self, state: State) -> str | None:
        if support.batteries(state) or any(mortar_sights.teams(state, s) for s in state.sides):
            return None
        return "phase E: no batteries or mortars in this scenario"

    def actors(self, state: State) -> list[str]:
        if self._due(state):
            return []
        return [s for s in turn.waiting(state) if _pending(state, s)
                or mortar_sights.ready(state, s) or counter_battery.ready(state, s)]  # fmt: skip

    def _due(self, state: State) -> list[tuple[str, Battery, tuple[float, float], str, str]]:
        """Fire that comes down this turn without a call: map fire, and continuing fire."""
        out = []
        for side, b in support.batteries(state):
            st = support.peek(state, "batteries", b.id)
            if st.get("fired") == state.turn or not _can_fire(state, b):
                continue
            o = st.get("order")
            if b.on_board and (not o or onboard_fire.refused(state, b, (o["x"], o["y"]))):
                continue  # the platoon cannot fire as a whole this turn (p36, P325)
            planned = _map_target(b, state.turn)
            if planned is not None and not st.get("ceased"):
                x, y, ammo = planned
                out.append((side, b, (x, y), f"map fire for turn {state.turn} (p37)", ammo))
            elif _continuing(state, b):
                o = st["order"]
                out.append((side, b, (o["x"], o["y"]), "keeps firing on its POA (p36)",
                            o.get("ammo", "he")))  # fmt: skip
        return out

    def legal(self, state: State, side: str) -> list[dict[str, Any]]:
        out = []
        for b in _pending(state, side):
            o = support.peek(state, "batteries", b.id)["order"]
            for e in state.side_elements(side):
                if e.active and _observer_refused(state, b, e, (o["x"], o["y"])) is None:
                    out.append({"type": "call_down", "battery": b.id, "observer": e.id})
        return out + mortar_sights.legal(state, side) + counter_battery.legal(state, side)

    def resolve(self, state: State, side: str, cmd: dict, rng: random.Random) -> list[Draft]:
        if cmd["type"] == "mortar_fire":
            return mortar_sights.resolve(state, side, cmd, rng)
        if cmd["type"] == "counter_battery":
            return counter_battery.resolve(state, side, cmd, rng)
        b = support.battery(state, side, cmd.get("battery"))
        o = support.peek(state, "batteries", b.id).get("order")
        if b.on_board and o and not o["landed"]:
            why = onboard_fire.refused(state, b, (o["x"], o["y"]))
            if why:
                raise IllegalCommand(why, "battery")
        if b not in _pending(state, side):
            raise IllegalCommand(
                f"battery {b.id} has no written POA waiting to be called down this turn (p36)",
                "battery",
            )
        o = support.peek(state, "batteries", b.id)["order"]
        xy = (o["x"], o["y"])
        e = turn.own(state, side, cmd.get("observer"), "observer")
        why = _observer_refused(state, b, e, xy)
        if why:
            raise IllegalCommand(why, "observer")
        last = support.peek(state, "batteries", b.id).get("last")
        c = indirect.CallDown(_caller(state, b, e), support.skill(state, side, b),  # type: ignore[arg-type]
                              last is not None and math.dist(last, xy) <= NEAR)  # fmt: skip
        res = sample(indirect.call_down, state.rules, c, rng=rng)
        lines = tuple(res.lines())
        data = {"battery": b.id, "observer": e.id, "result": res.result.name}
        drafts = [Draft("call_down", data, (side,), lines)]
        if res.result.name == "arrives":
            drafts += _barrage(state, side, b, xy, f"called down by {e.name}", o.get("ammo", "he"))
        return drafts

    def automatic(self, state: State, rng: random.Random) -> list[Draft]:
        for side, b, xy, why, ammo in self._due(state):
            return _barrage(state, side, b, xy, why, ammo)
        return []


# ----------------------------------------------------------------------------- phase H
class Lands:
    """Phase H: the beaten zones of the turn roll against what they caught."""

    COMMANDS: dict[str, Any] = {}
    FOLDS = {"bz_results": _landed, "bz_results_seen": _noted,
             "mortar_unseen": mortar_sights.FOLDS["mortar_unseen"]}  # fmt: skip

    def note(self, state: State) -> str | None:
        if support.batteries(state) or any(mortar_sights.teams(state, s) for s in state.sides):
            return None
        return "phase H: no indirect fire this turn"

    def actors(self, state: State) -> list[str]:
        return []

    def legal(self, state: State, side: str) -> list[dict[str, Any]]:
        return []

    def resolve(self, state: State, side: str, cmd: dict, rng: random.Random) -> list[Draft]:
        raise IllegalCommand("phase H takes no commands: indirect fire lands by itself", "type")

    def automatic(self, state: State, rng: random.Random) -> list[Draft]:
        if state.phase_data.get("landed"):
            return []
        zones = sorted((m for m in state.markers.values() if m.kind == "bz"
                        and m.data.get("turn") == state.turn
                        and m.data.get("ammo", "he") != "smoke"), key=lambda m: m.id)  # fmt: skip
        drafts, zones = mortar_sights.still_seen(state, zones)
        if drafts or not zones:
            return drafts  # the notices fold first; the next call rolls what is left
        results, lines = [], {}
        for m in zones:  # one roll per zone covering an element (p36); smoke rolls none (p37)
            for e, partial, at in support.caught(state, support.circle((m.x, m.y), m.radius)):
                for t, riding in [(e, False), *((r, True) for r in support.riders(state, e))]:
                    bt = indirect.BZTarget(
                        support.kind(state, t), m.data["calibre"], m.data["pairs"],  # type: ignore[arg-type]
                        m.data["mortar"], m.data["turns"] == 1, partial,
                        "none" if riding else support.protection(state, t),  # type: ignore[arg-type]
                        m.data["rocket"], m.data["heavy_rocket"], m.data.get("ammo") == "wp",
                    )  # fmt: skip
                    res = sample(indirect.bz_hit, state.rules, bt, rng=rng)
                    results.append({"target": t.id, "result": res.result.name, "at": at})
                    lines[t.id] = lines.get(t.id, ()) + (f"{t.name} ({m.id}):", *res.lines())
        return support.landing(state, "bz_results", results, lines, {})


CALLS = Calls()
LANDS = Lands()
