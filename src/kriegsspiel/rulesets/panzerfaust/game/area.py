"""Direct area fire with HE (pp. 31-33) in phase G: a gun or AFV with no small arms in reach
fires HE at an infantry target; every enemy soft element (infantry, towed gun, softskin) in the
beaten zone round that point rolls on its own (rules/area_fire.py). A gun cannot fire at a
point inside its own beaten zone (errata 3). Friendly elements in the zone are not rolled for
(decision P151). Fire aimed at one floor of a building rolls, in that building, only for the
teams on that floor (p32, floor_zone.py)."""

from __future__ import annotations

import math
import random
from typing import Any

from ....chance import sample
from ....data.errors import RuleError
from ..rules import area_fire
from ..rules.weapons import Weapon, area_weapon
from . import floor_zone
from .state import Element, State

SOFT = ("infantry", "gun", "softskin")
COVER = {"none": "none", "soft": "soft", "hard": "hard"}


def he_weapon(state: State, e: Element) -> Weapon | None:
    if e.kind not in ("afv", "gun", "motorised_gun") or e.has("gun_damaged"):
        return None
    memo = state.cache.setdefault("he", {})
    if e.type not in memo:
        try:
            memo[e.type] = area_weapon(state.rules.cat, e.type)[0]
        except (RuleError, LookupError):
            memo[e.type] = None
    return memo[e.type]


def in_building(state: State, xy: tuple[float, float]) -> bool:
    return any(state.board.kinds[f.id].sight == "inside_building" for f in state.board.at(*xy))


def why_not(state: State, e: Element, xy: tuple[float, float]) -> str | None:
    """Why `e` cannot fire HE at `xy`, or None."""
    w = he_weapon(state, e)
    if w is None:
        return f"{e.name} has no HE to fire at infantry"
    dist = math.dist((e.x, e.y), xy)
    if dist <= area_fire.radius(w):
        return f"{e.name} cannot fire HE inside its own beaten zone ({area_fire.radius(w)} cm, errata 3)"
    try:
        band, _, _ = state.rules.band(w.bands, dist, len(w.to_hit), w.name)
        w.need(band)
    except RuleError as err:
        return str(err)
    return None


def fire(
    state: State,
    e: Element,
    xy: tuple[float, float],
    rng: random.Random,
    wp: bool = False,
    aimed: floor_zone.Aim | None = None,
):
    """Every enemy soft element in the beaten zone: [(element, result name, explanation)];
    `wp`: the zone of a WP round, each rolled with its -2 (p33); a target inside smoke -1 (p32);
    `aimed`: the floor of a building the fire is aimed at (p32, floor_zone.py)."""
    from . import smoke  # smoke imports this module

    w = he_weapon(state, e)
    assert w is not None
    r = area_fire.radius(w, building=in_building(state, xy))
    dist = math.dist((e.x, e.y), xy)
    out: list[tuple[Element, str, Any]] = []
    for t in state.elements.values():
        if t.side == e.side or not t.active or t.kind not in SOFT:
            continue
        if not floor_zone.inside(state, xy, r, aimed, t):
            continue
        cover = "dug_in" if t.has("dug_in") else COVER[state.board.cover(t.x, t.y)]
        shot = area_fire.AreaShot(
            w, dist, troop_class=e.troop_class, size=t.size, cover=cover,  # type: ignore[arg-type]
            target_moving=t.moved > 0, firer_moved=e.moved > 5,
            building=in_building(state, (t.x, t.y)), shielded=t.kind == "gun", wp=wp,
            smoke=smoke.covers(state, (t.x, t.y)),
        )  # fmt: skip
        res = sample(area_fire.area_fire, state.rules, shot, rng=rng)
        out.append((t, res.result.name, res))
    return out
