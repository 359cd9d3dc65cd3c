"""A mortar carrier's mortar taken off the vehicle and set up on the ground, and loaded again
(decisions P327, P346-P348).

The vehicle notes let the 81 mm mortar of the Sd.Kfz. 250/7 and 251/2 (p63) and of the US
M4A1 & M21 carriers (p92), and the British Carrier 2in Mortar's (p49), be fired from the
vehicle or set up on the ground; the Indian Pattern 3in carrier's stays aboard (p49). In
phase F, each a single order of 1 pip (+1 out of command radius, p7) for the carrier:

- `debark_mortar {unit: carrier}`: the crew carries its mortar down 4 cm to the right of a
  carrier that has not moved this turn (beside it, so that the vehicle does not screen the
  team's view ahead) and is there at once a mortar team of the carrier's platoon (the
  battery row of its nation and calibre, the kind of piece P129 makes of a bought mortar;
  P347). Getting off takes half a move and setting the mortar up the p12 time of its class
  (light 1, medium 2, heavy 4 moves, +1 for a conscript crew; option `debarked_mortar_class`,
  P346); the work ends with the movement of its last turn (as a gun's, P275), and from the next
  phase E the team fires as any mortar team on the table (mortar_sights.py, onboard_fire.py).
  The carrier stays put in the turn of the order; while its mortar is off it is a carrier only
  and fires no mortar (P327); the British carrier does not move either until its team is back
  aboard (p49).
- `embark_mortar {unit: carrier}`: the team, set up within 5 cm of a carrier that has not
  moved this turn and in no melee its side knows of (P309), packs up (the same set-up time) and
  climbs aboard (half a move, p12); the carrier stays put until then. Aboard, the team rides as
  the carrier's passenger (lost with it), and the carrier lays its mortar again by standing
  still a whole turn (p63, p92; P326, P348).
- A team riding its carrier when the carrier's crew is lost (close combat, P308; small arms,
  P344) gets down beside the wreck with its mortar, not set up (`dropped`). `set_up_mortar
  {unit: team}`, a single order of 1 pip (+1 out of command radius) for a team that has not
  moved this turn and is in no melee its side knows of, sets it up where it stands in the p12
  set-up time of its class (+1 move for conscripts; option `dropped_mortar_time=debark` adds
  the half move of getting off), done with the movement of the last turn as a debark (P351).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, NamedTuple

from ....engine.commands import IllegalCommand
from ....engine.events import Event
from . import disengage, mortar_sights, riders
from .build import observation_size, record
from .state import KINDS, Element, State

REACH = riders.REACH  # cm between the team and its carrier's centre to load the mortar (P348)
BESIDE = riders.BEHIND  # cm to the carrier's right where the team sets up (P347)
SETUP = {"light": 1, "medium": 2, "heavy": 4}  # p12: moves to set a mortar up, by class
CLASS_BY_CREW = {1: "light", 2: "medium", 3: "heavy"}  # p12 crews (teams) of each class
GET_OFF = Fraction(1, 2)  # p12: getting off or on a transport costs half a move
CONSCRIPT = 1  # p12: one move more for a conscript crew


class Mount(NamedTuple):
    """What a carrier's notes say of its mortar off the vehicle."""

    page: int
    team: str | None  # the battery row its ground team is (None: never dismounted)
    tied: bool = False  # the carrier neither moves nor fires while the team is off it


CARRIERS = {
    "germany/sdkfz-250-7": Mount(63, "germany/81mm-mortar"),
    "germany/sdkfz-251-2": Mount(63, "germany/81mm-mortar"),
    "usa_europe/m4a1-m21-mtr-carrier": Mount(92, "usa_europe/81mm-mortar"),
    "britain/carrier-2in-mortar": Mount(49, "britain/50mm-mortar", tied=True),
    "britain/ip-carrier-3in-mortar": Mount(49, None),
}


