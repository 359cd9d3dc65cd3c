"""Phase G (p6, pp. 13-19, 28-31): direct fire in the book's order (fire_order.py), then close
combat. The element whose turn it is fires at one enemy element it observes, or holds; a
shot at a mover may be placed at any point of the mover's path this turn that the firer
observed (backtracking, p6: `at`, cm from the start of its move), and a mover destroyed or
disabled there stays there. Results of simultaneous firers land together; each platoon that
lost elements then tests morale at once, cascading to its company (morale_tests.py).

Every roll comes from the rules core: infantry_fire (p15-16), at_fire (pp. 29-31), cqc
(pp. 17-19), morale (pp. 23-24); their explanations become the events' explanations."""

from __future__ import annotations

import math
import random
from typing import Any

from ....chance import exact, sample
from ....data.errors import RuleError
from ....engine.commands import IllegalCommand
from ....engine.events import Draft, Event
from ....geometry.footprint import relative_bearing
from ..rules import at_fire, infantry_fire, observe
from ..rules import crew_fire as crew_rules
from ..rules import flame as flame_rules
from ..rules import passenger_fire as passenger_rules
from ..rules.weapons import target_of
from . import (
    along_move,
    area,
    arms,
    crew_fire,
    fieldworks,
    fire_order,
    flame,
    floor_zone,
    melee,
    melee_groups,
    morale_tests,
    mortar_debark,
    movement,
    orders_cover,
    passenger_fire,
    regroup,
    rider_alarm,
    sight,
    smoke,
    softskin,
    towing,
    turn,
    withdrawal,
    wrecks,
)
from .commands import Fire, Flame, Hold, Smoke
from .state import Element, State

COMMANDS = {"fire": Fire, "flame": Flame, "hold": Hold, "smoke": Smoke}
VEHICLES = ("afv", "gun", "motorised_gun", "softskin")
EFFECTS = {"stunned_1": ("stunned", 1), "stunned_2": ("stunned", 2),
           "immobilised": ("hull_damaged", 1), "gun_damaged": ("gun_damaged", 1)}  # fmt: skip


# ----------------------------------------------------------------------------- folds
def enter(state: State) -> None:
    towing.complete(state)  # guns (un)limbered by this turn's movement (p33)
    mortar_debark.complete(state)  # carriers' mortars set up or loaded (p12, P346)
    order, keys = fire_order.build(state)
    state.fire_order, state.fire_step = order, 0
    state.phase_data.update(keys=keys, buffer=[], morale=[], shots={})


def flash(
    state: State, e: Element, weapon: str | None = None, calibre: float | None = None
) -> None:
    """Who sees the firer's muzzle flash (p9): exact -> spotted; general -> its feature.
    `weapon`/`calibre`: what fired when it is not the element's main gun (a mortar, p36)."""
    if weapon is None:
        calibre = getattr(arms.main_gun(state, e), "calibre_mm", None)
        weapon = "infantry_weapons" if e.kind == "infantry" or calibre is None else "gun"
    for o in state.elements.values():
        if o.side == e.side or not o.active or e.id in state.spotted.get(o.id, {}):
            continue
        a, b = (o.x, o.y), (e.x, e.y)
        if not sight.clear(state, a, b, e.size, (), *sight.ends(state, o, e)):  # smoke too (p33)
            continue
        f = observe.Flash(math.dist(a, b), weapon, calibre, observer_closed_down=o.has("closed_down"),
                          observer_moving=o.moved > 5, camouflaged=e.has("camouflaged"))  # fmt: skip
        seen = sample(observe.muzzle_flash, state.rules, f).result.name
        if seen == "exact":
            state.spotted.setdefault(o.id, {})[e.id] = e.feature
        elif seen == "general":
            alias = state.aliases.alias(o.side, e.id)
            state.flashes.setdefault(o.side, {})[alias] = {"feature": e.feature, "turn": state.turn}


