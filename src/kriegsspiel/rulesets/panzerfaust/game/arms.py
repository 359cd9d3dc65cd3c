"""What an element fires with, read from its data record: an infantry team's own fire
factors (p15), an AFV's machine guns as an LMG team (p17: AFV crews' MGs fire as LMG teams,
belt-fed for Germany, Britain and the USA, magazine otherwise), a gun or AFV's main gun for
AT fire (p29), and the weapons that may give covering fire (p17)."""

from __future__ import annotations

from typing import Any

from ....data.errors import RuleError
from ..models import AFV, InfantryTeam, InfantryWeapon
from ..rules import infantry_fire, teams
from ..rules.weapons import Weapon, firer_weapon, infantry_weapon
from . import fieldworks
from .state import Element, State

CF_KINDS = {"smg": "smg", "assault rifle": "assault_rifle", "lmg": "lmg", "bar": "lmg",
            "mmg": "mmg", "hmg": "hmg"}  # fmt: skip
BELT = ("germany", "britain", "usa_europe", "usa_pacific")


def small_arms(state: State, e: Element) -> InfantryTeam | None:
    """The team whose fire factors `e` fires small arms with (None: it has none)."""
    memo = state.cache.setdefault("small_arms", {})
    key = (e.type, e.side)
    if key not in memo:
        memo[key] = _small_arms(state, e)
    return memo[key]


def _small_arms(state: State, e: Element) -> InfantryTeam | None:
    rec = state.records[e.id]
    cat = state.rules.cat
    if isinstance(rec, InfantryTeam):
        t = teams.team(cat, rec.id)
        return t if t.fire_factors and any(t.fire_factors) else None
    if isinstance(rec, AFV) and any(m.mg for m in rec.armament):
        feed = "belt" if state.nations.get(e.side) in BELT else "mag"
        return teams.team(cat, f"common/lmg-team-{feed}")
    return None


def main_gun(state: State, e: Element) -> Weapon | None:
    """The gun `e` fires at vehicles and guns with (None: none in the data)."""
    rec = state.records[e.id]
    weapon_team = isinstance(rec, InfantryWeapon)
    if (e.kind not in ("afv", "gun", "motorised_gun") and not weapon_team) or e.has("gun_damaged"):
        return None
    memo = state.cache.setdefault("guns", {})
    if e.type not in memo:
        try:
            if weapon_team and (
                rec.weapon_kind == "incendiary" or "molotov" in rec.name.casefold()
            ):
                memo[e.type] = None  # Molotovs are thrown by the flame command (flame.py, p21)
            elif weapon_team:  # an infantry AT weapon fires by the AT procedure (p19)
                memo[e.type] = infantry_weapon(state.rules.cat, e.type)[0]
            else:
                memo[e.type] = firer_weapon(state.rules.cat, e.type)[0]
        except (RuleError, LookupError):
            memo[e.type] = None
    return memo[e.type]


def cover_weapons(state: State, e: Element) -> dict[str, int]:
    """The weapons `e` may give covering fire with (p17), by kind and count."""
    rec: Any = state.records[e.id]
    if isinstance(rec, InfantryTeam):
        kind = CF_KINDS.get((rec.weapon or "").casefold())
        return {kind: 1} if kind else {}
    if isinstance(rec, AFV):
        out: dict[str, int] = {}
        for m in rec.armament:
            if m.mg:
                k = m.mg.casefold()
                out[k] = out.get(k, 0) + max(m.count, 1)
        return out
    return {}


def reach(state: State, team: InfantryTeam) -> float:
    """The longest range at which the team's small arms have a fire factor above 0 (p15)."""
    rec = state.rules.bands("infantry-fire-range-bands")
    best = 0.0
    for i, ff in enumerate(team.fire_factors):
        edge = rec.edges_cm[i] if i < len(rec.edges_cm) else None
        if ff and edge is not None:
            best = max(best, float(edge))
    return best


def small_arms_fire(
    state: State, e: Element, t: Element, xy: tuple[float, float], team: InfantryTeam
) -> infantry_fire.Fire:
    """The rules core's situation of `e` firing `team`'s fire factors (p15-16) at `t` at `xy`."""
    import math

    mv = "over10" if t.moved > 10 else "over5" if t.moved > 5 else "none"
    soft = t.kind == "softskin"
    return infantry_fire.Fire(
        ((team, 1),), math.dist((e.x, e.y), xy), cover="none" if soft else fieldworks.small_arms_cover(state, t, xy),  # type: ignore[arg-type]
        target_moving=mv, firer_moved=e.moved > 0, troop_class=e.troop_class,  # type: ignore[arg-type]
        weather="clear", under_covering_fire=e.has("pinned"), in_softskin=soft,
    )  # fmt: skip
