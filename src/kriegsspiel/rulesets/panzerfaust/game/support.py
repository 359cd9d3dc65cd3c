"""Off-table support as the game sees it (pp. 35-44): each side's batteries and aircraft from
its forces block, their running status (`state.offtable`, changed only by folds), who may
direct them, and which elements a beaten zone or an air attack catches this turn.

A beaten zone catches every element, friend or foe (p36), that spent the turn in it, ended its
move in it or left it; one only partly in the zone is diced with the -1 of p37. Elements are
the game's teams, so a squad is diced team by team (decision P172). A mover that left the
zone is diced at the point where it crossed the edge and, if hit, stays there (p6 F, P173)."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from typing import Any

from ....data.errors import RuleError
from ....engine.commands import IllegalCommand
from ....engine.events import Draft
from ....geometry.footprint import in_arc
from ..forces import Aircraft as Plane
from ..forces import Battery
from ..models import AFV, Aircraft, ArtilleryBattery, MotorisedGun
from ..rules import indirect
from ..rules.lookup import find
from . import sight, smoke
from .state import Element, Marker, State

# p35 mortar table: BZR by calibre (the 90-107 mm band's calibres are lost: read as up to 107)
MORTAR_BZR = ((60, 3), (82, 6), (107, 9), (120, 15))
MORTAR_HEAVY_BZR = 18
OFFBOARD_MORTAR_MM = 90  # p36: the smallest mortar used off the table
MAX_PAIRS = 4  # p35: 2-8 guns in pairs; p38: 1-4 rocket sets
STEP = 0.5  # cm between the points of a path tested against a zone

Inside = Callable[[float, float], bool]


# ----------------------------------------------------------------------------- the forces
def batteries(state: State, side: str | None = None) -> list[tuple[str, Battery]]:
    """(side, battery) of every off-table battery, in scenario order."""
    sides = [side] if side else state.sides
    return [(s, b) for s in sides for b in getattr(state.scenario.forces_of(s), "batteries", [])]


def planes(state: State, side: str | None = None) -> list[tuple[str, Plane]]:
    sides = [side] if side else state.sides
    return [(s, p) for s in sides for p in getattr(state.scenario.forces_of(s), "aircraft", [])]


def battery(state: State, side: str, bid: Any, field: str = "battery") -> Battery:
    b = next((b for s, b in batteries(state, side) if b.id == bid), None)
    if b is None:
        from .mortar_sights import record

        p = state.platoons.get(str(bid))
        if (
            p is not None
            and p.side == side
            and any(record(state, state.elements[m]) for m in p.members)
        ):
            fc = next((b.id for _, b in batteries(state, side) if b.on_board == p.id), None)
            if fc:
                raise IllegalCommand(f"name {p.name}'s Battery Fire Control, {fc!r} (p36)", field)
            raise IllegalCommand(
                f"{p.name} has no Battery Fire Control (p36): its mortars fire over open "
                "sights (`mortar_fire`, phase E), not at an FAO's call", field
            )  # fmt: skip
        raise IllegalCommand(f"{bid!r} is not one of your off-table batteries", field)
    return b


def plane(state: State, side: str, pid: Any, field: str = "aircraft") -> Plane:
    p = next((p for s, p in planes(state, side) if p.id == pid), None)
    if p is None:
        raise IllegalCommand(f"{pid!r} is not one of your aircraft", field)
    return p


def status(state: State, kind: str, key: str) -> dict[str, Any]:
    """The running status of a battery or aircraft (created on first use, in a fold)."""
    return state.offtable.setdefault(kind, {}).setdefault(key, {})


def peek(state: State, kind: str, key: str) -> dict[str, Any]:
    """The status without creating it (for queries)."""
    return state.offtable.get(kind, {}).get(key, {})


def _bare(ref: str) -> str:
    """A record reference without its `kind:` prefix (forces.py accepts both)."""
    return ref.split(":", 1)[1] if ":" in ref else ref


def record(state: State, b: Battery) -> ArtilleryBattery:
    return find(state.rules.cat, ("battery",), _bare(b.type))[1]  # type: ignore[return-value]


def aircraft_record(state: State, p: Plane) -> Aircraft:
    return find(state.rules.cat, ("aircraft",), _bare(p.type))[1]  # type: ignore[return-value]


def missions_left(state: State, b: Battery) -> int | None:
    """Turns of fire the battery has left (`missions`; None: no limit)."""
    if b.missions is None:
        return None
    return b.missions - peek(state, "batteries", b.id).get("missions", 0)


def is_rocket(state: State, b: Battery) -> bool:
    return record(state, b).battery_kind == "rocket"


def rocket_row(state: State, b: Battery) -> dict[str, Any]:
    """The p38 rockets-table row of a rocket battery (by its record's id)."""
    key = record(state, b).id.split("/", 1)[1].removeprefix("rocket-")
    cols = ("bzr_cm", "reload_moves", "equivalent_calibre")
    return {c: state.rules.cell("rockets-table", key, c, "")[0] for c in cols}


def is_mortar(state: State, b: Battery) -> bool:
    """Mortars, and the rockets the p38 table says to treat as mortars ('*')."""
    if is_rocket(state, b):
        return "mortar" in str(rocket_row(state, b)["equivalent_calibre"])
    return record(state, b).battery_kind == "mortar"


def bzr(state: State, b: Battery) -> float:
    """Beaten-zone radius (p35): guns by calibre, mortars by their table, rockets by theirs
    (p38)."""
    if is_rocket(state, b):
        return float(rocket_row(state, b)["bzr_cm"])
    if is_mortar(state, b):
        return next((r for mm, r in MORTAR_BZR if b.calibre_mm <= mm), MORTAR_HEAVY_BZR)
    return indirect.bzr_cm(b.calibre_mm)


def pairs(state: State, b: Battery) -> int:
    """Gun pairs, mortars or rocket sets firing (the p37 +1/+2/+3; p38 sets as pairs): the
    record's basis (pairs, tubes or launcher sets) less the pairs counter-battery fire put out
    of action (p37)."""
    if b.on_board:
        from .onboard_fire import mortars

        return len(mortars(state, b))  # an on-board platoon: its mortars that fire (p37)
    return b.count - peek(state, "batteries", b.id).get("lost_pairs", 0)


def heavy_rocket(state: State, b: Battery) -> bool:
    """German spin-stabilised 15, 21 and 30 cm rockets hit on 7, not 6 (p38)."""
    key = record(state, b).id
    return is_rocket(state, b) and any(c in key for c in ("15cm", "21cm", "30cm-nbw"))


def skill(state: State, side: str, b: Battery) -> str:
    """The call-down column (p36): US, Vet/Reg, Conscript."""
    if state.nations.get(side, "").startswith("usa"):
        return "us"
    return "conscript" if b.troop_class == "conscript" else "vet_reg"


def check(state: State) -> None:
    """What the rules forbid in the scenario's off-table support (raised at set-up)."""
    if state.scenario.artillery:
        raise NotImplementedError(
            "not implemented: the generic `artillery` list in a Panzerfaust scenario; declare "
            "batteries in forces.<side>.batteries with their guns and calibre (p35)"
        )
    for side, b in batteries(state):
        where = f"forces.{side}.batteries {b.id}"
        try:
            rec = record(state, b)
        except (LookupError, RuleError) as e:
            raise ValueError(f"{where}: {e}") from None
        if b.on_board:
            from .onboard_fire import check as check_on_board

            check_on_board(state, side, b, where)
            continue
        if rec.battery_kind == "rocket":
            _check_rockets(state, b, where)
        if rec.battery_kind == "mortar" and b.calibre_mm < OFFBOARD_MORTAR_MM:
            raise ValueError(f"{where}: mortars under 90 mm cannot be used off the table (p36)")
        if rec.battery_kind == "gun" and b.count > MAX_PAIRS:
            raise ValueError(f"{where}: a battery has 2-8 guns (p35), not {b.count} pairs")
        if b.plan and _role(state, side) == "encounter":
            raise ValueError(f"{where}: no map fire in an Encounter (p4)")
        last: int | None = None
        for m in b.plan:
            first = min(m.turns)
            if last is not None and first < indirect.map_fire_next(last, _troop(state, side, b)):
                raise ValueError(
                    f"{where}: map fire changes target at turn {first}, before the p37 delay "
                    f"after turn {last} ({indirect.MAP_DELAY[_troop(state, side, b)]} turns)"
                )
            last = max(m.turns)
    for side, p in planes(state):
        where = f"forces.{side}.aircraft {p.id}"
        try:
            aircraft_record(state, p)
        except (LookupError, RuleError) as e:
            raise ValueError(f"{where}: {e}") from None
        if p.count > 1:
            raise ValueError(f"{where}: count {p.count}: give each aircraft its own entry (its "
                             "own damage and passes, p44)")  # fmt: skip


def _check_rockets(state: State, b: Battery, where: str) -> None:
    """Rockets fire map fire only (p38), one to four sets, once per reload (or once)."""
    if not record(state, b).id.startswith("common/rocket-"):
        raise ValueError(
            f"{where}: name a rocket battery by its p38 rockets-table record (common/rocket-...)"
        )
    if not b.plan:
        raise ValueError(f"{where}: rockets fire only map fire written before the game (p38)")
    if b.count > MAX_PAIRS:
        raise ValueError(f"{where}: a rocket battery has one to four sets (p38), not {b.count}")
    reload = rocket_row(state, b)["reload_moves"]
    turns = sorted(t for m in b.plan for t in m.turns)
    if reload == "-" and len(turns) > 1:
        raise ValueError(f"{where}: single-shot rockets fire once (p38)")
    if isinstance(reload, int):
        every = indirect.rocket_fires_every(reload)
        for a, c in zip(turns, turns[1:], strict=False):
            if c - a < every:
                raise ValueError(f"{where}: turns {a} and {c}: it fires every {every}th move (p38)")


def _role(state: State, side: str) -> str | None:
    return getattr(state.scenario.forces_of(side), "role", None)


def _troop(state: State, side: str, b: Battery) -> str:
    return "us" if skill(state, side, b) == "us" else b.troop_class


def next_strike(state: State, side: str, p: Plane) -> dict[str, Any] | None:
    """The aircraft's next strike not yet flown: on call, else the next prepared one."""
    st = peek(state, "aircraft", p.id)
    if st.get("gone"):
        return None
    if "strike" in st:
        return {**st["strike"], "prepared": None}
    done = set(st.get("cancelled", [])) | set(st.get("flown", []))
    for i, s in enumerate(p.prepared):
        if i not in done and s.turn >= state.turn:
            return {"x": s.x, "y": s.y, "heading": s.heading, "altitude": s.altitude,
                    "arrives": s.turn, "prepared": i}  # fmt: skip
    return None


# ----------------------------------------------------------------------------- observers
def observes_point(state: State, e: Element, xy: tuple[float, float]) -> bool:
    """Whether `e` can see the point (p36: whoever directs fire must have DLOS to it): in its
    arc of vision, and a line of sight that terrain, smoke (p33) and wrecks (p8) leave clear."""
    if not e.active:
        return False
    a = (e.x, e.y)
    facing = e.turret if e.turret is not None else e.facing
    high = sight.floors.eye(state, e)  # an observer upstairs sees from its floor (P329)
    return in_arc(a, facing, xy, sight.arc(e)) and sight.clear(state, a, xy, None, (), high)


def role_of(state: State, e: Element, team: str) -> bool:
    """Whether `e` is an FAO (`fao`) or FAC (`fac`) team: by its army-list record, or (FAO)
    the scenario's `fao` flag on the team."""
    if e.kind == "infantry" and team in e.type.rsplit("/", 1)[-1].split("-"):
        return True
    spec = _teams(state).get(e.id)
    return bool(team == "fao" and getattr(spec, "fao", False))


def _teams(state: State) -> dict[str, Any]:
    memo = state.cache.get("teams")
    if memo is None:
        memo = state.cache["teams"] = {
            t.id: t for s in state.sides for t in state.scenario.forces_of(s).pieces()
        }
    return memo


def learns(state: State, side: str, xy: tuple[float, float], radius: float) -> bool:
    """Whether `side` learns of fire landing at `xy` (decision P171): one of its elements
    sees the point or stands in the zone."""
    return any(
        e.active and (math.dist((e.x, e.y), xy) <= radius or state.board.los((e.x, e.y), xy))
        for e in state.side_elements(side)
    )


# ----------------------------------------------------------------------------- zones
def circle(xy: tuple[float, float], r: float) -> Inside:
    return lambda x, y: math.dist((x, y), xy) <= r + 1e-9


def rectangle(xy: tuple[float, float], heading: float, length: float, width: float) -> Inside:
    """A zone `length` along `heading` and `width` across, centred on xy (p43 rockets)."""
    h = math.radians(heading)
    ux, uy = math.sin(h), math.cos(h)

    def inside(x: float, y: float) -> bool:
        dx, dy = x - xy[0], y - xy[1]
        along, across = dx * ux + dy * uy, dx * uy - dy * ux
        return abs(along) <= length / 2 + 1e-9 and abs(across) <= width / 2 + 1e-9

    return inside


def _points(e: Element) -> Iterator[tuple[float, float]]:
    if not e.path:
        yield e.x, e.y  # type: ignore[misc]
        return
    for (x0, y0, d0), (x1, y1, d1) in zip(e.path, e.path[1:], strict=False):
        n = max(1, math.ceil((d1 - d0) / STEP))
        for i in range(n):
            t = i / n
            yield x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
    yield e.path[-1][0], e.path[-1][1]


def caught(state: State, inside: Inside) -> list[tuple[Element, bool, list[float] | None]]:
    """(element, partial, exit point) of every element the zone catches this turn."""
    out = []
    for e in state.elements.values():
        if not e.on_table or e.transport:
            continue
        flags = [inside(x, y) for x, y in _points(e)]
        if not any(flags):
            continue
        at = None
        if not flags[-1]:  # it left the zone: diced where it crossed the edge
            i = next(i for i in range(1, len(flags)) if flags[i - 1] and not flags[i])
            at = list(list(_points(e))[i - 1])
        out.append((e, not all(flags), at))
    return out


def kind(state: State, e: Element) -> str:
    """The p37 target kind of an element."""
    if e.kind in ("afv", "motorised_gun"):
        rec = state.records[e.id]
        if isinstance(rec, MotorisedGun) or (isinstance(rec, AFV) and "top" in rec.open):
            return "open_afv"
        return "afv"
    return e.kind if e.kind in ("infantry", "gun", "softskin") else "infantry"


def protection(state: State, e: Element) -> str:
    """The p37 protection of an element: dug in, or in hard cover / woods / a building."""
    if e.has("dug_in"):
        return "entrenched"
    return "soft" if state.board.cover(e.x, e.y) != "none" else "none"


def riders(state: State, e: Element) -> list[Element]:
    """Tank riders on an AFV: diced apart, without cover (p37)."""
    if e.kind not in ("afv", "motorised_gun"):
        return []
    return [state.elements[r] for r in e.carrying if state.elements[r].kind == "infantry"]


# ----------------------------------------------------------------------------- results
def seen_draft(enemy: str, xy: tuple[float, float], radius: float, ammo: str) -> Draft:
    """What a side that sees the point learns of fire landing there: where, how wide, and
    whether it is smoke (P171: never who fired)."""
    seen = {"x": xy[0], "y": xy[1], "radius": radius, "ammo": ammo}
    what = {"he": "shells land", "smoke": "smoke shells land", "wp": "WP shells land"}[ammo]
    return Draft("barrage_seen", seen, (enemy,), (f"{what} (p36)",))


def zone(state: State, side: str, d: dict[str, Any]) -> str:
    """Fold a beaten-zone marker of this turn (no firer's name: the enemy may see it, P171)
    and its cloud (smoke or WP, p37); its id."""
    mid = f"bz-{state.turn}-{sum(m.kind == 'bz' for m in state.markers.values()) + 1}"
    state.markers[mid] = Marker(
        mid, "bz", side, d["x"], d["y"], d["radius"],
        {k: d[k] for k in ("calibre", "pairs", "mortar", "turns", "rocket", "heavy_rocket")}
        | {"turn": state.turn, "ammo": d.get("ammo", "he")},
        list(d["visible_to"]),
    )  # fmt: skip
    if d.get("cloud"):
        smoke.add_cloud(state, d["cloud"], (d["x"], d["y"]), side)
    return mid


def landing(
    state: State, event: str, results: list[dict[str, Any]], lines: dict[str, tuple[str, ...]],
    data: dict[str, Any],
) -> list[Draft]:  # fmt: skip
    """Results of fire that lands on the table: one umpire event that folds them (losses,
    effects, morale), and for each side a notice of what it may know: its own elements by
    id and the enemy elements it observes by their alias, each with its dice."""
    drafts = [Draft(event, {**data, "results": results}, ())]
    for side in state.sides:
        seen = set(state.seen.get(side, ()))
        mine, why = [], []
        for r in results:
            t = state.elements[r["target"]]
            if t.side == side:
                mine.append({**r})
            elif t.id in seen:
                mine.append({**r, "target": state.aliases.alias(side, t.id), "at": None})
            else:
                continue
            why.extend(lines.get(r["target"], ()))
        if mine:
            drafts.append(Draft(f"{event}_seen", {"results": mine}, (side,), tuple(why)))
    return drafts


def view(state: State, side: str) -> dict[str, Any]:
    """A side's own batteries and aircraft as its order sheet shows them (phase A)."""
    out: dict[str, Any] = {"batteries": [], "aircraft": []}
    for _, b in batteries(state, side):
        st = peek(state, "batteries", b.id)
        out["batteries"].append({
            "id": b.id, "type": b.type, "calibre_mm": b.calibre_mm, "on_board": b.on_board,
            "count": pairs(state, b) if b.on_board else b.count,
            "troop_class": b.troop_class, "radius": bzr(state, b),
            "plan": [m.model_dump() for m in b.plan] if not st.get("ceased") else [],
            "missions_left": missions_left(state, b),
            "order": st.get("order"), "silenced": bool(st.get("silenced")),
            "counter_battery": b.counter_battery and "reassigned" not in st,
            "reassigned": st.get("reassigned"), "pairs_lost": st.get("lost_pairs", 0),
        })  # fmt: skip
    for _, p in planes(state, side):
        st = peek(state, "aircraft", p.id)
        out["aircraft"].append({
            "id": p.id, "type": p.type, "bomb_row": p.bomb_row, "rockets": p.rockets,
            "damage": st.get("damage", 0), "gone": bool(st.get("gone")),
            "available_from": st.get("next", 1),
            "strike": next_strike(state, side, p),
        })  # fmt: skip
    return out