def _shot(state: State, d: dict, e: Event) -> None:
    firer = state.elements[d["unit"]]
    firer.fired = True
    state.fire_step += 1
    target = state.aliases.resolve(firer.side, d["target"])
    assert target is not None, d
    key = f"{firer.id}>{target}"
    shots = state.phase_data.setdefault("shots", {})
    shots[key] = shots.get(key, 0) + 1
    rider_alarm.note(state, d, firer, state.elements[target])  # p28: riders fired upon
    if d.get("flame") and d["result"] != "miss" and state.elements[target].kind == "afv":
        state.elements[target].counters["flamed"] = 1  # +1 to later flame rolls (p21, P290)
    if not d.get("he"):  # HE and the flame arc land through their "area_hits"
        hit = {"target": target, "result": d["result"], "at": d.get("at_xy"), "by": firer.side,
               "src": firer.id}  # fmt: skip
        if d.get("flame") and d["result"] != "miss":
            hit["flame"] = True  # the flame reached it: its unit tests morale (p23, P311)
        state.phase_data.setdefault("buffer", []).append(hit)
    flash(state, firer)


def _smoke(state: State, d: dict, e: Event) -> None:
    firer = state.elements[d["unit"]]
    firer.fired = True
    state.fire_step += 1
    smoke.fold(state, d, e)
    flash(state, firer)


def _area_hits(state: State, d: dict, e: Event) -> None:
    state.phase_data.setdefault("buffer", []).extend(d["results"])


def _held(state: State, d: dict, e: Event) -> None:
    state.fire_step += 1


def land(state: State, results: list[dict]) -> None:
    """Results of simultaneous fire or a melee land (p6): losses, effects, backtracking. A
    result may name its firer (`src`: a retreating unit losing men to a near enemy
    surrenders, p24) and carry `flame` (the unit under a flame attack tests morale even with
    no loss, p23)."""
    lost: dict[str, int] = {}
    flamed: set[str] = set()
    retreating = {p for p in state.platoons if withdrawal.retreating(state, p)}
    abandoned: list[Element] = []
    regroup.fired_on(state, [r["target"] for r in results])
    riders = withdrawal.RiderDeaths(state)  # who died aboard, by result (p24, P360)
    for r in results:
        riders.next(r)
        t = state.elements[r["target"]]
        name = r["result"]
        if name.startswith(passenger_fire.RESULT):  # small arms at an AFV's riders (P350),
            for pl, n in passenger_fire.land(state, t, name).items():  # aboard till all land
                lost[pl] = lost.get(pl, 0) + n
            continue
        if t.lost:
            continue
        if r.get("flame"):
            flamed.add(t.platoon)
        if t.kind == "softskin" and name.startswith("lost_"):  # small arms at it (p17)
            aboard = {p: state.elements[p].platoon for p in t.carrying}
            if softskin.casualties(state, t, int(name[5:])):
                lost[t.platoon] = lost.get(t.platoon, 0) + 1
            for pid, pl in aboard.items():
                if state.elements[pid].lost:
                    lost[pl] = lost.get(pl, 0) + 1
            continue
        hit = name == "destroyed" or name.startswith("lost_") and name != "lost_0"
        crew = name in crew_fire.RESULTS  # an AFV's crew hit (P308 in CQC, P344 by small arms)
        if (hit or name == "immobilised" or crew and name != "commander_killed") and r.get("at"):
            # backtracked (p6): destroyed or disabled, it stays where it was hit; otherwise
            # it completes its move
            t.x, t.y = r["at"]
            t.feature = state.board.feature(t.x, t.y)
            if r.get("by"):  # the firer's side saw it there: its last-known point
                state.last_seen.setdefault(r["by"], {})[t.id] = list(r["at"])
        if crew:
            out = crew_fire.land(state, t, name)
            lost[t.platoon] = lost.get(t.platoon, 0) + (1 if out else 0)
            abandoned += [t] if out else []
        elif hit:
            t.lost = True
            if t.kind == "afv":
                t.counters["brewed_up"] = 1
            wrecks.leave(state, t)
            for rider in t.carrying:
                state.elements[rider].lost = True
            lost[t.platoon] = lost.get(t.platoon, 0) + 1
        elif name in EFFECTS:
            counter, n = EFFECTS[name]
            t.counters[counter] = max(t.counters.get(counter, 0), n)
            lost.setdefault(t.platoon, 0)
    riders.close()
    for pl, n in riders.with_vehicle().items():  # riders killed with it: their own loss (P363)
        lost[pl] = lost.get(pl, 0) + n
    for t in abandoned:  # after every result: a passenger fallen with its crew stays aboard
        crew_fire.get_down(state, t)
    towing.fall_together(state, lost)  # a limbered gun and its tower fall together (p33)
    withdrawal.losses_near(state, results, retreating, riders.rows)
    pending = state.phase_data.setdefault("morale", [])
    for pid in sorted(flamed - set(lost)):
        lost[pid] = 0  # a flame attack that cost nothing: the unit tests all the same (p23)
    for pid, n in lost.items():
        q = next((q for q in pending if q[0] == pid), None)
        if q is None:
            pending.append([pid, n, {"flame": True}] if pid in flamed else [pid, n])
        elif pid in flamed and len(q) == 2:
            q.append({"flame": True})