# ----------------------------------------------------------------------------- queries
def mount(state: State, v: Element) -> dict[str, Any] | None:
    """The record of carrier `v`'s mortar once it has been off the vehicle, or None."""
    return state.offtable.get(mortar_sights.MOUNTS, {}).get(v.id)


def mortar_class(state: State, mm: float) -> tuple[str, str]:
    """(p12 class, why) of a mortar of `mm` set up on the ground (option
    `debarked_mortar_class`, P346): by its p35 crew (1 team light, 2 medium, 3 heavy, as the
    p12 crews), or by calibre (to 60 mm light, to 120 mm medium, above heavy)."""
    if state.rules.opts.debarked_mortar_class == "calibre":
        cls = "light" if mm <= 60 else "medium" if mm <= 120 else "heavy"
        return cls, (f"a {mm:g} mm mortar is a {cls} mortar by its calibre (option "
                     "debarked_mortar_class=calibre, P346)")  # fmt: skip
    teams, _ = state.rules.cell("mortars-table", mortar_sights.table_row(mm), "crew_teams", 3)
    cls = CLASS_BY_CREW.get(int(teams), "heavy")
    return cls, (f"the p35 table crews a {mm:g} mm mortar with {teams} team(s), as p12 crews a "
                 f"{cls} mortar (P346)")  # fmt: skip


def work_moves(
    state: State, mm: float, troop_class: str, off: bool = True
) -> tuple[Fraction, list[str]]:
    """(moves, explanation) to get a mortar off its carrier and set it up, or to pack it up and
    load it (p12: the set-up time of its class, half a move on or off, +1 for conscripts);
    `off` False: the set-up alone, the team already on the ground (P351)."""
    cls, why = mortar_class(state, mm)
    moves = SETUP[cls] + (GET_OFF if off else 0)
    lines = [why, f"{SETUP[cls]} move(s) to set up or pack up a {cls} mortar and half a move to "
                  "get off or on the vehicle (p12)" if off else
                  f"{SETUP[cls]} move(s) to set up a {cls} mortar (p12); the team is already "
                  "off the vehicle (P351)"]  # fmt: skip
    if troop_class == "conscript":
        moves += CONSCRIPT
        lines.append("one move more: a conscript crew (p12)")
    return moves, lines


def why_not_carrier(state: State, v: Element) -> str | None:
    """Why `v` has no mortar that its crew may set up on the ground (notes p49, p63, p92)."""
    spec = CARRIERS.get(v.type)
    if spec is None:
        if mortar_sights.carries_mortar(state, v):
            return f"{v.name}'s notes do not say its mortar is set up off the vehicle (P346)"
        return f"{v.name} is not a mortar carrier: its chart mounts no mortar (p36)"
    if spec.team is None:
        return (
            f"{v.name}'s mortar cannot be dismounted: it fires from the vehicle only (p{spec.page})"
        )
    return None


def _lost(state: State, v: Element, m: dict[str, Any]) -> str | None:
    team = state.elements[m["team"]]
    return f"{v.name}'s mortar was lost with its crew, {team.name} (P347)" if team.lost else None


def _still(v: Element) -> str | None:
    """Why the crew of carrier `v` may not handle the mortar now (p17, p24, p31)."""
    if v.has("retreat"):
        return f"{v.name} is retreating: its move is compulsory (p24)"
    if v.has("stunned"):
        return f"{v.name}'s crew is stunned this turn (p31)"
    if "cf" in v.counters:
        return f"{v.name} is giving covering fire and may do nothing else (p17)"
    return None


def why_no_debark(state: State, v: Element) -> str | None:
    """Why carrier `v`'s crew may not get its mortar down now, or None (P346)."""
    why = why_not_carrier(state, v)
    if why:
        return why
    m = mount(state, v)
    if m is not None and m["ashore"]:
        team = state.elements[m["team"]]
        return _lost(state, v, m) or f"{v.name}'s mortar is already off the vehicle: {team.name}"
    if v.moved > 0:
        return (f"{v.name} has moved this turn: its crew gets the mortar down only from a "
                "vehicle standing still (p12, p63; P346)")  # fmt: skip
    return _still(v)


