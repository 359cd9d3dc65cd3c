"""Towed guns in play (pp. 25-26, 33-35): limbering a gun to a towing vehicle, unlimbering it,
setting it up to fire while still limbered, towing it, and man-handling it.

- A gun limbers to a softskin of its side within 5 cm whose chart's tow class is at least the
  gun's size (p26: "Tow", p34); `limber {gun, tower}` and `unlimber {gun}` are single orders
  of phase F (1 pip, p7) that take the p33 size table's time: A 1/2 move, B 1, C 2, D 3. The
  tower stays put until the work is done (p33); it ends when the movement of its last turn
  does (the start of that turn's phase G), decision P275.
- While limbered, gun, crew and tower are one unit for movement (p33): the gun follows its
  tower, 4 cm behind it, and the tower moves at its cross-country speed times the p25 towing
  factor of its drive, unless its tow class is above the gun's size (p25 note). Either one
  destroyed while the gun is limbered takes the other with it (p33).
- A limbered gun does not fire, unless its gun notes let it fire limbered (option
  `limbered_fire`, P277): 1 move sets it up (`unlimber {gun, limbered_fire: true}`), 1 packs it
  up again (`limber`), the rest of its time unlimbers it fully (p34: the 88 FlaK, 1 + 2); no
  second-shot bonus while it fires limbered (p33). When a gun just set up may first fire:
  option `unlimbered_fire` (P276).
- Unlimbered, a size A gun is man-handled 5 cm a turn and a B gun 2.5 cm; C and D guns are not
  (p33); never through snow, mud, woods, rubble, thick treelines, brush, walls or hedges; a
  gun man-handled this turn does not fire (p33).
- En portee (p34, decision P315): a gun whose notes say it is carried and fired en portee
  loads onto a softskin of its side (`limber {gun, tower, portee: true}`) and unloads
  (`unlimber {gun}`) in its size's time plus one move; carried, it rides on the truck (one
  target: either destroyed takes the other), fires from it without set-up while the truck moved
  no more than half its move (p6), and never with the second-shot bonus (p34).
- A crew riding apart (p34, decision P316): a gun's crew may ride in another vehicle than the
  one towing the gun (`embark {gun, vehicle}`; a scenario's `crew_in`); until it gets down beside
  its gun (`dismount {gun}`) the gun neither sets up, is unlimbered, man-handled nor fired; the
  crew's vehicle destroyed with it aboard leaves the gun abandoned (lost).
- Horse teams (pp. 13, 25, 35, decision P317): the `common/horse-team` softskin draws any gun
  and is the only tower of a "Horse Drawn" gun; its p13 rates are taken as including the gun
  (option `horse_towing`); it is fired on as a softskin, a placeholder said in each result.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from ....data.errors import RuleError
from ....engine.commands import IllegalCommand
from ....geometry.footprint import in_arc
from ..models import Gun, Softskin
from ..rules import towed
from ..rules.bog import SOFTSKIN_DRIVE
from . import riders, wrecks
from .build import speeds
from .state import Element, State

SIZES = "ABCD"
REACH = riders.REACH  # cm between the gun and its tower's centre to limber (decision P275)
STEP = 0.5  # cm between the points of a man-handled path checked for terrain
# scenario terrain kinds a gun is not man-handled through (p33: woods, rubble, thick
# treelines, brush, walls, hedges; mud: a marsh)
NO_MANHANDLE = {
    "woods": "woods", "bocage": "a thick treeline", "brush": "brush", "low_brush": "brush",
    "wall": "a wall", "hedge": "a hedge", "ruins": "rubble", "marsh": "mud",
}  # fmt: skip
GROUND = {"mud": "mud", "snow": "snow"}  # p10 weather that lies on the ground all game
WORDS = {"limber": "limbering", "unlimber": "unlimbering", "set_up": "setting up to fire "
         "limbered", "pack_up": "packing up", "load": "loading en portee",
         "unload": "unloading from its portee truck"}  # fmt: skip
CREW_TEAMS = {"A": 1, "B": 2, "C": 3, "D": 4}  # p33: a gun's crew in teams by size


# ----------------------------------------------------------------------------- queries
def partner(state: State, e: Element) -> Element | None:
    """The live other half of a tow link: a gun's tower, a tower's gun."""
    other = e.tower if e.kind == "gun" else e.towing
    o = state.elements.get(other) if other else None
    return None if o is None or o.lost else o


def is_towed_gun(state: State, e: Element) -> bool:
    rec = state.records[e.id]
    return isinstance(rec, Gun) and rec.size in tuple(SIZES)


def fires_limbered(state: State, gun: Element) -> bool:
    """Whether this gun may be fired while limbered (p33, option `limbered_fire`, P277): as
    its gun notes say (`notes`), also every AA/automatic cannon (`aa`), or none."""
    rec = state.records[gun.id]
    mode = state.rules.opts.limbered_fire
    if mode == "none":
        return False
    return bool(rec.limbered_fire) or (mode == "aa" and rec.category == "aa_auto")


def moves_needed(state: State, gun: Element, kind: str) -> Fraction:
    """Moves a job takes (p33 size table; p34: 1 to set up or pack up limbered fire, the rest
    to unlimber fully). The +1 per 25 % of the crew lost never applies: a gun and its crew
    are one element, lost together (orders_fire.land)."""
    if kind in ("set_up", "pack_up"):
        return Fraction(1)
    full = towed.limber_moves(state.rules, gun.size)
    if kind in ("load", "unload"):
        return full + 1  # p34: an extra move to load or unload an en portee gun
    return full - 1 if kind == "unlimber" and gun.has("set_up") else full


def manhandle_rate(state: State, gun: Element) -> float | None:
    """cm a turn the crew man-handles this gun (p33), None for size C and D."""
    try:
        return towed.manhandle_cm(state.rules, gun.size)
    except RuleError:
        return None


def tow_factor(state: State, tower: Element) -> tuple[float, str | None]:
    """(multiplier of the tower's cross-country speed, its explanation) while it tows a
    limbered gun (p25 Vehicle Movement Restrictions, towing off-road; waived when the tower's
    tow class is above the gun's size, the p25 note, decision P278)."""
    gun = partner(state, tower)
    if gun is None or not gun.limbered or gun.portee:
        return 1.0, None  # a gun carried en portee is a load, not a tow (p34)
    rec = state.records[tower.id]
    if getattr(rec, "horse_team", False) and state.rules.opts.horse_towing == "rates":
        return 1.0, (f"{tower.name} draws {gun.name}: the p13 horse-team rates include the gun "
                     "(option horse_towing, P317)")  # fmt: skip
    tow = None if getattr(rec, "horse_team", False) else getattr(rec, "tow", None)
    if tow and SIZES.index(tow) > SIZES.index(gun.size):
        return (
            1.0,
            f"towing {gun.name}: no towing reduction, tow class {tow} above size {gun.size} (p25)",
        )
    drive = SOFTSKIN_DRIVE.get(getattr(rec, "drive", None) or "", "wheeled_4x2")
    value, _ = state.rules.cell("vehicle-movement-restrictions", "towing_off_road", drive)
    k = float(value) if isinstance(value, int | float) else 0.0
    return k, f"towing {gun.name} off-road: cross-country x{k:g} ({drive}, p25)"


def why_not_tower(state: State, gun: Element, v: Element) -> str | None:
    """Why `v` cannot tow `gun`, or None (p26 tow class, p34-35)."""
    rec = state.records[gun.id]
    vrec = state.records[v.id]
    if not isinstance(vrec, Softskin):
        return f"{v.name} has no tow class on its chart: only softskins tow guns (p26)"
    horses = vrec.horse_team
    if rec.horse_drawn_only and not horses:
        return f"{gun.name} is drawn only by a horse team (p35), not by {v.name}"
    tow = vrec.tow
    if tow is None:
        return f"{v.name} tows nothing (no tow class on its chart, p26)"
    if SIZES.index(tow) < SIZES.index(gun.size) and not undersized(state, gun, v):
        return f"{v.name} tows guns up to size {tow}; {gun.name} is size {gun.size} (p26, p34)"
    other = partner(state, v)
    if other is not None and other.id != gun.id:
        return f"{v.name} already tows {other.name}"
    return None


def undersized(state: State, gun: Element, v: Element) -> bool:
    """Whether `v` is a vehicle the gun's notes name as towing it though too small for its
    crew (p34 special cases: the US 57mm M1 and 75mm pack howitzer behind a jeep, p94;
    decision P332): it tows the gun whatever its tow class, and the crew rides apart."""
    return v.type in getattr(state.records[gun.id], "small_towers", ())


def why_not_move(state: State, e: Element) -> str | None:
    """Why a gun, or a tower tied to its gun's work, may not be given a move now (p33)."""
    if e.kind == "gun":
        if e.job:
            return f"{e.name} is {WORDS[e.job['kind']]} until turn {e.job['done']} (p33)"
        if e.portee:
            return f"{e.name} is carried en portee: it moves with its truck (p34)"
        if e.limbered:
            return f"{e.name} is limbered: it moves with its tower (p33)"
        if e.crew_in:
            return f"{e.name}'s crew rides apart, in {e.crew_in}: no one to man-handle it (p34)"
        if manhandle_rate(state, e) is None:
            return (
                f"{e.name} (size {e.size}) is too heavy to man-handle: limber it to move it (p33)"
            )
        return None
    gun = partner(state, e)
    if gun is not None and gun.job:
        return f"{e.name} stays put while {gun.name} is {WORDS[gun.job['kind']]} (p33)"
    if gun is not None and gun.limbered and not gun.crew_in and undersized(state, gun, e):
        return (f"{e.name} is too small to carry {gun.name}'s crew: the crew rides in a second "
                f"vehicle first (`embark`; p34 notes, P332)")  # fmt: skip
    if gun is not None and gun.has("set_up"):
        return f"{e.name} stays put while {gun.name} is set up to fire limbered; pack it up (p33)"
    return None


def why_no_fire(state: State, e: Element) -> str | None:
    """Why a towed gun may not fire now (p33), or None."""
    if e.kind != "gun":
        return None
    if e.job:
        return f"{e.name} is {WORDS[e.job['kind']]} (p33)"
    if e.crew_in:
        return f"{e.name}'s crew rides apart, in {e.crew_in}: the gun does not fire (p34)"
    if e.portee:
        v = partner(state, e)
        full = speeds(state.records[v.id])[0] if v is not None else 0.0
        if v is not None and v.moved > full / 2 + 1e-9:
            return f"{e.name}'s truck moved over half its move: the gun does not fire (p6, p34)"
        return None
    if e.limbered and not e.has("set_up"):
        return f"{e.name} is limbered: it does not fire (p33)"
    if e.fires_from > state.turn:
        return (f"{e.name} was just set up: it fires from turn {e.fires_from} "
                f"(option unlimbered_fire, P276)")  # fmt: skip
    if not e.limbered and e.moved > 0:
        return f"{e.name} was man-handled this turn: it does not fire (p33)"
    return None


def firing_limbered(e: Element) -> bool:
    """A gun set up to fire while limbered, or fired from its portee truck: no second-shot
    bonus (p33, p34)."""
    return bool(e.limbered) and (e.has("set_up") or e.portee)


def why_not_carrier(state: State, gun: Element, v: Element) -> str | None:
    """Why `v` cannot carry `gun` en portee, or None (p34, P315): the gun's notes must say it
    is carried so; the carrier is a truck or half-track of the gun's side whose chart tows at
    least the gun's size (stand-in for the notes' named minimum vehicle)."""
    rec, vrec = state.records[gun.id], state.records[v.id]
    if not getattr(rec, "portee", None):
        return f"{gun.name} is not carried en portee: its gun notes do not say so (p34)"
    if not isinstance(vrec, Softskin) or vrec.horse_team or vrec.drive in (None, "-"):
        return f"{v.name} is no truck or half-track: a gun is carried en portee on one (p34)"
    if vrec.tow is None or SIZES.index(vrec.tow) < SIZES.index(gun.size):
        return (f"{v.name} is too light to carry {gun.name} en portee: its tow class must be at "
                f"least the gun's size {gun.size} (notes: {rec.portee}; P315)")  # fmt: skip
    other = partner(state, v)
    if other is not None and other.id != gun.id:
        return f"{v.name} already carries or tows {other.name}"
    return None


PORTEE_ARC = 90.0  # half the arc a gun on its truck bears through (p9 vehicles' 180 deg; P331)


def portee_facings(state: State, gun: Element) -> tuple[str, ...]:
    """The ways the gun's notes let it face on its portee truck (p34): front, rear, both, or
    all round ("360 deg")."""
    text = (getattr(state.records[gun.id], "portee", None) or "").lower()
    if "360" in text:
        return ("all",)
    found = tuple(w for w in ("front", "rear") if w in text)
    return found or ("front",)


def portee_facing(state: State, gun: Element) -> str:
    """How the gun faces on its truck: as loaded, else its notes' first way (P331)."""
    return gun.portee_facing or portee_facings(state, gun)[0]


def why_not_bearing(state: State, gun: Element, xy: tuple[float, float]) -> str | None:
    """Why a gun on its portee truck cannot bear on `xy`, or None (p34 notes: facing front or
    rear of the truck, or 360 deg; P331): the gun points along its truck or the reverse and
    bears through the 180 deg arc about that line."""
    if not gun.portee:
        return None
    way = portee_facing(state, gun)
    if way == "all" or in_arc((gun.x, gun.y), gun.facing, xy, PORTEE_ARC):
        return None
    return (f"{gun.name} faces the {way} of its portee truck and bears only that way (notes: "
            f"{state.records[gun.id].portee}; P331)")  # fmt: skip


def horse_note(state: State, t: Element) -> tuple[str, ...]:
    """The placeholder line of a result on a horse team (P317: fired on as a softskin)."""
    if getattr(state.records.get(t.id), "horse_team", False):
        return (f"placeholder used: {t.name} is fired on as a softskin; no chart lists horse "
                "teams (P317)",)  # fmt: skip
    return ()


# ----------------------------------------------------------------------------- man-handling
def manhandle_refusal(state: State, gun: Element, path: list[tuple[float, float]]) -> str | None:
    """Why this man-handled move is refused (p33), or None."""
    rate = manhandle_rate(state, gun)
    if rate is None:
        return f"{gun.name} (size {gun.size}) is too heavy to man-handle (p33)"
    conditions = ((state.pregame or {}).get("weather") or {}).get("conditions") or ()
    for c in conditions:
        if c in GROUND:
            return f"guns are not man-handled through {GROUND[c]} (p33)"
    length, here = 0.0, (gun.x, gun.y)
    for p in path:
        length += math.dist(here, p)
        here = p
    if length > rate + 1e-6:
        return f"{gun.name} is man-handled at most {rate:g} cm a turn (p33); this path is {length:.1f} cm"
    here = (gun.x, gun.y)
    for p in path:
        if state.board.crosses(here, p):
            n = max(1, math.ceil(math.dist(here, p) / STEP))
            for i in range(n + 1):
                t = i / n
                x, y = here[0] + (p[0] - here[0]) * t, here[1] + (p[1] - here[1]) * t
                for f in state.board.at(x, y):
                    what = NO_MANHANDLE.get(f.kind)
                    if what is None and state.board.kinds[f.id].sight == "thick_treeline_bocage":
                        what = "a thick treeline"
                    if what:
                        return f"guns are not man-handled through {what} ({f.id}) (p33)"
        here = p
    return None


# ----------------------------------------------------------------------------- orders
def plan(state: State, gun: Element, cmd: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """A `limber` or `unlimber` order checked: (the job's data, its explanation)."""
    if not is_towed_gun(state, gun):
        raise IllegalCommand(f"{gun.name} is not a towed gun (p33)", "unit")
    if gun.job:
        raise IllegalCommand(f"{gun.name} is already {WORDS[gun.job['kind']]} (p33)", "unit")
    if gun.moved > 0:
        raise IllegalCommand(f"{gun.name} has already moved this turn", "unit")
    if gun.crew_in:
        raise IllegalCommand(f"{gun.name}'s crew rides apart, in {gun.crew_in}: it gets down "
                             "beside its gun first (p34)", "unit")  # fmt: skip
    if cmd["type"] == "limber" and cmd.get("portee"):
        if gun.limbered:
            raise IllegalCommand(f"{gun.name} is limbered: unlimber it first", "unit")
        kind, v = "load", _tower(state, gun, cmd.get("tower"), portee=True)
    elif cmd["type"] == "limber":
        if gun.limbered and not gun.has("set_up"):
            raise IllegalCommand(f"{gun.name} is already limbered", "unit")
        if gun.limbered:
            kind, v = "pack_up", partner(state, gun)
            if cmd.get("tower") not in (None, getattr(v, "id", None)):
                raise IllegalCommand(f"{gun.name} is limbered to {v.name if v else '?'}", "tower")
        else:
            kind, v = "limber", _tower(state, gun, cmd.get("tower"))
    else:
        if not gun.limbered:
            raise IllegalCommand(f"{gun.name} is not limbered", "unit")
        v = partner(state, gun)
        if gun.portee:
            if cmd.get("limbered_fire"):
                raise IllegalCommand(f"{gun.name} fires from its truck as it is (p34)",
                                     "limbered_fire")  # fmt: skip
            kind = "unload"
        elif cmd.get("limbered_fire"):
            if not fires_limbered(state, gun):
                raise IllegalCommand(f"{gun.name} is not fired limbered: its gun notes do not "
                                     "say so (p33; option limbered_fire, P277)", "limbered_fire")  # fmt: skip
            if gun.has("set_up"):
                raise IllegalCommand(f"{gun.name} is already set up to fire limbered", "unit")
            kind = "set_up"
        else:
            kind = "unlimber"
    if v is None:
        raise IllegalCommand(f"{gun.name} has no tower on the table", "unit")
    if v.moved > 0:
        raise IllegalCommand(f"{v.name} has moved this turn: a tower stays put while its gun "
                             "is limbered or unlimbered (p33)", "tower")  # fmt: skip
    m = moves_needed(state, gun, kind)
    turns = max(1, math.ceil(m))
    done = state.turn + turns - 1
    data = {"unit": gun.id, "tower": v.id, "kind": kind, "moves": str(m), "done": done}
    why = [f"{gun.name} (size {gun.size}): {WORDS[kind]} takes {m} move(s) (p33-34); "
           f"done at the end of turn {done}'s movement; {v.name} stays put till then (p33)"]  # fmt: skip
    if kind == "load":
        ways = portee_facings(state, gun)
        way = cmd.get("facing") or ways[0]
        if way not in ways:
            raise IllegalCommand(f"{gun.name}'s notes let it face {' or '.join(ways)} on its "
                                 f"truck, not {way} (p34, P331)", "facing")  # fmt: skip
        data["facing"] = way
        why.append(f"{gun.name} is carried en portee ({state.records[gun.id].portee}, p34), "
                   f"facing {'all round' if way == 'all' else 'the ' + way} (P331)")  # fmt: skip
    elif kind == "limber" and undersized(state, gun, v):
        why.append(f"{v.name} tows {gun.name} though too small for its crew: the crew rides in "
                   "a second vehicle (p34 notes, P332)")  # fmt: skip
    if kind in ("unlimber", "set_up", "unload"):
        data["fires_from"] = first_fire(state, m, done)
        why.append(f"{gun.name} may fire from turn {data['fires_from']} "
                   f"(option unlimbered_fire={state.rules.opts.unlimbered_fire}, P276)")  # fmt: skip
    return data, why


def first_fire(state: State, m: Fraction, done: int) -> int:
    """The first turn a gun set up in `m` moves, done in turn `done`, may fire (P276): `half`
    treats set-up time like movement, so a job whose last turn takes at most half a move
    leaves the gun free to fire that turn (p33 size A, 1/2 move); `same_turn`: in the turn it
    is done; `next_turn`: the turn after."""
    mode = state.rules.opts.unlimbered_fire
    if mode == "same_turn":
        return done
    if mode == "next_turn":
        return done + 1
    last = m - (max(1, math.ceil(m)) - 1)
    return done if last <= Fraction(1, 2) else done + 1


def _tower(state: State, gun: Element, vid: Any, portee: bool = False) -> Element:
    v = state.elements.get(vid) if isinstance(vid, str) else None
    if v is None or v.side != gun.side or not v.active:
        raise IllegalCommand(f"{vid!r} is not a vehicle of yours on the table", "tower")
    why = why_not_carrier(state, gun, v) if portee else why_not_tower(state, gun, v)
    if why:
        raise IllegalCommand(why, "tower")
    if math.dist((gun.x, gun.y), (v.x, v.y)) > REACH + 1e-9:
        raise IllegalCommand(f"{v.name} is over {REACH:g} cm from {gun.name} (P275)", "tower")
    if v.has("hull_damaged"):
        raise IllegalCommand(f"{v.name} is immobilised (p31)", "tower")
    return v


def templates(state: State, gun: Element) -> list[dict[str, Any]]:
    """The limber/unlimber orders this gun may be given now."""
    if gun.lost or not gun.active or gun.job or gun.moved > 0 or not is_towed_gun(state, gun):
        return []
    if gun.crew_in:
        return []
    cmds: list[dict[str, Any]] = []
    if gun.portee:
        cmds.append({"type": "unlimber", "unit": gun.id})
    elif gun.limbered:
        cmds.append({"type": "unlimber", "unit": gun.id})
        if gun.has("set_up"):
            cmds.append({"type": "limber", "unit": gun.id})
        elif fires_limbered(state, gun):
            cmds.append({"type": "unlimber", "unit": gun.id, "limbered_fire": True})
    else:
        for v in state.side_elements(gun.side):
            if v.kind == "softskin" and v.active and math.dist((gun.x, gun.y), (v.x, v.y)) <= REACH:
                cmds.append({"type": "limber", "unit": gun.id, "tower": v.id})
                if state.records[gun.id].portee:
                    for way in portee_facings(state, gun):
                        cmds.append({"type": "limber", "unit": gun.id, "tower": v.id,
                                     "portee": True, "facing": way})  # fmt: skip
    out = []
    for c in cmds:
        try:
            plan(state, gun, c)
        except IllegalCommand:
            continue
        out.append(c)
    return out


# ----------------------------------------------------------------------------- folds
def start(state: State, d: dict) -> None:
    """A job begins (fold of `tow_job`): a gun being limbered is tied to its tower at once."""
    gun, v = state.elements[d["unit"]], state.elements[d["tower"]]
    gun.job = {k: d[k] for k in ("kind", "done", "fires_from", "facing") if k in d}
    gun.tower, v.towing = v.id, gun.id


def complete(state: State) -> None:
    """Jobs done by this turn's movement take effect (folded as phase G begins)."""
    for gun in state.elements.values():
        job = gun.job
        if not job or job["done"] > state.turn:
            continue
        gun.job = None
        v = partner(state, gun)
        kind = job["kind"]
        if gun.lost or v is None:
            continue
        if kind in ("limber", "load"):
            gun.limbered, gun.portee = True, kind == "load"
            gun.portee_facing = job.get("facing") if gun.portee else None
            behind(state, gun, v)
        elif kind == "pack_up":
            gun.counters.pop("set_up", None)
        elif kind == "set_up":
            gun.counters["set_up"] = 1
            gun.fires_from = job["fires_from"]
        else:  # unlimbered (or unloaded behind its truck): it stands there
            if gun.portee:
                gun.portee, gun.portee_facing = False, None
                behind(state, gun, v)
            gun.limbered, gun.tower, v.towing = False, None, None
            gun.counters.pop("set_up", None)
            gun.fires_from = job["fires_from"]


def behind(state: State, gun: Element, v: Element) -> None:
    """A limbered gun stands 4 cm behind its tower; a portee gun on its truck (p33-34)."""
    gun.x, gun.y = (v.x, v.y) if gun.portee else riders.dismount_spot(state, v)
    rear = gun.portee and portee_facing(state, gun) == "rear"
    gun.facing = (v.facing + 180.0) % 360.0 if rear else v.facing
    gun.feature = state.board.feature(gun.x, gun.y)


def follow(state: State, v: Element) -> None:
    """The tower moved (a fold): a limbered gun goes with it; work in hand is broken off (a
    compulsory retreat)."""
    gun = partner(state, v)
    if gun is None:
        return
    if gun.job:
        if not gun.limbered:  # limbering broken off: the gun stays unlimbered where it is
            gun.tower, v.towing = None, None
        gun.job = None
    if not gun.limbered:
        return
    gun.counters.pop("set_up", None)
    behind(state, gun, v)
    gun.moved = v.moved
    gun.path = [list(p) for p in v.path]
    if gun.path:
        gun.path[-1][:2] = [gun.x, gun.y]


def fall_together(state: State, lost: dict[str, int]) -> None:
    """A tower or a gun destroyed while the gun is limbered takes the other with it (p33);
    `lost` counts each platoon's losses for its morale test. A gun whose crew rode apart in a
    vehicle now destroyed is abandoned, lost with its crew (P316)."""
    for e in list(state.elements.values()):
        crew = state.elements.get(e.crew_in) if e.kind == "gun" and e.crew_in else None
        if crew is not None and crew.lost and not e.lost:
            v = partner(state, e)
            if v is not None:  # an abandoned gun is unhooked: its tower drives on
                v.towing = None
            e.lost, e.limbered, e.tower, e.job = True, False, None, None
            lost[e.platoon] = lost.get(e.platoon, 0) + 1
    for e in list(state.elements.values()):
        if e.kind != "gun" or not e.limbered or not e.tower:
            continue
        v = state.elements[e.tower]
        if e.lost == v.lost:
            continue
        for a, b in ((e, v), (v, e)):
            if a.lost and not b.lost:
                b.lost = True
                if b.kind == "softskin":
                    wrecks.leave(state, b)
                    for rider in b.carrying:
                        state.elements[rider].lost = True
                lost[b.platoon] = lost.get(b.platoon, 0) + 1


# ----------------------------------------------------------------------------- set-up
def check(state: State) -> None:
    """A scenario's limbered guns (`limbered: true, tower: <id>`): tied to a tower that may
    tow them, and placed behind it."""
    for gun in state.elements.values():
        if gun.kind == "gun" and gun.crew_in:
            crew_check(state, gun)
        if gun.kind != "gun" or not (gun.limbered or gun.tower):
            if gun.portee:
                raise ValueError(f"team {gun.id}: a portee gun names its carrier as `tower` "
                                 "with `limbered: true` (p34)")  # fmt: skip
            continue
        where = f"team {gun.id}"
        if not gun.limbered or not gun.tower:
            raise ValueError(f"{where}: a limbered gun names its `tower`, and a `tower` needs "
                             "`limbered: true` (p33)")  # fmt: skip
        v = state.elements.get(gun.tower)
        if v is None or v.side != gun.side:
            raise ValueError(f"{where}: tower {gun.tower!r} is not a piece of its side")
        if not is_towed_gun(state, gun):
            why: str | None = "not a towed gun"
        elif gun.portee:
            why = why_not_carrier(state, gun, v)
        else:
            why = why_not_tower(state, gun, v)
        if why:
            raise ValueError(f"{where}: {why}")
        v.towing = gun.id
        if v.x is not None:
            behind(state, gun, v)


# ----------------------------------------------------------------------------- crew apart
def crew_room(state: State, gun: Element, v: Element) -> tuple[str | None, str | None]:
    """(why `v` cannot take `gun`'s crew, a note when its capacity was lost) (p12, p33-34):
    the crew is one team per size letter (A 1 .. D 4), riding beside any passengers."""
    vrec = state.records[v.id]
    if (
        v.kind not in ("softskin", "afv")
        or v.side != gun.side
        or getattr(vrec, "horse_team", False)
    ):
        return f"{v.name} carries no gun crew", None
    cap = getattr(vrec, "capacity", None)
    teams = CREW_TEAMS.get(gun.size, 1)
    if cap is None:
        return None, (f"{v.name}'s capacity is lost on its chart: the {teams}-team crew is not "
                      "checked against it (P316)")  # fmt: skip
    aboard = len(v.carrying) + teams + sum(
        CREW_TEAMS.get(g.size, 1) for g in state.elements.values()
        if g.kind == "gun" and g.crew_in == v.id and g.id != gun.id and not g.lost
    )  # fmt: skip
    if aboard > cap:
        return f"{v.name} has room for {cap} teams; {gun.name}'s crew is {teams} (p12, p33)", None
    return None, None


def crew_check(state: State, gun: Element) -> None:
    """A scenario gun whose crew rides apart (`crew_in: <vehicle>`, p34): in a vehicle of its
    side with room, placed with it."""
    v = state.elements.get(gun.crew_in or "")
    if v is None or v.side != gun.side:
        raise ValueError(f"team {gun.id}: crew_in {gun.crew_in!r} is not a vehicle of its side")
    if v.id == gun.tower:
        raise ValueError(f"team {gun.id}: crew_in names its own tower; the crew rides with it")
    why, _ = crew_room(state, gun, v)
    if why:
        raise ValueError(f"team {gun.id}: {why}")


def why_not_part(state: State, gun: Element, vid: Any) -> tuple[Element, str | None]:
    """(the vehicle, a capacity note) for the crew of `gun` to board `vid` apart from its gun
    (p34, P316), or IllegalCommand."""
    if gun.crew_in:
        raise IllegalCommand(f"{gun.name}'s crew already rides in {gun.crew_in}", "unit")
    if gun.job:
        raise IllegalCommand(f"{gun.name} is {WORDS[gun.job['kind']]} (p33)", "unit")
    v = state.elements.get(vid) if isinstance(vid, str) else None
    if v is None or v.side != gun.side or not v.active:
        raise IllegalCommand(f"{vid!r} is not a vehicle of yours on the table", "vehicle")
    if v.id == gun.tower:
        raise IllegalCommand(f"{gun.name}'s crew already rides with its tower (p33)", "vehicle")
    if math.dist((gun.x, gun.y), (v.x, v.y)) > REACH + 1e-9:
        raise IllegalCommand(f"{v.name} is over {REACH:g} cm from {gun.name}", "vehicle")
    why, note = crew_room(state, gun, v)
    if why:
        raise IllegalCommand(why, "vehicle")
    return v, note


def why_not_rejoin(state: State, gun: Element) -> str | None:
    """Why the crew riding apart cannot get down beside its gun now (p34), or None."""
    v = state.elements.get(gun.crew_in or "")
    if v is None:
        return f"{gun.name}'s crew rides with it"
    if v.lost or not v.on_table:
        return f"{gun.name}'s crew is not on the table"
    if math.dist((gun.x, gun.y), (v.x, v.y)) > REACH + 1e-9:
        return f"{v.name}, with {gun.name}'s crew, is over {REACH:g} cm from the gun (p34)"
    return None
