"""On-board mortars firing over open sights (p36 "Mortars with DLOS", p35 mortar table), in
phase E: a mortar team (a piece whose record is a mortar row, P129) that sees a point in its
range (p35: the table's minimum and maximum) places its POA there and its bombs land the same
turn, with no call-down roll (p36). The zone is the mortar's BZR (p35) and is rolled in phase H
like any beaten zone: one mortar, -1 on its first turn at the point (p37); mortars of one
platoon firing at the same point make one zone with the p37 +1/+2/+3 (p36: two mortars of
different platoons are diced apart). The point must stay in sight for the whole turn (p36): a
zone none of whose mortars sees its point in phase H lands unobserved and rolls nothing
(decision P267). The team counts as having fired (no direct fire in G; its flash is a mortar's,
p36). Smoke and WP as for batteries (game/indirect_smoke.py, p37).

Mortars on vehicles (p36; the vehicle notes p63 Sd.Kfz. 250/7 and 251/2, p92 M4A1/M21): a
carrier whose chart armament is a mortar fires it the same way from the vehicle, its crew the
observer, once it has stood still for a whole turn before (the notes' calibration turn; a
carrier placed at set-up counts as laid, option vehicle_mortar_setup_laid, P326) and not moved
this turn. The US M4/M4A1 fire over the rear, the M21 over the front, 30 degrees either side;
the one US record takes the option us_mortar_carrier_arc (P326); the German carriers, whose
notes give no arc, fire all round (P326). A carrier whose mortar its crew set up on the ground
(game/mortar_debark.py, P327, P346-P348) fires no mortar from the vehicle; the ground team fires
as any mortar team once its set-up time is over."""

from __future__ import annotations

import math
import random
from typing import Any, Literal

from ....engine.command_schema import CommandModel, Finite, Ident
from ....engine.commands import IllegalCommand
from ....engine.events import Draft, Event
from ....geometry.footprint import in_arc
from ..models import ArtilleryBattery
from . import indirect_smoke, orders_fire, support, turn
from .state import Element, Marker, State

ROWS = ((60, "45_60mm"), (82, "76_82mm"), (107, "medium_lost_calibre"), (120, "120mm"))
HEAVY_ROW = "heavy_lost_calibre"
LOST_MIN_CM = 60  # P267: a lost minimum range reads as the medium row's 60 cm (placeholder)
TEMPLATES = 2  # targets offered per mortar in the legal templates
CARRIER_ARC = 30.0  # degrees either side of the US carriers' mortar line (p92)
MOUNTS = "carrier_mortars"  # state.offtable: carrier -> its mortar team (game/mortar_debark.py)
WORK = {"debark": "getting its mortar down and setting it up",
        "embark": "packing its mortar up to load it",
        "set_up": "setting its mortar up"}  # fmt: skip


class MortarFire(CommandModel):
    """Phase E: mortar team `unit` fires over open sights at (x, y) (p36), HE, smoke or WP."""

    type: Literal["mortar_fire"]
    unit: Ident
    x: Finite
    y: Finite
    ammo: Literal["he", "smoke", "wp"] = "he"


# ----------------------------------------------------------------------------- the mortar
def record(state: State, e: Element) -> ArtilleryBattery | None:
    rec = state.records.get(e.id)
    if isinstance(rec, ArtilleryBattery) and rec.battery_kind == "mortar":
        return rec
    return None


def carries_mortar(state: State, e: Element) -> bool:
    """Whether a vehicle's chart armament names a mortar (a mortar carrier, p36)."""
    mounts = getattr(state.records.get(e.id), "armament", None) or []
    return any("mortar" in str(getattr(m, "raw", "") or "").casefold() for m in mounts)


def carrier_mm(state: State, e: Element) -> float | None:
    """The calibre of a mortar carrier's own mortar (its chart mount, p36), or None."""
    for m in getattr(state.records.get(e.id), "armament", None) or []:
        if "mortar" in str(getattr(m, "raw", "") or "").casefold():
            mm = getattr(m, "calibre_mm", None)
            return float(mm) if mm else None
    return None


def bore(state: State, e: Element) -> float | None:
    """The calibre of the mortar `e` fires: a mortar team's record or a carrier's mount."""
    rec = record(state, e)
    return calibre(rec) if rec is not None else carrier_mm(state, e)