def why_no_embark(state: State, v: Element) -> str | None:
    """Why carrier `v`'s mortar team may not pack up and load the mortar now, or None (P348)."""
    why = why_not_carrier(state, v)
    if why:
        return why
    m = mount(state, v)
    if m is None or not m["ashore"]:
        return f"{v.name}'s mortar is aboard: there is nothing to load (P348)"
    lost = _lost(state, v, m)
    if lost:
        return lost
    if not v.active:
        return f"{v.name} is lost: there is no vehicle to load the mortar on"
    team = state.elements[m["team"]]
    if m.get("job"):
        return mortar_sights.unready(state, team)
    if v.moved > 0:
        return (f"{v.name} has moved this turn: the mortar is loaded on a vehicle standing "
                "still (p12; P348)")  # fmt: skip
    if not team.active:
        return f"{team.name} is not on the table"
    d = math.dist((team.x, team.y), (v.x, v.y))
    if d > REACH + 1e-9:
        return f"{team.name} is {d:.1f} cm from {v.name}: it loads only within {REACH:g} cm (P348)"
    return _still(v) or disengage.why_not_move(state, team)


def why_no_set_up(state: State, e: Element) -> str | None:
    """Why the mortar team `e` may not set up the mortar it got down with when its carrier was
    lost, or None (P351)."""
    vid = mortar_sights.carrier_of(state, e)
    if vid is None:
        return (f"{e.name} is not a carrier's mortar team: a carrier's mortar is set up with "
                "`debark_mortar {unit: carrier}` (P346)")  # fmt: skip
    m = state.offtable[mortar_sights.MOUNTS][vid]
    if not m.get("dropped"):
        if not m["ashore"]:
            return (f"{e.name} rides {vid} with its mortar: `debark_mortar {{unit: {vid}}}` "
                    "sets it up on the ground (P346)")  # fmt: skip
        return mortar_sights.unready(state, e) or f"{e.name}'s mortar is already set up"
    if not e.active:
        return f"{e.name} is not on the table"
    if e.moved > 0:
        return (f"{e.name} has moved this turn: a team sets its mortar up standing still "
                "(p12; P351)")  # fmt: skip
    return _still(e) or disengage.why_not_move(state, e)


def dropped(state: State, v: Element, team: Element) -> None:
    """Fold helper: the mortar team `team` got down alive when its carrier `v` was lost (its
    crew lost, P308, P344): on the ground with its mortar, not set up (P351)."""
    m = mount(state, v)
    if m is not None and m["team"] == team.id and not m["ashore"]:
        m["ashore"], m["job"], m["dropped"] = True, None, True


def why_not_move(state: State, e: Element) -> str | None:
    """Why carrier `e` may not be given a move while its mortar is off it (P346, P348; p49)."""
    m = mount(state, e)
    if m is None or not m["ashore"]:
        return None
    job = m.get("job")
    if job and job["kind"] == "embark":
        return f"{e.name} stays put while its mortar team loads the mortar (P348)"
    if job and job["turn"] == state.turn:
        return f"{e.name} stays put this turn while its crew gets the mortar down (P346)"
    spec = CARRIERS.get(e.type)
    if spec is not None and spec.tied and not state.elements[m["team"]].lost:
        return (f"{e.name} does not move while its mortar team is off it: `embark_mortar` "
                f"first (p{spec.page})")  # fmt: skip
    return None


def refuses_rider(state: State, e: Element) -> str | None:
    """A carrier's mortar team gets off and on only with its mortar (P347), not as a rider."""
    vid = mortar_sights.carrier_of(state, e)
    if vid is None:
        return None
    return (f"{e.name} is the crew of {vid}'s mortar: it gets off and on with its mortar "
            f"(`debark_mortar` / `embark_mortar` {{unit: {vid}}}; P347)")  # fmt: skip


