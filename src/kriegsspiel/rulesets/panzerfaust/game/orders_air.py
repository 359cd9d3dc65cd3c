"""Phases C and I (p6, pp. 42-44): aircraft.

C: a strike due this turn is declared to its side; the enemy is warned one turn ahead of a
strike, learning only its approach and altitude (p42). Air-to-air combat has no rules in the
book (p43, decision P79): none is fought.
I: each striking aircraft's POA counter goes down where it attacks; the other side's elements
that did not fire in G, stand still and are not under a roof or in woods may fire AA at it (one
aircraft each, p43); the survivors attack: bombs in a circle, rockets and machine guns in a
15 x 40 cm strip along the approach (p43). A bomb or rocket hit works as indirect fire of the
equivalent calibre (p42-43, rules/indirect `hit_effect`); an MMG hit destroys infantry, guns and
softskins. Aircraft damage (p44): 1 attack and go home, 2 abort, 3 destroyed. Another pass
needs 3 turns to turn round."""

from __future__ import annotations

import math
import random
from typing import Any, Literal

from ....chance import Outcome, sample
from ....data.errors import RuleError
from ....engine.command_schema import CommandModel, Ident
from ....engine.commands import IllegalCommand
from ....engine.events import Draft, Event
from ..forces import Aircraft as Plane
from ..models import InfantryTeam
from ..rules import aa_fire, aircraft, indirect
from . import arms, orders_fire, support, towing, turn
from .state import Element, Marker, State

TURN_ROUND = 4  # p42: 3 moves after a pass before the next one
STRIP = (40.0, 15.0)  # p43: rockets' (and guns') zone, along x across, cm
GUN_PASSES = 3  # p43: gun ammunition lasts three attack runs
ROOF = ("building", "woods")  # overhead cover: no AA from there (p43)


class AAFire(CommandModel):
    """Phase I: `unit` fires AA at the aircraft `aircraft` (p43)."""

    type: Literal["aa_fire"]
    unit: Ident
    aircraft: Ident


# ----------------------------------------------------------------------------- strikes
def due(state: State, side: str, p: Plane, when: int) -> dict[str, Any] | None:
    s = support.next_strike(state, side, p)
    if s is None or s["arrives"] != when:
        return None
    return s if when >= support.peek(state, "aircraft", p.id).get("next", 0) else None


def _mmgs(state: State, p: Plane) -> int:
    rec = support.aircraft_record(state, p)
    return sum(max(m.count, 1) for m in rec.armament if (m.mg or "").upper() == "MMG")


def weapons_left(state: State, p: Plane) -> list[str]:
    st = support.peek(state, "aircraft", p.id)
    if st.get("passes", 0) >= p.sorties:
        return []  # its sorties are flown
    out = []
    if p.bomb_row and not st.get("bombs_used"):
        out.append("bombs")
    if p.rockets and not st.get("rockets_used"):
        out.append("rockets")
    if _mmgs(state, p) and st.get("gun_passes", 0) < GUN_PASSES:
        out.append("mmg")
    return out


def attack_weapon(state: State, p: Plane, prepared: bool) -> str | None:
    """Bombs first, then rockets, then guns (a prepared strike: bombs or rockets, p42)."""
    left = [w for w in weapons_left(state, p) if not (prepared and w == "mmg")]
    return left[0] if left else None


# ----------------------------------------------------------------------------- phase C
def _declared(state: State, d: dict, e: Event) -> None:
    state.phase_data["declared"] = True


class Incoming:
    """Phase C: strikes due this turn declared; the enemy warned of next turn's."""

    COMMANDS: dict[str, Any] = {}
    FOLDS = {"air_incoming": _declared, "air_warning": _declared}

    def note(self, state: State) -> str | None:
        if not support.planes(state):
            return "phase C: no aircraft in this scenario"
        return "phase C: no air-to-air combat (the book gives no rules, p43; decision P79)"

    def actors(self, state: State) -> list[str]:
        return []

    def legal(self, state: State, side: str) -> list[dict[str, Any]]:
        return []

    def resolve(self, state: State, side: str, cmd: dict, rng: random.Random) -> list[Draft]:
        raise IllegalCommand("phase C takes no commands", "type")

    def automatic(self, state: State, rng: random.Random) -> list[Draft]:
        if state.phase_data.get("declared"):
            return []
        out = []
        for side, p in support.planes(state):
            now = due(state, side, p, state.turn)
            if now is not None:
                out.append(Draft("air_incoming", {"aircraft": p.id, **now}, (side,)))
            soon = due(state, side, p, state.turn + 1)
            if soon is not None:
                warn = {"turn": state.turn + 1, "heading": soon["heading"],
                        "altitude": soon["altitude"]}  # fmt: skip
                out.append(Draft("air_warning", warn, (state.enemy(side),),
                                 ("enemy aircraft expected next turn (p42)",)))  # fmt: skip
        return out


# ----------------------------------------------------------------------------- phase I
def _strikes(state: State) -> list[list[Any]]:
    return state.phase_data.get("strikes", [])