def is_mortar(state: State, e: Element) -> bool:
    """A mortar team, or a carrier whose mortar is aboard."""
    if record(state, e) is not None:
        return True
    return carries_mortar(state, e) and ashore(state, e) is None


def ashore(state: State, v: Element) -> dict[str, Any] | None:
    """The mortar team of carrier `v` while its mortar is off the vehicle (P346), or None."""
    m = state.offtable.get(MOUNTS, {}).get(v.id)
    return m if m is not None and m["ashore"] else None


def carrier_of(state: State, e: Element) -> str | None:
    """The carrier whose mortar team `e` is (P347), or None."""
    return next((v for v, m in state.offtable.get(MOUNTS, {}).items() if m["team"] == e.id), None)


def unready(state: State, e: Element) -> str | None:
    """Why a carrier's mortar team may not fire its mortar now (p12 set-up; P346, P348)."""
    vid = carrier_of(state, e)
    if vid is None:
        return None
    m = state.offtable[MOUNTS][vid]
    job = m.get("job")
    if job:
        return (f"{e.name} is {WORK[job['kind']]} until the end of turn {job['done']}'s "
                "movement (p12; P346)")  # fmt: skip
    if not m["ashore"]:
        return f"{e.name} is not set up: its mortar was loaded on {vid} (p12; P348)"
    if m.get("dropped"):
        return (f"{e.name} got down with its mortar when {vid} was lost: it is not set up "
                "(`set_up_mortar`, P351)")  # fmt: skip
    return None


def laid_since(state: State, e: Element) -> int:
    """The turn from which carrier `e` has stood still (0: since set-up, P326)."""
    base = 0 if state.rules.opts.vehicle_mortar_setup_laid else 1
    return state.offtable.get("carriers_still", {}).get(e.id, base)


def new_turn(state: State, n: int) -> None:
    """Before the turn marks are cleared: a carrier that moved in the ending turn is laid
    again only from turn n on (called by the turn fold)."""
    for e in state.elements.values():
        if e.moved > 0 and carries_mortar(state, e):
            state.offtable.setdefault("carriers_still", {})[e.id] = n


def _carrier_refused(state: State, e: Element, xy: tuple[float, float]) -> str | None:
    """Why carrier `e` cannot fire its mortar from the vehicle now (p63, p92; P326)."""
    if e.moved > 0 or laid_since(state, e) >= state.turn:
        return (f"{e.name} must stand still a whole turn before its mortar fires (p63, p92: "
                "the mortar is laid from the stationary vehicle)")  # fmt: skip
    name = str(getattr(state.records.get(e.id), "name", ""))
    if name.startswith(("M4", "M21")):
        rear = state.rules.opts.us_mortar_carrier_arc == "rear"
        line = (e.facing + (180.0 if rear else 0.0)) % 360
        if not in_arc((e.x, e.y), line, xy, CARRIER_ARC):
            side = "rear" if rear else "front"
            return (f"{e.name} fires its mortar only {CARRIER_ARC:g} degrees either side of its "
                    f"{side} (p92; option us_mortar_carrier_arc, P326)")  # fmt: skip
    return None


def calibre(rec: ArtilleryBattery) -> float | None:
    """The mortar's calibre from its record's weapon ("81mm mortar"; "45-60mm": 60)."""
    return rec.calibre()


def table_row(mm: float) -> str:
    """The p35 mortars table row of a mortar of `mm`."""
    return next((r for top, r in ROWS if mm <= top), HEAVY_ROW)


def reach(state: State, mm: float) -> tuple[float, float, list[str]]:
    """(least, greatest range in cm, placeholder notes) of a mortar of `mm` (p35 table)."""
    row = table_row(mm)
    lo, la = state.rules.cell("mortars-table", row, "min_range_cm", LOST_MIN_CM)
    hi, lb = state.rules.cell("mortars-table", row, "max_range_cm", None)
    notes = [f"placeholder used: {x} (P267)" for x in (*la, *lb)]
    return float(lo), float(hi), notes


def bzr(mm: float) -> float:
    return next((r for top, r in support.MORTAR_BZR if mm <= top), support.MORTAR_HEAVY_BZR)


