"""Counter-battery fire and listening posts (p37, p38), in phase E.

A side with a listening post (`listening_post: true` in its forces block: an off-table unit,
60 PV) watches the enemy's batteries fire: every turn an enemy gun or rocket battery fires
(its fire lands on the table, or it fires counter-battery), the post counts it; every turn
after that it stays silent counts against. Mortars are never located (p37: not subject to CBF).
The side learns no more than the post gives: an alias per located battery (`x-...`, not its
name), the turns it was seen firing and the turns it has been silent (decision P269).

A battery assigned to counter-battery fire before the game (`counter_battery: true`; medium or
heavy guns only, not mortars or rockets, p37) fires in phase E at a located battery: the rules
core's roll (rules/indirect.counter_battery: 2D6 <= 2, +1 per turn seen firing, +3 for rockets,
-1 per silent turn, -2 for mobile rockets, p37-38), then 1D6 per firing pair against the
calibre's damage number (P268); each success puts one enemy pair out of action for the game.
The firing side is told its dice; the shelled side only what it lost (P269). A CBF battery
fires no normal missions until it is reassigned: a secret written order in phase A
(`reassign_battery`) ends its CBF at once, and it takes normal fire missions five turns later
(p37's five-move delay, decision P313)."""

from __future__ import annotations

import random
from typing import Any, Literal

from ....chance import sample
from ....engine.command_schema import CommandModel, Ident
from ....engine.commands import IllegalCommand
from ....engine.events import Draft, Event
from ..forces import Battery
from ..rules import indirect
from . import support
from .state import State

PIECE = "battery:"  # a battery's alias key (never an element's)
DELAY = 5  # turns from a CBF battery's reassignment to its first normal mission (p37)
MOBILE = ("pzw42", "r-vfw", "rocket-m-8", "rocket-m-13", "rocket-m-31", "t34", "m17")  # p38


class CounterBatteryFire(CommandModel):
    """Phase E: CBF battery `battery` fires at the located enemy battery `target` (p37)."""

    type: Literal["counter_battery"]
    battery: Ident
    target: Ident


# ----------------------------------------------------------------------------- the post
def has_post(state: State, side: str) -> bool:
    return bool(getattr(state.scenario.forces_of(side), "listening_post", False))


def fired(state: State, st: dict[str, Any]) -> None:
    """Fold: a battery fired this turn (what a listening post observes, p37)."""
    st["fired"] = state.turn
    turns = st.setdefault("fired_turns", [])
    if state.turn not in turns:
        turns.append(state.turn)


def mobile(state: State, b: Battery) -> bool:
    """A mobile (vehicle-mounted) rocket launcher: -2 per silent turn (p38)."""
    return support.is_rocket(state, b) and any(k in support.record(state, b).id for k in MOBILE)


def observed(state: State, b: Battery) -> tuple[int, int]:
    """(turns seen firing, turns silent since it first fired, up to last turn) (p37)."""
    turns = support.peek(state, "batteries", b.id).get("fired_turns", [])
    if not turns:
        return 0, 0
    silent = sum(1 for t in range(min(turns), state.turn) if t not in turns)
    return len(turns), silent


def alias(state: State, side: str, b: Battery) -> str:
    return state.aliases.alias(side, PIECE + b.id)


def located(state: State, side: str) -> list[tuple[str, Battery, int, int]]:
    """(alias, battery, seen, silent) of each enemy battery the side's post has seen fire."""
    if not has_post(state, side):
        return []
    out = []
    for _, b in support.batteries(state, state.enemy(side)):
        if support.is_mortar(state, b) and not support.is_rocket(state, b):
            continue  # mortars cannot be subject to CBF (p37)
        seen, silent = observed(state, b)
        if seen:
            out.append((alias(state, side, b), b, seen, silent))
    return out


def report(state: State, side: str) -> dict[str, Any] | None:
    """The listening post's report for the side's sheet (None: it has no post)."""
    if not has_post(state, side):
        return None
    return {
        "located": [{"target": a, "seen": n, "silent": s} for a, _, n, s in located(state, side)]
    }


# ----------------------------------------------------------------------------- assignment
def reassigned(state: State, b: Battery) -> int | None:
    """The turn a CBF battery was reassigned to normal fire (P313), or None."""
    return support.peek(state, "batteries", b.id).get("reassigned")


def assigned(state: State, b: Battery) -> bool:
    """Whether battery `b` fires counter-battery fire now (p37): assigned before the game and
    not reassigned since."""
    return b.counter_battery and reassigned(state, b) is None


def mission_refused(state: State, b: Battery) -> str | None:
    """Why a CBF battery may not take a normal fire mission now (p37, P313), or None."""
    if not b.counter_battery:
        return None
    turn = reassigned(state, b)
    if turn is None:
        return (f"battery {b.id} was assigned to counter-battery fire before the game (p37); "
                f"write `reassign_battery` to turn it to normal fire, {DELAY} turns later")  # fmt: skip
    if state.turn < turn + DELAY:
        return (f"battery {b.id} was reassigned from counter-battery fire in turn {turn}: "
                f"normal fire from turn {turn + DELAY} (p37: a five-move delay)")  # fmt: skip
    return None


