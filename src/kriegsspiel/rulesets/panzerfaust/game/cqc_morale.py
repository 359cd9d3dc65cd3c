"""Morale after close combat, both sides judged at once (p19; decisions P335-P337).

In close combat a Retreat result means surrender (p19; p24: an enemy within 20 cm), but when
both sides would surrender the book reduces the result to disengaging. The tests come one by
one (morale_tests.py, p23), so a base of this phase's combats that a Retreat would make
surrender is held (morale_tests.HELD) until every test the close combat brought on is taken:
the platoons' and the company HQs' cascading from them (P336). Then, combat by combat:

- a held base surrenders if an enemy of its combat still stands (on the table, not under a
  Retreat result): someone is there to take it prisoner;
- otherwise, when an enemy of its combat is held as well, both sides broke: its Retreat is
  reduced to disengaging. A base on foot steps straight back out of contact as a disengaging
  base does (disengage.py, P309); a passenger or an open AFV's crew fights from its vehicle
  and holds where it is, the infantry opposite stepping away (P337). The Retreat counter
  comes off; with option `cqc_double_retreat=shaken` (default) the base is Shaken for 1D6
  turns (p24, one roll a platoon), with `steady` nothing more (P335). A platoon none of whose
  bases still retreats takes that status instead of Retreat.

Each side is told of its own bases, with the reason and the page; the umpire sees both.
"""

from __future__ import annotations

import random
from typing import Any

from ....chance import sample
from ....engine.events import Draft, Event
from . import disengage, melee_groups, morale_tests
from .morale_tests import FIGHTS, HELD
from .state import Element, State


def record(state: State, sides: list) -> None:
    """Fold helper (melee.py): a combat fought this phase, as [[side, ids], [side, ids]]."""
    state.phase_data.setdefault(FIGHTS, []).append([[s, list(m)] for s, m in sides])


def _stands(e: Element) -> bool:
    """An enemy that stands after the tests: on the table and not breaking (p19, P336)."""
    return e.active and not e.has("retreat")


WHY = {
    "disengage": "{} broke in close combat, and so did the enemy it fought: neither side "
    "surrenders, the Retreat is reduced to disengaging (p19, P336)",
    "taken": "{} surrenders: it broke in close combat and an enemy of its combat still "
    "stands (p19, p24)",
    "near": "{} surrenders: it broke, the enemy it fought in close combat is gone, and an "
    "enemy it observes is within 20 cm (p24)",
}


def verdicts(state: State) -> dict[str, str]:
    """Each held base -> `disengage` when no enemy of its combat stands and one of them is
    held too (p19, P336); else it surrenders: `taken` when an enemy of its combat stands,
    `near` when they are gone and another enemy within 20 cm made it surrender (p24)."""
    held = morale_tests.held(state)
    out: dict[str, str] = {}
    for sides in state.phase_data.get(FIGHTS, ()):
        for side, mine in sides:
            enemies = [j for s, m in sides if s != side for j in m]
            both = any(j in held for j in enemies)
            standing = any(_stands(state.elements[j]) for j in enemies)
            verdict = "taken" if standing else "disengage" if both else "near"
            for i in mine:
                if i in held:
                    out.setdefault(i, verdict)
    for i in held:  # (a held base is always in a combat; this is only a guard)
        out.setdefault(i, "near")
    return out


def _enemies(state: State, uid: str) -> list[Element]:
    """The enemies of the combat `uid` fought this phase, those still on the table."""
    for sides in state.phase_data.get(FIGHTS, ()):
        for side, mine in sides:
            if uid in mine:
                return [state.elements[j] for s, m in sides if s != side for j in m
                        if state.elements[j].active]  # fmt: skip
    return []


def _on_foot(e: Element) -> bool:
    """Whether `e` can step back itself: infantry on foot (P309); a passenger or an open AFV's
    crew fights from its vehicle (P337)."""
    return e.kind == "infantry" and e.transport is None


