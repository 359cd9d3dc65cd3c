"""Flame weapons in phase G (p16, p21; decisions P193, P290): the man-pack flamethrower team
(its record's weapon), an AFV whose chart armament names a flamethrower ("F/Thr", reach 10 cm
Soviet and Axis, 15 cm British and American, by the record's nation), and a Molotov team (the
Molotov cocktail record placed as a team, Soviet and Finnish lists).

A flamethrower that moved at most half its move flames, in its 30 degree arc (centred on the
team's or vehicle's front) and reach, either one AFV (the rules core's 1D6 roll: +2 open-topped
or +1 light tank, +1 flamed before) or, at a soft target, every enemy infantry element, gun and
softskin even partly in the arc, each by the flamethrower's fire factors (p16). A Molotov is
thrown at one AFV or softskin within 5 cm like an infantry AT weapon; a hit rolls the flame
table at -1 (p21); it does nothing to men. An AFV once reached by flame keeps the `flamed`
counter (+1 to later flame rolls at it, not cumulative, p21)."""

from __future__ import annotations

import math
import random
from typing import Any

from ....chance import sample
from ....geometry.footprint import relative_bearing
from ..models import AFV, InfantryTeam, InfantryWeapon
from ..rules import flame, infantry_fire, teams
from . import arms
from .build import speeds
from .state import Element, State

HALF_ARC = 15.0  # degrees either side of the front (p21: a 30 degree arc)
BASE_RADIUS = 2.0  # cm: half a 40 mm base (p11); a target partly in the arc is affected (p16)
UK_US = ("britain", "usa_europe", "usa_pacific")  # p21: the longer-reaching vehicle flame
SOFT = ("infantry", "gun", "softskin", "motorised_gun")  # p16: men, guns, softskins
VEHICLE_TEAM = {  # the fire factors of vehicle flamethrowers (p15 Infantry Weapons Table)
    "vehicle_soviet_axis": "common/flame-thrower-afv-soviet-axis",
    "vehicle_uk_us": "common/flame-thrower-afv-uk-usa",
}
MOLOTOV = "common/molotov-cocktail"  # the p20 Flame Weapons row
NAMES = {"man_pack": "flamethrower's", "vehicle_soviet_axis": "flamethrower's",
         "vehicle_uk_us": "flamethrower's", "molotov": "Molotovs'"}  # fmt: skip


def weapon(state: State, e: Element) -> str | None:
    """`e`'s flame weapon, as the rules core names it (rules/flame.py RANGE), or None."""
    memo = state.cache.setdefault("flame_weapon", {})
    if e.type not in memo:
        memo[e.type] = _weapon(state.records[e.id])
    return memo[e.type]


def _weapon(rec: Any) -> str | None:
    if isinstance(rec, InfantryTeam) and rec.weapon == "flamethrower":
        return "man_pack"
    if isinstance(rec, InfantryWeapon) and (
        rec.weapon_kind == "incendiary" or "molotov" in rec.name.casefold()
    ):
        return "molotov"
    if isinstance(rec, AFV) and any("f/thr" in m.raw.casefold() for m in rec.armament):
        return "vehicle_uk_us" if rec.nation in UK_US else "vehicle_soviet_axis"
    return None


def is_flamethrower(state: State, e: Element) -> bool:
    """A man-pack flamethrower team (its `fire` at an AFV is a flame attack, P193)."""
    return e.kind == "infantry" and weapon(state, e) == "man_pack"


def reach(w: str) -> float:
    return float(flame.RANGE[w])


def partly_in_arc(e: Element, xy: tuple[float, float]) -> bool:
    """Whether a base centred at `xy` is at least partly inside `e`'s 30 degree arc (p16)."""
    d = math.dist((e.x, e.y), xy)
    if d <= BASE_RADIUS:
        return True
    widen = math.degrees(math.asin(min(1.0, BASE_RADIUS / d)))
    return abs(relative_bearing((e.x, e.y), e.facing, xy)) <= HALF_ARC + widen + 1e-9


def why_not(state: State, e: Element, t: Element, xy: tuple[float, float]) -> str | None:
    """Why `e` cannot use its flame weapon on `t` at `xy`, or None (p16, p21)."""
    w = weapon(state, e)
    if w is None:
        return f"{e.name} has no flamethrower or Molotovs"
    if w == "molotov" and t.kind not in ("afv", "softskin"):
        return f"{e.name}: Molotovs have no effect on men, only on AFVs and softskins (p21)"
    if t.kind not in ("afv", *SOFT):
        return f"{e.name}: that target cannot be flamed"
    if math.dist((e.x, e.y), xy) > reach(w):
        return f"{e.name}: the target is beyond its {NAMES[w]} {reach(w):g} cm (p21)"
    if w == "molotov":
        return None
    if t.kind == "afv":
        if abs(relative_bearing((e.x, e.y), e.facing, xy)) > HALF_ARC + 1e-9:
            return f"{e.name}: the target is outside the flamethrower's 30 degree arc (p21)"
    elif not partly_in_arc(e, xy):
        return f"{e.name}: the target is outside the flamethrower's 30 degree arc (p16)"
    if e.moved > speeds(state.records[e.id])[0] / 2:
        return f"{e.name} moved over half its move: it cannot use its flamethrower (p21)"
    return None


def attack(state: State, e: Element, t: Element, xy: tuple[float, float]) -> Any:
    """The rules core's situation of a flame roll at the AFV `t` (P193: light tank = size A or
    B; P290: flamed before = the target carries the `flamed` counter)."""
    rec = state.records[t.id]
    w = weapon(state, e) or "man_pack"
    return flame.FlameAttack(
        w, math.dist((e.x, e.y), xy), open_topped="top" in getattr(rec, "open", []),
        light_tank=t.size in ("A", "B"), flamed_before=t.has("flamed"),
    )  # fmt: skip


def soft_targets(state: State, e: Element) -> list[Element]:
    """Every enemy soft target a flamethrower's arc attack reaches now (p16): within reach
    (centre to centre) and even partly in the arc; passengers burn with their softskin."""
    w = weapon(state, e)
    assert w is not None and w != "molotov"
    out = []
    for t in state.elements.values():
        if t.side == e.side or not t.active or t.kind not in SOFT:
            continue
        xy = (t.x, t.y)
        if math.dist((e.x, e.y), xy) <= reach(w) and partly_in_arc(e, xy):
            out.append(t)
    return sorted(out, key=lambda t: (math.dist((e.x, e.y), (t.x, t.y)), t.id))


def burn(state: State, e: Element, rng: random.Random) -> list[tuple[Element, str, Any]]:
    """The arc attack: one roll of the flamethrower's fire factors at each soft target (p16)."""
    w = weapon(state, e)
    assert w is not None
    team = teams.team(state.rules.cat, VEHICLE_TEAM.get(w, state.records[e.id].id))
    hits = []
    for t in soft_targets(state, e):
        f = arms.small_arms_fire(state, e, t, (t.x, t.y), team)
        res = sample(infantry_fire.infantry_fire, state.rules, f, rng=rng)
        hits.append((t, res.result.name, res))
    return hits


def molotov_weapon(state: State, e: Element) -> Any:
    """The Molotov's weapon as an infantry AT weapon: the p20 table's row (to-hit, bands); the
    national equipment rows (ussr, finland) only price it."""
    from ..rules.weapons import infantry_weapon

    return infantry_weapon(state.rules.cat, MOLOTOV)[0]