def why_not(state: State, e: Element, xy: tuple[float, float], ammo: str) -> str | None:
    """Why mortar team `e` cannot fire over open sights at `xy` now, or None (p35-37)."""
    rec = record(state, e)
    if rec is None and not carries_mortar(state, e):
        return f"{e.name} has no mortar (p36: on-board mortars fire over open sights)"
    off = ashore(state, e) if rec is None else None
    if off is not None:
        team = state.elements[off["team"]]
        if team.lost:
            return f"{e.name}'s mortar was lost with its crew, {team.name} (P347)"
        return (f"{e.name}'s mortar is off the vehicle with its crew ({team.name}): the vehicle "
                "is a carrier only until the mortar is loaded again (p63, p92; P327)")  # fmt: skip
    mm = bore(state, e)
    if mm is None:
        what = rec.id if rec is not None else e.name
        return f"not implemented: {what} lost its calibre (p35); name the team by a row with one"
    if not e.active or e.has("retreat"):
        return f"{e.name} cannot fire now"
    if e.fired:
        return f"{e.name} has fired this turn"
    if not state.board.on_table(*xy):
        return f"({xy[0]:g}, {xy[1]:g}) is off the table"
    lo, hi, _ = reach(state, mm)
    d = math.dist((e.x, e.y), xy)
    if not lo <= d <= hi:
        return f"{d:.0f} cm is outside the {mm:g} mm mortar's range {lo:g}-{hi:g} cm (p35)"
    why = _carrier_refused(state, e, xy) if rec is None else unready(state, e)
    if why:
        return why
    if not support.observes_point(state, e, xy):
        return f"{e.name} cannot see ({xy[0]:g}, {xy[1]:g}) (p36: the crew must see its target)"
    why = indirect_smoke.refused(state, e.side, ammo, "mortar", mm)
    return f"{e.name}: {why}" if why else None


def teams(state: State, side: str) -> list[Element]:
    return [
        e for e in state.side_elements(side) if e.active and not e.fired and is_mortar(state, e)
    ]


def legal(state: State, side: str, most: int = TEMPLATES) -> list[dict[str, Any]]:
    """Mortar fire offered: at enemy elements the side observes, in reach of each team (at
    most `most` points a team)."""
    mortars = teams(state, side)
    if not mortars:
        return []
    seen = (state.elements[tid] for tid in state.seen.get(side, ()))
    spots = sorted({(t.x, t.y) for t in seen if t.on_table})
    out = []
    for e in mortars:
        n = 0
        for x, y in spots:
            if n >= most:
                break
            if why_not(state, e, (x, y), "he") is None:
                out.append({"type": "mortar_fire", "unit": e.id, "x": x, "y": y})
                n += 1
                if most == 1:
                    return out
    return out


def ready(state: State, side: str) -> bool:
    """Whether some mortar team of the side has a target now (stops at the first)."""
    return bool(legal(state, side, most=1))


# ----------------------------------------------------------------------------- firing
def _zones(state: State) -> dict[str, Any]:
    return state.offtable.get("mortar_zones", {})


def _joins(state: State, e: Element, xy: tuple[float, float], ammo: str) -> str | None:
    """The zone of this turn that a mortar of the same platoon fires at the same point."""
    for mid, z in _zones(state).items():
        if (z["turn"], z["platoon"], z["ammo"]) == (state.turn, e.platoon, ammo) and math.dist(
            (z["x"], z["y"]), xy
        ) < 1e-6:
            return mid
    return None


