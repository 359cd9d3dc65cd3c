"""Morale (pp. 23-24): 2D6 plus the p23 variations -> OK (3+), Shaken (1-2) or Retreat (0 or
less); Shaken lasts 1D6 turns (elite re-roll 5-6, poor re-roll 1-2)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from ....chance import Lookup, Modifier, Note, Outcome, Roll, total
from .tables import Rules

P_VAR = "p23 morale test variations"
P_TABLE = "p24 Morale Reaction Table"
OUTCOMES = ("ok", "shaken", "retreat")


@dataclass(frozen=True)
class Test:
    rating: Literal["elite", "reliable", "poor"] = "reliable"
    teams_lost: int = 0
    subunits_shaken: int = 0
    subunits_lost: int = 0  # disabled, destroyed or retreating
    afv: bool = False
    commander_killed: bool = False
    afv_damaged: bool = False
    among_buildings: bool = False
    poor_visibility: bool = False
    out_of_radius: bool = False
    flame_or_air: bool = False
    indirect: Literal["none", "guns", "mortars"] = "none"
    pinned_or_lost_cqc: bool = False
    afv_no_at: bool = False
    hq_lost: bool = False
    hill_or_woods: bool = False
    dug_in: bool = False
    pillbox: bool = False
    night: bool = False
    prisoners_killed: bool = False
    duration: bool = False  # also roll how long a Shaken result lasts


def _m(rules: Rules, key: str, name: str, times: int = 1) -> Modifier:
    v = rules.modifier("morale-test-variations", key, "modifier") * times
    return Modifier(name, v, P_VAR)


def modifiers(rules: Rules, t: Test) -> list[Modifier]:
    m = []
    if t.rating in ("elite", "poor"):
        m.append(_m(rules, t.rating, t.rating))
    rows = [
        (t.teams_lost, "per_team_lost_in_squad_or_crew", "team(s) lost"),
        (t.subunits_shaken, "per_sub_unit_shaken", "sub-unit(s) shaken"),
        (t.subunits_lost, "per_sub_unit_disabled_destroyed_or_retreating", "sub-unit(s) lost"),
    ]
    for n, key, name in rows:
        if n:
            m.append(_m(rules, key, f"{n} {name}", n))
    flags = [
        (t.afv, "afv_crew_or_unit", "AFV unit"),
        (t.commander_killed, "afv_head_up_commander_killed", "head-up commander killed"),
        (t.afv_damaged, "afv_disabled_or_damaged", "AFV disabled or damaged"),
        (t.among_buildings, "afv_in_built_up_area", "AFVs among buildings"),
        (t.poor_visibility, "low_visibility_or_smoke", "poor visibility or smoke"),
        (t.out_of_radius, "outside_command_radius", "outside command radius"),
        (t.flame_or_air, "under_flame_or_aircraft_attack", "flame or air attack"),
        (t.indirect == "guns", "under_indirect_fire", "under indirect fire"),
        (t.indirect == "mortars", "under_indirect_fire_mortars", "under mortar fire"),
        (t.pinned_or_lost_cqc, "pinned_or_lost_cqc", "pinned or lost CQC"),
        (t.afv_no_at, "infantry_facing_afv_without_at", "AFV near, no AT weapon"),
        (t.hq_lost, "hq_destroyed_or_retreating", "own HQ destroyed or retreating"),
        (t.hill_or_woods, "defending_hill_or_woods", "defending a hill or woods"),
        (t.dug_in, "defending_dug_in_or_buildings", "dug in or in buildings"),
        (t.pillbox, "defending_pillbox_or_bunker", "in a pillbox or bunker"),
    ]
    m += [_m(rules, key, name) for on, key, name in flags if on]
    if t.night:
        m.append(Modifier("night", -3, "p11"))
    if t.prisoners_killed:
        m.append(Modifier("saw prisoners killed", 3, "p13"))
    return m


def result_of(value: int) -> str:
    return "ok" if value >= 3 else "shaken" if value >= 1 else "retreat"


def morale(rules: Rules, t: Test):
    """One morale test of a squad, crew, AFV, platoon or company."""
    mods = modifiers(rules, t)
    yield from mods
    roll = yield Roll("2d6", "morale test", P_TABLE)
    value = roll + total(mods)
    result = result_of(value)
    yield Lookup("Morale Reaction", f"{roll}{total(mods):+d} = {value}", result, P_TABLE)
    if result == "shaken" and t.duration:
        reroll = {"elite": {5, 6}, "poor": {1, 2}}.get(t.rating, set())
        turns = yield Roll("1d6", "shaken turns", "p24", reroll=frozenset(reroll))
        yield Note(f"shaken for {turns} turn(s)", "p24")
        return Outcome(f"shaken_{turns}")
    if result == "retreat":
        yield Note(
            "retreats at once; surrenders if within 20 cm of the enemy (in CQC: surrenders, "
            "unless the enemy does too: p19)",
            "p24",
        )
    return Outcome(result)


WORSE = {"ok": 0, "shaken": 1, "retreat": 2}


def cascade(rules: Rules, unit: Test, parent: Test):
    """The immediate cascade (p23): a unit's Shaken or Retreat makes its parent HQ (platoon ->
    company) test at once, with -1 for a Shaken sub-unit or -2 for a Retreating one; the HQ's
    result then stands for every sub-unit unless one already did worse. Outcome
    `platoon_<result>` or `platoon_<result>_company_<result>`."""
    yield Note("the unit tests", P_VAR)
    first = (yield from morale(rules, replace(unit, duration=False))).name
    if first == "ok":
        return Outcome("platoon_ok")
    yield Note(f"a {first} sub-unit: the parent HQ tests at once", P_VAR)
    bump = {"shaken": "subunits_shaken", "retreat": "subunits_lost"}[first]
    parent = replace(parent, duration=False, **{bump: getattr(parent, bump) + 1})
    second = (yield from morale(rules, parent)).name
    if WORSE[second] > WORSE[first]:
        yield Note(f"the HQ's {second} applies to its sub-units", P_VAR)
    return Outcome(f"platoon_{first}_company_{second}")


def break_pin(rules: Rules, t: Test):
    """A unit pinned by covering fire must pass a morale test (with the pinned -2) before it
    moves or fires (p17); if it then acts it takes the covering fire at -5 (infantry_fire with
    `speculative`)."""
    r = yield from morale(rules, replace(t, pinned_or_lost_cqc=True, duration=False))
    if r.name == "ok":
        yield Note("pin broken: the unit may move or fire, under the covering fire", "p17")
        return Outcome("acts")
    return Outcome(f"pinned_{r.name}")