def reassign_refused(state: State, b: Battery) -> str | None:
    """Why battery `b` cannot be reassigned from CBF to normal fire (p37), or None."""
    if not b.counter_battery:
        return (f"battery {b.id} is not a counter-battery battery; batteries are assigned to "
                "counter-battery fire only before the game (p37)")  # fmt: skip
    if reassigned(state, b) is not None:
        return f"battery {b.id} was reassigned to normal fire in turn {reassigned(state, b)}"
    return None


# ----------------------------------------------------------------------------- set-up
def check(state: State) -> None:
    """Only medium and heavy guns are assigned to CBF, before the game (p37)."""
    for side, b in support.batteries(state):
        if not b.counter_battery:
            continue
        where = f"forces.{side}.batteries {b.id}"
        kind = support.record(state, b).battery_kind
        if kind != "gun":
            raise ValueError(f"{where}: {kind}s cannot fire counter-battery fire (p37-38)")
        if b.calibre_mm <= indirect.LIGHT_MAX_MM:
            raise ValueError(
                f"{where}: only medium and heavy guns fire counter-battery fire (p37); "
                f"{b.calibre_mm:g} mm is light (p35)"
            )
        if b.plan:
            raise ValueError(f"{where}: a counter-battery battery fires no map fire (p37)")


# ----------------------------------------------------------------------------- phase E
def refused(state: State, side: str, b: Battery) -> str | None:
    """Why battery `b` cannot fire counter-battery fire now, or None."""
    if not b.counter_battery:
        return f"battery {b.id} was not assigned to counter-battery fire before the game (p37)"
    if not assigned(state, b):
        return (f"battery {b.id} was reassigned to normal fire in turn {reassigned(state, b)} "
                "(p37): it fires no more counter-battery fire")  # fmt: skip
    if not has_post(state, side):
        return "you have no listening post to locate enemy batteries (p37)"
    st = support.peek(state, "batteries", b.id)
    if st.get("silenced"):
        return f"battery {b.id} is out of action"
    if support.missions_left(state, b) == 0:
        return f"battery {b.id} has fired all its {b.missions} missions"
    if st.get("fired") == state.turn:
        return f"battery {b.id} has fired this turn"
    return None


def ready(state: State, side: str) -> bool:
    return bool(legal(state, side))


def legal(state: State, side: str) -> list[dict[str, Any]]:
    targets = located(state, side)
    if not targets:
        return []
    return [
        {"type": "counter_battery", "battery": b.id, "target": a}
        for _, b in support.batteries(state, side)
        if refused(state, side, b) is None
        for a, *_ in targets
    ]


def resolve(state: State, side: str, cmd: dict[str, Any], rng: random.Random) -> list[Draft]:
    b = support.battery(state, side, cmd.get("battery"))
    why = refused(state, side, b)
    if why:
        raise IllegalCommand(why, "battery")
    hit = next((t for t in located(state, side) if t[0] == cmd.get("target")), None)
    if hit is None:
        raise IllegalCommand(
            f"{cmd.get('target')!r} is not an enemy battery your listening post has located (p37)",
            "target",
        )
    name, tb, seen, silent = hit
    c = indirect.CounterBattery(
        moves_seen=seen, moves_silent=silent, rocket=support.is_rocket(state, tb),
        mobile_rocket=mobile(state, tb), pairs=support.pairs(state, b),
        calibre_threshold=indirect.cbf_threshold(b.calibre_mm),
    )  # fmt: skip
    res = sample(indirect.counter_battery, state.rules, c, rng=rng)
    hits = int(res.result.name.split("_")[1])
    lost = min(hits, support.pairs(state, tb))
    lines = (
        f"{b.id} fires counter-battery at {name}: seen firing {seen} turn(s), silent {silent} "
        f"(p37); {c.pairs} pair(s) of {b.calibre_mm:g} mm need {c.calibre_threshold}+ (P268)",
        *res.lines(),
        f"{hits} enemy pair(s) put out of action (p37)",
    )
    drafts = [
        Draft("cbf", {"battery": b.id, "target": name, "hits": hits}, (side,), lines),
        Draft("cbf_result", {"target": tb.id, "lost": lost}, ()),
    ]
    if lost:
        left = support.pairs(state, tb) - lost
        note = (f"counter-battery fire puts {lost} pair(s) of battery {tb.id} out of action "
                f"for the game; {left} left (p37)")  # fmt: skip
        drafts.append(Draft("cbf_hit", {"battery": tb.id, "lost": lost, "left": left},
                            (state.enemy(side),), (note,)))  # fmt: skip
    return drafts


# ----------------------------------------------------------------------------- folds
def _fold_cbf(state: State, d: dict, e: Event) -> None:
    st = support.status(state, "batteries", d["battery"])
    fired(state, st)
    st["missions"] = st.get("missions", 0) + 1


def _fold_result(state: State, d: dict, e: Event) -> None:
    st = support.status(state, "batteries", d["target"])
    st["lost_pairs"] = st.get("lost_pairs", 0) + d["lost"]
    b = next(b for _, b in support.batteries(state) if b.id == d["target"])
    if st["lost_pairs"] >= b.count:
        st["silenced"] = True


def _noted(state: State, d: dict, e: Event) -> None:
    pass


COMMANDS = {"counter_battery": CounterBatteryFire}
FOLDS = {"cbf": _fold_cbf, "cbf_result": _fold_result, "cbf_hit": _noted}