# ----------------------------------------------------------------------------- orders
def beside(state: State, v: Element) -> tuple[float, float]:
    """Where the team sets its mortar up: `BESIDE` cm to the right of carrier `v`, on the
    table (P347)."""
    a = math.radians(v.facing + 90.0)
    x, y = v.x + BESIDE * math.sin(a), v.y + BESIDE * math.cos(a)
    t = state.scenario.table
    return min(max(x, 0.0), t.width), min(max(y, 0.0), t.depth)


def _team_id(state: State, v: Element) -> str:
    """The id of carrier `v`'s mortar team: its own if it has one, else a free new one."""
    m = mount(state, v)
    if m is not None:
        return m["team"]
    tid, n = f"{v.id}-mortar", 1
    while tid in state.elements:
        n += 1
        tid = f"{v.id}-mortar-{n}"
    return tid


def _set_up_plan(state: State, team: Element) -> tuple[str, dict[str, Any], list[str]]:
    """(event type, data, explanation) of `set_up_mortar` for a team its carrier's loss put
    down (P351): a debark's event, the team staying where it stands."""
    why = why_no_set_up(state, team)
    if why:
        raise IllegalCommand(why, "unit")
    vid = mortar_sights.carrier_of(state, team)
    assert vid is not None
    v = state.elements[vid]
    spec = CARRIERS[v.type]
    _, rec = record(state.rules, f"battery:{spec.team}")
    mm = mortar_sights.calibre(rec) or 0.0
    off = state.rules.opts.dropped_mortar_time == "debark"
    moves, lines = work_moves(state, mm, team.troop_class, off)
    done = state.turn + max(1, math.ceil(moves)) - 1
    data: dict[str, Any] = {"unit": vid, "team": team.id, "moves": str(moves), "done": done,
                            "x": team.x, "y": team.y, "facing": team.facing, "job": "set_up"}  # fmt: skip
    head = (f"{team.name} sets up the {mm:g} mm mortar it saved from {v.name} where it stands "
            "(P351)")  # fmt: skip
    if off:
        lines.append("option dropped_mortar_time=debark: half a move as if getting off (P351)")
    when = f"{moves} move(s): done at the end of turn {done}'s movement (p12; P346)"
    tail = f"{team.name} fires from turn {done + 1} (phase E comes before movement, p6)"
    return "mortar_debarked", data, [head, *lines, when, tail]


def plan(state: State, v: Element, kind: str) -> tuple[str, dict[str, Any], list[str]]:
    """(event type, data, explanation) of `debark_mortar` or `embark_mortar` for carrier `v`,
    or of `set_up_mortar` for the mortar team `v`, or IllegalCommand with the reason."""
    if kind == "set_up_mortar":
        return _set_up_plan(state, v)
    debark = kind == "debark_mortar"
    why = why_no_debark(state, v) if debark else why_no_embark(state, v)
    if why:
        raise IllegalCommand(why, "unit")
    spec = CARRIERS[v.type]
    _, rec = record(state.rules, f"battery:{spec.team}")
    mm = mortar_sights.calibre(rec) or 0.0
    moves, lines = work_moves(state, mm, v.troop_class)
    done = state.turn + max(1, math.ceil(moves)) - 1
    tid = _team_id(state, v)
    name = f"{v.name} mortar team"
    data: dict[str, Any] = {"unit": v.id, "team": tid, "moves": str(moves), "done": done}
    if debark:
        x, y = beside(state, v)
        data |= {"record": rec.id, "name": name, "x": x, "y": y}
        head = (f"{v.name}'s crew gets its {mm:g} mm mortar down beside the vehicle as {name} "
                f"(notes p{spec.page}: fired from the vehicle or on the ground; P347)")  # fmt: skip
        tail = [f"{name} fires from turn {done + 1} (phase E comes before movement, p6)",
                f"{v.name} stays put this turn and fires no mortar while it is off (P327)"]  # fmt: skip
        if spec.tied:
            tail.append(f"{v.name} does not move until the team is back aboard (p{spec.page})")
    else:
        head = f"{name} packs its mortar up and loads it on {v.name} (P348)"
        tail = [f"{v.name} stays put till then, and lays its mortar by standing still a whole "
                "turn more (p63, p92; P326)"]  # fmt: skip
    when = f"{moves} move(s): done at the end of turn {done}'s movement (p12; P346)"
    return ("mortar_debarked" if debark else "mortar_embarking"), data, [head, *lines, when, *tail]