def _volley(state: State, d: dict, e: Event) -> None:
    land(state, d["results"])
    rider_alarm.mark(state)  # p28: AFVs whose surviving tank riders get down next turn
    state.phase_data["buffer"] = []


def _noted(state: State, d: dict, e: Event) -> None:
    pass  # a notice to one side of something folded by another event


FOLDS = {
    "shot": _shot, "area_hits": _area_hits, "hold": _held, "fire_skipped": _held,
    "volley": _volley, "shot_at": _noted, "smoke_fired": _smoke, "pin_broken": _noted, **melee.FOLDS,
}  # fmt: skip


# ----------------------------------------------------------------------------- targets
def _range(a: Element, xy: tuple[float, float]) -> float:
    return math.dist((a.x, a.y), xy)


def _small_arms_reach(state: State, e: Element, dist: float) -> bool:
    team = arms.small_arms(state, e)
    return team is not None and dist <= arms.reach(state, team)


def _blocked(state: State, e: Element, t: Element, xy: tuple[float, float]) -> str | None:
    """Why nothing of `e`'s may be fired at `t` at `xy` (close combat, a gun's bearing)."""
    return melee_groups.why_not_target(state, e.side, t, xy) or towing.why_not_bearing(state, e, xy)


def _can_hit_crew(state: State, e: Element, t: Element, xy: tuple[float, float]) -> str | None:
    """Why `e` cannot fire its small arms at the crew of the AFV `t` at `xy` (p17), or None."""
    return _blocked(state, e, t, xy) or crew_fire.why_not(state, e, t, xy)


def _can_hit_passengers(
    state: State, e: Element, t: Element, xy: tuple[float, float]
) -> str | None:
    """Why `e` cannot fire its small arms at the teams riding `t` at `xy` (p16-17), or None."""
    return _blocked(state, e, t, xy) or passenger_fire.why_not(state, e, t, xy)


def _can_hit(state: State, e: Element, t: Element, xy: tuple[float, float]) -> str | None:
    """Why `e` cannot fire at `t` at `xy`, or None (close combat, weapon, range band)."""
    blocked = _blocked(state, e, t, xy)
    if blocked:
        return blocked
    dist = _range(e, xy)
    if t.kind == "infantry":
        if _small_arms_reach(state, e, dist):
            return None
        team = arms.small_arms(state, e)
        why_he = area.why_not(state, e, xy)
        if why_he is None:
            return None
        if team is None:
            return f"{e.name} has no small arms to fire at infantry ({why_he})"
        return f"out of small-arms range ({arms.reach(state, team):g} cm)"
    if softskin.by_small_arms(state, e, t, dist):
        return None
    if t.kind == "afv" and flame.is_flamethrower(state, e):
        return flame.why_not(state, e, t, xy)
    gun = arms.main_gun(state, e)
    if gun is None:
        if t.kind == "afv" and crew_fire.why_not(state, e, t, xy) is None:
            also = (
                " or at its passengers (passengers: true)"
                if passenger_fire.why_not(state, e, t, xy) is None
                else ""
            )
            return (
                f"{e.name} has no gun for AFVs; its small arms may fire at the crew (crew: true)"
                + also
            )
        return f"{e.name} has no gun that can fire at vehicles or guns"
    try:
        band, _, _ = state.rules.band(gun.bands, dist, len(gun.to_hit), gun.name)
        gun.need(band)
    except RuleError as err:
        return str(err)
    return None