def _aa_weapon(state: State, e: Element) -> tuple[str, int] | None:
    """(p43 AA row, barrels) an element fires AA with, or None (decision P175)."""
    rec = state.records[e.id]
    if isinstance(rec, InfantryTeam):
        w = (rec.weapon or "").casefold()
        row = "aa_hmg" if w == "hmg" else "aa_lmg_mmg" if w in ("lmg", "mmg", "bar") else None
        return (row, 1) if row else None
    gun = arms.main_gun(state, e)
    if gun is None or not gun.autocannon or gun.calibre_mm is None:
        return None
    cal = gun.calibre_mm
    row = "20mm_aa" if 20 <= cal <= 25 else "37_40mm_aa" if 37 <= cal <= 40 else None
    return (row, gun.barrels) if row else None


def _aa_refused(state: State, e: Element, strike: list[Any]) -> str | None:
    if e.fired or e.moved > 0:
        return f"{e.name} fired or moved this turn: no AA fire (p6 I, p43)"
    why = towing.why_no_fire(state, e)
    if why:
        return why
    if e.id in state.phase_data.get("aa", []):
        return f"{e.name} has already fired AA this turn (one target per move, p43)"
    f = e.feature
    if f and any(t.id == f and t.kind in ROOF for t in state.scenario.terrain):
        return f"{e.name} is under overhead cover (p43)"
    if _aa_weapon(state, e) is None:
        return f"{e.name} has no AA weapon (p43)"
    return None


def _aa_shot(state: State, e: Element, strike: list[Any]) -> aa_fire.AAShot:
    row, barrels = _aa_weapon(state, e)  # type: ignore[misc]
    side, pid, s = strike
    p = support.plane(state, side, pid)
    rec = support.aircraft_record(state, p)
    return aa_fire.AAShot(row, s["altitude"], barrels, rec.role == "dive_bomber", p.armoured,
                          math.dist((e.x, e.y), (s["x"], s["y"])))  # fmt: skip


def _aa_options(state: State, side: str) -> list[dict[str, Any]]:
    out = []
    for strike in _strikes(state):
        if strike[0] == side or strike[1] in state.phase_data.get("resolved", []):
            continue
        for e in state.side_elements(side):
            if not e.active or _aa_refused(state, e, strike):
                continue
            try:
                sample(aa_fire.aa_fire, state.rules, _aa_shot(state, e, strike), seed=0)
            except RuleError:
                continue  # out of range or altitude (p43)
            out.append({"type": "aa_fire", "unit": e.id, "aircraft": strike[1]})
    return out


def _enter_i(state: State) -> None:
    for k in [k for k, m in state.markers.items() if m.kind == "poa" and m.data.get("aircraft")]:
        del state.markers[k]
    strikes = []
    for side, p in support.planes(state):
        s = due(state, side, p, state.turn)
        if s is not None:
            strikes.append([side, p.id, s])
            state.markers[f"air-{p.id}"] = Marker(
                f"air-{p.id}", "poa", side, s["x"], s["y"], 0.0,
                {"aircraft": p.id, "heading": s["heading"], "altitude": s["altitude"]}, None,
            )  # fmt: skip
    state.phase_data["strikes"] = strikes


def _aa_fired(state: State, d: dict, e: Event) -> None:
    state.phase_data.setdefault("aa", []).append(d["unit"])


def _aa_hit(state: State, d: dict, e: Event) -> None:
    st = support.status(state, "aircraft", d["aircraft"])
    if d["result"] == "destroyed":
        st["damage"] = 3
    elif d["result"] == "damaged":
        st["damage"] = st.get("damage", 0) + 1
    if st.get("damage", 0) >= 3:
        st["gone"] = True


def _flown(state: State, d: dict, e: Event) -> None:
    st = support.status(state, "aircraft", d["aircraft"])
    strike = next(s for s in _strikes(state) if s[1] == d["aircraft"])[2]
    if strike["prepared"] is None:
        st.pop("strike", None)
    else:
        st.setdefault("flown", []).append(strike["prepared"])
    st["next"] = state.turn + TURN_ROUND
    st["passes"] = st.get("passes", 0) + (d.get("weapon") is not None)
    w = d.get("weapon")
    if w == "bombs":
        st["bombs_used"] = True
    elif w == "rockets":
        st["rockets_used"] = True
    elif w == "mmg":
        st["gun_passes"] = st.get("gun_passes", 0) + 1
    if st.get("damage", 0) >= 1:
        st["gone"] = True  # damaged: home after this run (p44)
    state.phase_data.setdefault("resolved", []).append(d["aircraft"])


def _attacked(state: State, d: dict, e: Event) -> None:
    orders_fire.land(state, d["results"])
    _flown(state, d, e)


def _noted(state: State, d: dict, e: Event) -> None:
    pass