def resolve(state: State, side: str, cmd: dict[str, Any], rng: random.Random) -> list[Draft]:
    e = turn.own(state, side, cmd.get("unit"))
    xy = (float(cmd["x"]), float(cmd["y"]))
    ammo = cmd.get("ammo", "he")
    why = why_not(state, e, xy, ammo)
    if why:
        raise IllegalCommand(why, "unit" if "range" not in why and "see" not in why else "x")
    mm = bore(state, e)
    assert mm is not None
    prev = state.offtable.get("mortars", {}).get(e.id, {})
    again = (
        prev.get("turn") == state.turn - 1
        and prev.get("ammo") == ammo
        and math.dist((prev["x"], prev["y"]), xy) < 1e-6
    )
    run = prev.get("run", 0) + 1 if again else 1
    radius = bzr(mm)
    _, _, notes = reach(state, mm)
    join = _joins(state, e, xy, ammo)
    enemy = state.enemy(side)
    sees = support.learns(state, enemy, xy, radius)
    data: dict[str, Any] = {
        "unit": e.id, "side": side, "x": xy[0], "y": xy[1], "radius": radius, "calibre": mm,
        "pairs": 1, "mortar": True, "rocket": False, "heavy_rocket": False, "turns": run,
        "ammo": ammo, "run": run, "join": join, "visible_to": [side, enemy] if sees else [side],
    }  # fmt: skip
    lines = [f"{e.name} fires its {mm:g} mm mortar over open sights at ({xy[0]:g}, {xy[1]:g}): "
             f"no call-down, the bombs land this turn in a {radius:g} cm zone (p35-36)", *notes]  # fmt: skip
    if record(state, e) is None:
        lines.append("from the vehicle, laid since it stood still (p63, p92; P326)")
    units = 1
    if join:
        units = len(_zones(state)[join]["units"]) + 1
        lines.append(f"the same point as {units - 1} mortar(s) of its platoon: one zone, "
                     f"{units} mortars (p36-37)")  # fmt: skip
    if run == 1 and ammo == "he":
        lines.append("its first turn at this point: -1 to hit (p37)")
    if ammo != "he" and not (join and _zones(state)[join].get("cloud")):
        data["cloud"], more = indirect_smoke.lay(state, ammo, radius, units, run)
        lines += more
    drafts = [Draft("mortar_fired", data, (side,), tuple(lines))]
    if sees and not join:
        drafts.append(support.seen_draft(enemy, xy, radius, ammo))
    return drafts


def still_seen(state: State, zones: list[Marker]) -> tuple[list[Draft], list[Marker]]:
    """Phase H: mortar zones whose mortars all lost sight of the point roll nothing (p36,
    P267): a notice to their side (once), and the zones left to roll."""
    gone = set(state.phase_data.get("unseen", []))
    drafts, keep = [], []
    for m in zones:
        z = _zones(state).get(m.id)
        if z is None:
            keep.append(m)
            continue
        if m.id in gone:
            continue
        spotters = [state.elements[u] for u in z["units"]]
        if any(support.observes_point(state, u, (m.x, m.y)) for u in spotters):
            keep.append(m)
            continue
        names = ", ".join(u.name for u in spotters)
        line = (f"{names} lost sight of its point before the turn ended: the bombs land "
                "unobserved and roll nothing (p36: in sight for the whole move; P267)")  # fmt: skip
        drafts.append(Draft("mortar_unseen", {"zone": m.id}, (z["side"],), (line,)))
    return drafts, keep


# ----------------------------------------------------------------------------- folds
def _fired(state: State, d: dict, ev: Event) -> None:
    e = state.elements[d["unit"]]
    e.fired = True
    state.offtable.setdefault("mortars", {})[e.id] = {
        "x": d["x"],
        "y": d["y"],
        "turn": state.turn,
        "run": d["run"],
        "ammo": d["ammo"],
    }
    zones = state.offtable.setdefault("mortar_zones", {})
    for k in [k for k, z in zones.items() if z["turn"] < state.turn]:
        del zones[k]
    if d.get("join"):
        z = zones[d["join"]]
        z["units"].append(e.id)
        state.markers[d["join"]].data["pairs"] = len(z["units"])
        if d.get("cloud"):
            from . import smoke

            smoke.add_cloud(state, d["cloud"], (d["x"], d["y"]), d["side"])
            z["cloud"] = True
    else:
        mid = support.zone(state, d["side"], d)
        zones[mid] = {"turn": state.turn, "platoon": e.platoon, "side": d["side"],
                      "x": d["x"], "y": d["y"], "ammo": d["ammo"], "units": [e.id],
                      "cloud": bool(d.get("cloud"))}  # fmt: skip
    orders_fire.flash(state, e, "mortar", d["calibre"])


def _unseen(state: State, d: dict, ev: Event) -> None:
    state.phase_data.setdefault("unseen", []).append(d["zone"])


COMMANDS = {"mortar_fire": MortarFire}
FOLDS = {"mortar_fired": _fired, "mortar_unseen": _unseen}