def targets(state: State, e: Element, check: Any = None) -> list[Element]:
    """The observed enemy elements `e` may engage now (`check`: why not, default `_can_hit`)."""
    if melee_groups.why_not_firer(state, e):
        return []
    check = check or _can_hit
    seen = state.spotted.get(e.id, {})
    shots = state.phase_data.get("shots", {})
    out = []
    for tid in seen:
        t = state.elements[tid]
        if e.has("shaken") and f"{tid}>{e.id}" not in shots:
            continue  # Shaken: fires only at those that fired on it (p24)
        if t.on_table and check(state, e, t, (t.x, t.y)) is None:
            out.append(t)
    return out


BACKTRACK_STEP = 2.0  # cm between the points of a mover's path a firer is offered


def sightings(state: State, e: Element, t: Element) -> list[float]:
    """The points of `t`'s move this turn (cm from its start) that `e` saw as it moved
    (along_move.py) and where `e` can hit it from where it stands now (backtracking, p6)."""
    if not t.path or t.moved <= 0:
        return []
    out = []
    for a, b in along_move.stretches(state, e.id, t.id):
        n = max(1, math.ceil((b - a) / BACKTRACK_STEP))
        for i in range(n + 1 if b > a else 1):
            cm = round(a + (b - a) * i / n, 2)
            if _can_hit(state, e, t, movement.point_at(t.path, cm)) is None:
                out.append(cm)
    return sorted(set(out))


def backtracks(state: State, e: Element) -> list[tuple[Element, float]]:
    """Movers `e` saw on their way this turn that it cannot engage where they are now but
    could at some point of their move it saw: (mover, the last such point)."""
    if e.has("shaken") or melee_groups.why_not_firer(state, e):
        return []
    now = {t.id for t in targets(state, e)}
    out = []
    for tid, by in state.glimpses.items():
        t = state.elements[tid]
        if e.id not in by or tid in now or not t.on_table or t.moved <= 0:
            continue
        points = sightings(state, e, t)
        if points:
            out.append((t, points[-1]))
    return out


def _current(state: State) -> Element | None:
    if state.fire_step >= len(state.fire_order):
        return None
    return state.elements[state.fire_order[state.fire_step]]


def _flush_due(state: State) -> bool:
    buf = state.phase_data.get("buffer")
    if not buf:
        return False
    keys = state.phase_data["keys"]
    i = state.fire_step
    return i >= len(keys) or keys[i] != keys[i - 1]


def actors(state: State) -> list[str]:
    if _flush_due(state) or morale_tests.pending(state):  # results land, tests first
        return []
    e = _current(state)
    if e is None or e.lost or e.has("stunned") or not _has_work(state, e):
        return []
    return [e.side]


def _flame_targets(state: State, e: Element) -> list[Element]:
    return targets(state, e, flame.why_not) if flame.weapon(state, e) else []


def _crew_targets(state: State, e: Element) -> list[Element]:
    """The enemy AFVs whose crews `e`'s small arms may fire at now (p17)."""
    return targets(state, e, _can_hit_crew) if arms.small_arms(state, e) else []


def _passenger_targets(state: State, e: Element) -> list[Element]:
    """The enemy AFVs whose riders `e`'s small arms may fire at now (p16-17)."""
    return targets(state, e, _can_hit_passengers) if arms.small_arms(state, e) else []


def _has_work(state: State, e: Element) -> bool:
    if fieldworks.working(state, e):  # digging in or camouflaging: nothing else (p9, p39)
        return False
    return (
        bool(targets(state, e))
        or bool(backtracks(state, e))
        or bool(smoke.templates(state, e))
        or bool(_flame_targets(state, e))
        or bool(_crew_targets(state, e))
        or bool(_passenger_targets(state, e))
    )