def _air_hit(rules: Any, a: aircraft.AirAttack, t: indirect.BZTarget, mmg: bool):
    """One element under an air attack: the p43 hit roll, then the effect."""
    hit = yield from aircraft.air_attack(rules, a)
    if hit.name != "hit":
        return Outcome("missed")
    if mmg:
        if t.kind in ("afv", "open_afv"):
            return Outcome("no_effect")  # MMG penetration lost (p43): decision P176
        return Outcome("destroyed")
    return (yield from indirect.hit_effect(rules, t))


class Attacks:
    """Phase I: AA fire, then the attacks of the aircraft that got through."""

    COMMANDS = {"aa_fire": AAFire}
    FOLDS = {"aa_shot": _aa_fired, "aa_hit": _aa_hit, "air_aborted": _flown,
             "air_attack": _attacked, "air_attack_seen": _noted}  # fmt: skip

    def enter(self, state: State) -> None:
        _enter_i(state)

    def actors(self, state: State) -> list[str]:
        return [s for s in turn.waiting(state) if _aa_options(state, s)]

    def legal(self, state: State, side: str) -> list[dict[str, Any]]:
        return _aa_options(state, side)

    def resolve(self, state: State, side: str, cmd: dict, rng: random.Random) -> list[Draft]:
        e = turn.own(state, side, cmd.get("unit"))
        strike = next((s for s in _strikes(state) if s[1] == cmd.get("aircraft")), None)
        if strike is None or strike[0] == side:
            raise IllegalCommand(f"{cmd.get('aircraft')!r} is not an enemy aircraft attacking "
                                 "this turn", "aircraft")  # fmt: skip
        why = _aa_refused(state, e, strike)
        if why:
            raise IllegalCommand(why, "unit")
        try:
            res = sample(aa_fire.aa_fire, state.rules, _aa_shot(state, e, strike), rng=rng)
        except RuleError as err:
            raise IllegalCommand(str(err), "aircraft") from None
        lines = tuple(res.lines())
        data = {"aircraft": strike[1], "result": res.result.name}
        return [Draft("aa_shot", {"unit": e.id, **data}, (side,), lines),
                Draft("aa_hit", data, (strike[0],), lines)]  # fmt: skip

    def automatic(self, state: State, rng: random.Random) -> list[Draft]:
        if self.actors(state):
            return []
        todo = [s for s in _strikes(state) if s[1] not in state.phase_data.get("resolved", [])]
        if not todo:
            return []
        side, pid, s = todo[0]
        p = support.plane(state, side, pid)
        st = support.peek(state, "aircraft", pid)
        weapon = attack_weapon(state, p, s["prepared"] is not None)
        if st.get("damage", 0) >= 2 or weapon is None:
            why = "shot down" if st.get("damage", 0) >= 3 else "aborts the attack (p44)"
            return [Draft("air_aborted", {"aircraft": pid}, (side,), (f"{pid} {why}",))]
        return _attack(state, side, p, s, weapon, rng)


def _attack(state: State, side: str, p: Plane, s: dict[str, Any], weapon: str,
            rng: random.Random) -> list[Draft]:  # fmt: skip
    dive = support.aircraft_record(state, p).role == "dive_bomber"
    xy = (s["x"], s["y"])
    if weapon == "bombs":
        col = "bzr_dive_bomber_cm" if dive else "bzr_fighter_bomber_cm"
        r, _ = state.rules.cell("aircraft-bomb-table", str(p.bomb_row), col)
        cal, _ = state.rules.cell("aircraft-bomb-table", str(p.bomb_row), "equivalent_calibre")
        zone, calibre, kind = support.circle(xy, float(r)), float(str(cal)[:-2]), "bombs"
    else:
        zone = support.rectangle(xy, s["heading"], *STRIP)
        calibre = 105.0  # p43: rockets hit as a 105 mm gun
        kind = {"rockets": f"rockets_{p.rockets}", "mmg": "mmg"}[weapon]
    extra = max(_mmgs(state, p) - 1, 0) if weapon == "mmg" else 0
    results, lines = [], {}
    for e, partial, at in support.caught(state, zone):
        for t, riding in [(e, False), *((r, True) for r in support.riders(state, e))]:
            k = support.kind(state, t)
            prot = "none" if riding else support.protection(state, t)
            hard = not riding and state.board.cover(t.x, t.y) == "hard"
            cover = ("protected" if k in ("afv", "open_afv") or prot == "entrenched"
                     else "hard" if hard else "none")  # fmt: skip
            a = aircraft.AirAttack(kind, dive and kind == "bombs", s["altitude"] == "medium",  # type: ignore[arg-type]
                                   cover, partial, extra)  # type: ignore[arg-type]  # fmt: skip
            bt = indirect.BZTarget(k, calibre)  # type: ignore[arg-type]
            res = sample(_air_hit, state.rules, a, bt, weapon == "mmg", rng=rng)
            results.append({"target": t.id, "result": res.result.name, "at": at})
            lines[t.id] = (f"{t.name}:", *res.lines())
    data = {"aircraft": p.id, "side": side, "weapon": weapon}
    return support.landing(state, "air_attack", results, lines, data)


ATTACKS = Attacks()
INCOMING = Incoming()