def _step(state: State, e: Element) -> tuple[list, list[str]]:
    """Where a disengaging base stands after the reduction, and the log lines (p19, P336)."""
    why = WHY["disengage"].format(e.name)
    if not melee_groups.foes(state, e):  # it stepped back already (a disengage order, P309)
        return [e.id, e.x, e.y], [why]
    if not _on_foot(e):
        held = (f"{e.name} fights from its vehicle and holds where it is; the enemy on foot "
                "steps away (P337)")  # fmt: skip
        return [e.id, e.x, e.y], [why, held]
    move, line = disengage.step_out(state, e, _enemies(state, e.id))
    return move, [why, line]


def _after(state: State, pid: str, judged: set[str]) -> str:
    """A platoon's status once its bases in `judged` have disengaged or surrendered: unchanged
    while another of its bases still retreats, else the reduced result (P335)."""
    p = state.platoons[pid]
    still = any(
        m.active and m.has("retreat") and m.id not in judged
        for m in (state.elements[x] for x in p.members)
    )
    if still:
        return p.status
    return "shaken" if state.rules.opts.cqc_double_retreat == "shaken" else "ok"


def _platoons(
    state: State, side: str, verdict: dict[str, str], rng: random.Random
) -> tuple[list[list], list[str]]:
    """[[platoon, status, shaken turns]] for the side's platoons whose bases disengage, and
    the log lines: the Shaken turns rolled once a platoon (p24, P335)."""
    rows, lines = [], []
    pids = sorted({state.elements[i].platoon for i, v in verdict.items()
                   if v == "disengage" and state.elements[i].side == side})  # fmt: skip
    for pid in pids:
        p = state.platoons[pid]
        turns = 0
        if state.rules.opts.cqc_double_retreat == "shaken":
            res = sample(morale_tests.shaken_turns, p.morale, rng=rng)
            turns = int(res.result.name.split("_")[1])
            lines += [f"{p.name}: its disengaging bases are Shaken (P335)", *res.lines()]
        status = _after(state, pid, set(verdict))
        if status != p.status:
            lines.append(f"{p.name} is {status} now, no longer retreating (P335)")
        rows.append([pid, status, turns])
    return rows, lines


def automatic(state: State, rng: random.Random) -> list[Draft]:
    """Once every morale test of the close combat is taken (morale_tests.pending is then
    only the held bases), each side's bases are judged: one event a side."""
    if not morale_tests.held(state) or morale_tests.testing(state):
        return []
    verdict = verdicts(state)
    out = []
    for side in state.sides:
        mine = [i for i in verdict if state.elements[i].side == side]
        if not mine:
            continue
        lines: list[str] = []
        steps, gone = [], []
        for i in mine:
            e = state.elements[i]
            if verdict[i] != "disengage":
                gone.append(i)
                lines.append(WHY[verdict[i]].format(e.name))
            else:
                move, more = _step(state, e)
                steps.append(move)
                lines += more
        rows, more = _platoons(state, side, verdict, rng)
        data: dict[str, Any] = {"surrendered": gone, "disengaged": steps, "platoons": rows}
        out.append(Draft("cqc_morale", data, (side,), (*lines, *more)))
    return out


def _fold(state: State, d: dict, e: Event) -> None:
    done = set(d["surrendered"]) | {m[0] for m in d["disengaged"]}
    held = state.phase_data.get(HELD, [])
    held[:] = [i for i in held if i not in done]
    for i in d["surrendered"]:
        state.elements[i].lost = True  # taken prisoner: lost as casualties (p24)
    turns = {pid: n for pid, _, n in d["platoons"]}
    for uid, *_ in d["disengaged"]:
        el = state.elements[uid]
        el.counters.pop("retreat", None)
        if turns.get(el.platoon):
            el.counters["shaken"] = max(el.counters.get("shaken", 0), turns[el.platoon])
    disengage.step_back(state, d["disengaged"])
    for pid, status, _ in d["platoons"]:
        state.platoons[pid].status = status


FOLDS = {"cqc_morale": _fold}