def legal(state: State, side: str) -> list[dict[str, Any]]:
    e = _current(state)
    if e is None or e.side != side:
        return []
    out: list[dict[str, Any]] = [{"type": "hold", "unit": e.id}]
    for t in targets(state, e):
        alias = state.aliases.alias(side, t.id)
        out.append({"type": "fire", "unit": e.id, "target": alias})
        if _area(state, e, t, (t.x, t.y)):  # HE at a building: a floor may be named (p32)
            for f in floor_zone.choices(state, e, (t.x, t.y)):
                out.append({"type": "fire", "unit": e.id, "target": alias, "floor": f})
    for t, cm in backtracks(state, e):
        alias = state.aliases.alias(side, t.id)
        out.append({"type": "fire", "unit": e.id, "target": alias, "at": cm})
    for t in _flame_targets(state, e):
        out.append({"type": "flame", "unit": e.id, "target": state.aliases.alias(side, t.id)})
    for t in _crew_targets(state, e):
        alias = state.aliases.alias(side, t.id)
        out.append({"type": "fire", "unit": e.id, "target": alias, "crew": True})
    for t in _passenger_targets(state, e):
        alias = state.aliases.alias(side, t.id)
        out.append({"type": "fire", "unit": e.id, "target": alias, "passengers": True})
    return out + smoke.templates(state, e)


# ----------------------------------------------------------------------------- commands
def _moving(t: Element, xy: tuple[float, float], firer: Element) -> str:
    if t.moved <= 0:
        return "none"
    rb = abs(relative_bearing(xy, t.facing, (firer.x, firer.y)))
    along = rb <= 45 or rb >= 135
    if along:
        return "over15_to_from" if t.moved > 15 else "none"
    return "across_over15" if t.moved > 15 else "across_under15"


def _at(state: State, e: Element, t: Element, at: float | None) -> tuple[float, float]:
    """Where on its path this turn the target is fired at (backtracking, p6): a point the
    firer itself saw the target pass (along_move.py; P284), or where it stands now."""
    if at is None:
        return t.x, t.y
    if at > t.moved + 1e-6:
        raise IllegalCommand(f"at={at:g} cm is beyond the move you saw it make this turn", "at")
    if abs(at - t.moved) <= 1e-6 and t.id in state.spotted.get(e.id, {}):
        return t.x, t.y  # where it stopped, observed now
    if not t.path or not along_move.saw(state, e.id, t.id, at):
        raise IllegalCommand(
            f"{e.name} did not observe the target at that point of its move (p6, p8)", "at"
        )
    return movement.point_at(t.path, at)


def _firer(state: State, side: str, cmd: dict[str, Any]) -> Element:
    """The element whose turn it is to fire, if it is `side`'s and the command names it."""
    e = _current(state)
    if e is None or e.side != side or cmd.get("unit") != e.id:
        who = f"{e.name} ({e.id})" if e is not None and e.side == side else "none of yours"
        raise IllegalCommand(f"it is not that element's turn to fire; the next is {who}", "unit")
    return e


def _aim(state: State, side: str, cmd: dict[str, Any]) -> tuple[Element, Element, Any]:
    """A fire command checked as given: the firer, its target and the point it is engaged at."""
    e = _firer(state, side, cmd)
    busy = melee_groups.why_not_firer(state, e)
    if busy:
        raise IllegalCommand(busy, "unit")
    if cmd.get("at") is None:
        t = turn.observed(state, side, cmd.get("target"))
        if e.has("shaken") and t not in targets(state, e):
            raise IllegalCommand(
                f"{e.name} is Shaken: it fires only at elements that fired on it (p24)", "target"
            )
        if t.id not in state.spotted.get(e.id, {}):
            raise IllegalCommand(
                f"{e.name} itself does not observe that target (p13, p28)", "target"
            )
    else:  # backtracking: a mover this side saw, perhaps out of sight now
        t = turn.seen_once(state, side, cmd.get("target"))
        if e.has("shaken"):
            raise IllegalCommand(f"{e.name} is Shaken: it fires only back (p24)", "target")
    xy = _at(state, e, t, cmd.get("at"))
    if cmd.get("crew") and cmd.get("passengers"):
        raise IllegalCommand(
            "fire at the crew or at the passengers, not both: one target a shot (p13)", "passengers"
        )
    check = (
        flame.why_not
        if cmd.get("type") == "flame"
        else _can_hit_crew
        if cmd.get("crew")
        else _can_hit_passengers
        if cmd.get("passengers")
        else _can_hit
    )
    why = check(state, e, t, xy)
    if why:
        raise IllegalCommand(why, "target")
    return e, t, xy