def templates(state: State, members: list[Element]) -> list[dict[str, Any]]:
    """The mortar orders these elements (a platoon's, the company able to pay) may be given."""
    out = []
    for v in members:
        if v.active and mortar_sights.carrier_of(state, v) and why_no_set_up(state, v) is None:
            out.append({"type": "set_up_mortar", "unit": v.id})
        if v.type not in CARRIERS or not v.active:
            continue
        if why_no_debark(state, v) is None:
            out.append({"type": "debark_mortar", "unit": v.id})
        elif why_no_embark(state, v) is None:
            out.append({"type": "embark_mortar", "unit": v.id})
    return out


# ----------------------------------------------------------------------------- folds
def _raise_team(state: State, v: Element, d: dict[str, Any]) -> Element:
    """Carrier `v`'s mortar team, first off the vehicle: a piece of its platoon (P347)."""
    kind, rec = record(state.rules, f"battery:{d['record']}")
    team = Element(d["team"], v.side, rec.id, KINDS[kind], d["name"], v.company, v.platoon,
                   None, None, v.facing, None, observation_size(rec), v.troop_class, v.morale,
                   hidden=v.hidden)  # fmt: skip
    state.elements[team.id] = team
    state.records[team.id] = rec
    state.platoons[v.platoon].members.append(team.id)
    state.aliases.learn(state.enemy(v.side), [team.id])
    return team


def debarked(state: State, d: dict[str, Any], ev: Event) -> None:
    """Fold: the mortar team stands behind its carrier, setting up (P346)."""
    v = state.elements[d["unit"]]
    mounts = state.offtable.setdefault(mortar_sights.MOUNTS, {})
    if v.id not in mounts:
        mounts[v.id] = {"team": _raise_team(state, v, d).id}
    m = mounts[v.id]
    team = state.elements[m["team"]]
    if team.id in v.carrying:
        v.carrying.remove(team.id)
    team.transport = None
    team.x, team.y, team.facing = d["x"], d["y"], d.get("facing", v.facing)
    team.feature = state.board.feature(team.x, team.y)
    m.pop("dropped", None)  # set up where it stands after its carrier's loss (P351)
    job = d.get("job", "debark")
    m["ashore"], m["job"] = True, {"kind": job, "done": d["done"], "turn": state.turn}


def embarking(state: State, d: dict[str, Any], ev: Event) -> None:
    """Fold: the mortar team begins to pack up and load (P348)."""
    m = state.offtable[mortar_sights.MOUNTS][d["unit"]]
    m["job"] = {"kind": "embark", "done": d["done"], "turn": state.turn}


def complete(state: State) -> None:
    """Work done by this turn's movement takes effect (folded as phase G begins): a mortar set
    up is ready; a mortar packed up goes aboard if its carrier still stands within 5 cm (else
    the team stays set up where it is), and the carrier is laid again only after a whole turn
    standing still (P326, P348)."""
    for vid, m in state.offtable.get(mortar_sights.MOUNTS, {}).items():
        job = m.get("job")
        if not job or job["done"] > state.turn:
            continue
        m["job"] = None
        v, team = state.elements[vid], state.elements[m["team"]]
        if job["kind"] != "embark" or team.lost or not v.active:
            continue
        if math.dist((team.x, team.y), (v.x, v.y)) > REACH + 1e-9:
            continue
        team.transport, team.x, team.y = v.id, v.x, v.y
        v.carrying.append(team.id)
        m["ashore"] = False
        state.offtable.setdefault("carriers_still", {})[vid] = state.turn + 1


FOLDS = {"mortar_debarked": debarked, "mortar_embarking": embarking}