def odds(state: State, side: str, cmd: dict[str, Any]) -> dict[str, Any]:
    """The exact odds of a direct-fire command before it is given, checked as the command
    would be, from what `side` may know (its firer, a target it observes). HE area fire at
    infantry beyond small-arms reach rolls once per element in the zone: no single preview."""
    if state.phase != "G" or cmd.get("type") not in ("fire", "flame"):
        raise IllegalCommand("odds are offered for fire and flame commands in phase G", "type")
    e, t, xy = _aim(state, side, cmd)
    crew = _aboard(cmd)
    if t.kind == "infantry" and not _small_arms_reach(state, e, _range(e, xy)):
        raise IllegalCommand("no single preview of HE area fire: one roll per element", "target")
    flamed = cmd["type"] == "flame"
    if flamed and _burns(state, e, t):
        raise IllegalCommand("no single preview of a flame arc: one roll per element", "target")
    fn, situation = _resolution(state, e, t, xy, flamed, crew)
    dist = exact(fn, state.rules, situation)
    order = sorted(dist.probs, key=lambda k: -dist.probs[k])
    exact_ = dist.exact_strings()
    return {
        "outcomes": {str(k): float(dist.probs[k]) for k in order},
        "exact": {str(k): exact_[k] for k in order},
        "placeholders": sorted(dist.placeholders),
    }


def resolve(state: State, side: str, cmd: dict[str, Any], rng: random.Random) -> list[Draft]:
    if cmd["type"] == "hold":
        return [Draft("hold", {"unit": _firer(state, side, cmd).id}, (side,))]
    if cmd["type"] == "smoke":
        e = _firer(state, side, cmd)
        drafts, hits = smoke.resolve(state, side, e, cmd, rng)
        return drafts + _zone_drafts(state, e, hits, None)
    e, t, xy = _aim(state, side, cmd)
    aimed = _floor(state, e, t, xy, cmd)
    drafts: list[Draft] = []
    if e.has("pinned"):
        res = sample(morale_tests.break_pin, state.rules, e, rng=rng)
        if res.result.name != "acts":
            return [Draft("hold", {"unit": e.id, "pinned": True}, (side,), tuple(res.lines()))]
        drafts.append(Draft("pin_broken", {"unit": e.id}, (side,), tuple(res.lines())))
        drafts += orders_cover.fire_on(state, e, rng)  # the CF fires as it does (p17)
        if orders_cover.killed(drafts):  # it falls before it can fire
            return drafts + [Draft("hold", {"unit": e.id, "pinned": True}, (side,))]
    flamed = cmd["type"] == "flame"
    if flamed and _burns(state, e, t):
        return drafts + _flame_arc(state, side, e, t, xy, cmd, rng)
    if not flamed and _area(state, e, t, xy):
        return drafts + _he(state, side, e, t, xy, cmd, rng, aimed)
    crew = _aboard(cmd) if not flamed else None
    res = _roll(state, e, t, xy, rng, flamed, crew)
    result = res.result.name
    lines = tuple(res.lines()) + _placeholders(res) + towing.horse_note(state, t)
    at_xy = list(xy) if (xy != (t.x, t.y)) else None
    mine = {"unit": e.id, "target": state.aliases.alias(side, t.id), "result": result,
            "at_xy": at_xy, "at": cmd.get("at")}  # fmt: skip
    if crew:
        mine[crew] = True  # small arms at the AFV's crew (p17) or its passengers (p16-17)
    if flamed or (t.kind == "afv" and flame.is_flamethrower(state, e)):
        mine["flame"] = True
    enemy = t.side
    spotted_by = _spotted_by(state, enemy, e)
    notice = {"unit": t.id, "result": result, "at_xy": at_xy,
              "by": state.aliases.alias(enemy, e.id) if spotted_by else None}  # fmt: skip
    drafts += [Draft("shot", mine, (side,), lines), Draft("shot_at", notice, (enemy,), lines)]
    return drafts


def _aboard(cmd: dict[str, Any]) -> str | None:
    """Who aboard an AFV a `fire` command aims its small arms at: "crew", "passengers" or None
    (the vehicle itself)."""
    return "crew" if cmd.get("crew") else "passengers" if cmd.get("passengers") else None


def _area(state: State, e: Element, t: Element, xy: tuple[float, float]) -> bool:
    """Whether a `fire` at `t` at `xy` is HE direct area fire: infantry beyond small arms."""
    return t.kind == "infantry" and not _small_arms_reach(state, e, _range(e, xy))


def _floor(state: State, e: Element, t: Element, xy, cmd: dict) -> floor_zone.Aim | None:
    """The floor a `fire` command's HE is aimed at (p32, P338), checked before any die is
    rolled; None when it names none."""
    floor = cmd.get("floor")
    if floor is None:
        return None
    if not _area(state, e, t, xy):
        raise IllegalCommand(
            f"{e.name} fires small arms or its gun at that target, not HE area fire: a floor is "
            "named only for area fire (p32)", "floor")  # fmt: skip
    why = floor_zone.why_not(state, e, xy, floor)
    if why:
        raise IllegalCommand(why, "floor")
    return floor_zone.aim(state, xy, floor)


def _he(
    state: State, side: str, e: Element, t: Element, xy, cmd: dict, rng,
    aimed: floor_zone.Aim | None = None,
) -> list[Draft]:  # fmt: skip
    """HE direct area fire at an infantry target (area.py): one roll per element in the zone,
    or only on the floor `aimed` at in its building (p32); the firer's side is told the rolls
    at the elements it observes, each victim its own. The aimed-at target on another floor is
    outside the zone."""
    hits = area.fire(state, e, xy, rng, aimed=aimed)
    result = next((r for el, r, _ in hits if el.id == t.id), "outside" if aimed else "survives")
    seen = state.seen.get(side, ())
    lines = floor_zone.note(aimed) + tuple(
        line for el, _, res in hits if el.id in seen
        for line in (f"{el.kind} in the beaten zone:", *res.lines(), *_placeholders(res),
                     *towing.horse_note(state, el))
    )  # fmt: skip
    at_xy = list(xy) if (xy != (t.x, t.y)) else None
    mine = {"unit": e.id, "target": state.aliases.alias(side, t.id), "result": result,
            "at_xy": at_xy, "at": cmd.get("at"), "he": True}  # fmt: skip
    if aimed:
        mine["floor"] = aimed["floor"]
    return [Draft("shot", mine, (side,), lines)] + _zone_drafts(state, e, hits, (t.id, at_xy))


def _burns(state: State, e: Element, t: Element) -> bool:
    """A flame command at a soft target by a flamethrower: the arc attack (p16)."""
    return t.kind != "afv" and flame.weapon(state, e) != "molotov"


def _flame_arc(state: State, side: str, e: Element, t: Element, xy, cmd: dict, rng) -> list[Draft]:
    """A flamethrower at soft targets (flame.py, p16): one roll per enemy element in its arc;
    the firer is told the rolls at the elements its side observes, each victim its own."""
    hits = flame.burn(state, e, rng)
    seen = state.seen.get(side, ())
    aimed = next((r for el, r, _ in hits if el.id == t.id), "lost_0")
    lines = tuple(line for el, _, res in hits if el.id in seen
                  for line in (f"{el.kind} in the flame's arc:", *res.lines(), *_placeholders(res)))  # fmt: skip
    mine = {"unit": e.id, "target": state.aliases.alias(side, t.id), "result": aimed,
            "at_xy": None, "at": None, "he": True, "flame": True}  # fmt: skip
    return [Draft("shot", mine, (side,), lines)] + _zone_drafts(state, e, hits, None, flamed=True)


def _zone_drafts(
    state: State, e: Element, hits: list, aimed: tuple | None, flamed: bool = False
) -> list[Draft]:
    """A beaten zone's rolls land (the umpire's record, HE or WP) and each enemy element in it
    is told its own result; `aimed`: the aimed-at element and the point of its path;
    `flamed`: a flamethrower's arc (every unit it reached tests morale, p23)."""
    if not hits:
        return []
    at = {aimed[0]: aimed[1]} if aimed else {}
    extra = {"src": e.id, "flame": True} if flamed else {"src": e.id}
    drafts = [Draft("area_hits", {"results": [{"target": el.id, "result": r, "at": at.get(el.id)}
                                              | extra for el, r, _ in hits]}, ())]  # fmt: skip
    enemy = state.enemy(e.side)
    spotted_by = _spotted_by(state, enemy, e)
    for el, r, res in hits:
        notice = {"unit": el.id, "result": r, "at_xy": None, "he": True,
                  "by": state.aliases.alias(enemy, e.id) if spotted_by else None}  # fmt: skip
        drafts.append(Draft("shot_at", notice, (enemy,), tuple(res.lines())))
    return drafts


def _spotted_by(state: State, side: str, e: Element) -> bool:
    return any(e.id in tg for o, tg in state.spotted.items() if state.elements[o].side == side)


def _placeholders(res: Any) -> tuple[str, ...]:
    return tuple(f"placeholder used: {p}" for p in sorted(res.placeholders))


def _roll(state: State, e: Element, t: Element, xy: tuple[float, float], rng: random.Random,
          flamed: bool = False, crew: str | None = None):  # fmt: skip
    fn, situation = _resolution(state, e, t, xy, flamed, crew)
    return sample(fn, state.rules, situation, rng=rng)


def _resolution(
    state: State,
    e: Element,
    t: Element,
    xy: tuple[float, float],
    flamed: bool = False,
    crew: str | None = None,
) -> tuple[Any, Any]:
    """The rules core's resolution of this shot and its situation (infantry or AT fire; a
    flame command: the flame roll at an AFV, or a Molotov's throw; `crew`: small arms at an
    AFV's "crew", p17, or at its "passengers", p16-17)."""
    dist = _range(e, xy)
    if crew == "crew":
        return crew_rules.crew_fire, crew_fire.shot(state, e, t, xy)
    if crew == "passengers":
        return passenger_rules.passenger_fire, passenger_fire.shot(state, e, t, xy)
    if flamed and flame.weapon(state, e) == "molotov":
        return flame_rules.molotov, flame_rules.Throw(
            _at_shot(state, e, t, xy, flame.molotov_weapon(state, e)), flame.attack(state, e, t, xy)
        )
    if flamed:
        return flame_rules.flame, flame.attack(state, e, t, xy)
    if t.kind == "infantry" or softskin.by_small_arms(state, e, t, dist):
        team = arms.small_arms(state, e)
        assert team is not None
        return infantry_fire.infantry_fire, arms.small_arms_fire(state, e, t, xy, team)
    if t.kind == "afv" and flame.is_flamethrower(state, e):
        return flame_rules.flame, flame.attack(state, e, t, xy)
    gun = arms.main_gun(state, e)
    assert gun is not None
    return at_fire.at_fire, _at_shot(state, e, t, xy, gun)


def _at_shot(state: State, e: Element, t: Element, xy: tuple[float, float], gun: Any) -> Any:
    """The rules core's AT shot of `gun` from `e` at `t` at `xy` (pp. 29-31)."""
    dist = _range(e, xy)
    prior = next((k for k in ("gun_damaged", "hull_damaged") if t.has(k)), "none")
    prior = {"gun_damaged": "gun_damaged", "hull_damaged": "immobilised"}.get(prior, "none")
    if t.has("stunned"):
        prior = "stunned_2" if t.counters["stunned"] > 1 else "stunned_1"
    shots = state.phase_data.get("shots", {}).get(f"{e.id}>{t.id}", 0)
    if towing.firing_limbered(e):
        shots = 0  # no second-shot bonus from an unsteady platform (p33)
    s = at_fire.Shot(
        gun, target_of(state.rules.cat, t.type), dist, facing=crew_fire.hull_arc(t, xy, e),  # type: ignore[arg-type]
        troop_class=e.troop_class, firer_moved=e.moved > 5,
        target_moving=_moving(t, xy, e),  # type: ignore[arg-type]
        cover="hull_down" if t.has("dug_in") else "none", shots_before=shots,
        target_stationary=t.moved == 0, prior=prior, commander_killed=e.has("commander_killed"),
    )  # fmt: skip
    return s


# ----------------------------------------------------------------------------- automatic
def automatic(state: State, rng: random.Random) -> list[Draft]:
    if _flush_due(state):
        return [Draft("volley", {"results": list(state.phase_data["buffer"])}, ())]
    e = _current(state)
    if e is not None:
        if e.lost or e.has("stunned") or not _has_work(state, e):
            return [Draft("fire_skipped", {"unit": e.id}, (e.side,))]
        return []
    return melee.automatic(state, rng)
