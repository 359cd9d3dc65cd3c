"""Direct fire of guns at vehicles and guns (sheet L1/L3/L5/L6 charts, L2 Tank Hit Effect)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Literal

from ...chance import Cite, Lookup, Modifier, Note, Outcome, Roll, total
from ...data.errors import RuleError
from .models import Gun, Infantry, ToHitModifier, Vehicle
from .tables import P_TERRAIN, Rules

Aspect = Literal["front", "side", "rear"]
Moved = Literal["none", "half", "over_half"]
CHART_PAGE = {"germany": "L1", "ussr": "L3", "britain": "L5", "usa": "L6"}
OUTCOMES = ("miss", "ineffective", "tracked", "damaged", "ko")


@dataclass(frozen=True)
class Shot:
    """One direct-fire shot. `weapon`: "main", a key of the firer's alt_guns, or "hmg"."""

    firer: Vehicle | Infantry
    target: Vehicle
    range: float
    weapon: str = "main"
    aspect: Aspect = "front"
    target_moved: bool = False
    firer_moved: Moved = "none"
    firer_buttoned: bool = False
    firer_damaged: bool = False
    terrain: str | None = None
    hull_down: bool = False
    target_variant: str | None = None  # e.g. "late_armour" for the US M4


def weapon_of(firer: Vehicle | Infantry, weapon: str = "main") -> tuple[Gun, str]:
    """The gun a firer uses and the data path it came from."""
    if isinstance(firer, Infantry):
        if firer.hmg_at is None:
            raise RuleError(f"{firer.name} has no anti-tank attack")
        return firer.hmg_at, "hmg_at"
    if weapon == "main":
        if firer.gun is None or firer.gun.to_hit is None or firer.gun.pen is None:
            raise RuleError(f"{firer.name} has no gun that can fire at vehicles")
        return firer.gun, "gun"
    if weapon in firer.alt_guns:
        gun = firer.alt_guns[weapon]
        merged = Gun(
            range=gun.range or firer.gun.range,
            to_hit=gun.to_hit or firer.gun.to_hit,
            pen=gun.pen,
            he=gun.he,
        )
        return merged, f"alt_guns.{weapon}"
    raise RuleError(
        f"{firer.name} has no weapon {weapon!r}; it has main"
        + "".join(f", {k}" for k in firer.alt_guns)
    )


def band_of(gun: Gun, distance: float, who: str) -> int:
    band = gun.band(distance)
    if band is None:
        raise RuleError(f"{who}: range {distance:g} is beyond its longest band {gun.range[-1]}")
    return band


@lru_cache(maxsize=1024)  # exact odds replay a shot once per leaf of its tree
def movement_modifiers(
    rules: Rules,
    nation: str | None,
    target_moved: bool,
    firer_moved: Moved,
    firer_buttoned: bool,
    firer_damaged: bool,
) -> tuple[Modifier, ...]:
    """The to-hit modifiers printed under each nation's chart, plus Damaged +2 (L2); a tuple,
    shared by the calls alike (memoised)."""
    page = CHART_PAGE.get(nation or "", "L3")
    mods: list[Modifier] = []
    by_cond: dict[str, ToHitModifier] = {}
    if nation:
        for rec in rules.cat.all("to_hit_modifier"):
            if isinstance(rec, ToHitModifier) and rec.nation == nation:
                by_cond[rec.condition] = rec
    merged = nation == "germany" and rules.opts.german_buttoned == "merged"
    if merged:
        if target_moved or firer_buttoned:
            mods.append(Modifier("target moved and/or buttoned up", 1, page))
    else:
        if target_moved:
            mods.append(Modifier("target moved", 1, page))
        if firer_buttoned:
            mods.append(Modifier("firer buttoned up", 1, page))
    if firer_moved == "half":
        mods.append(Modifier("firer moved up to half", 1, page))
    elif firer_moved == "over_half":
        if rules.opts.firer_moved_over_half == "no_fire":
            raise RuleError(
                "a firer that moved more than half its move may not fire its gun "
                "(decision Q6; option firer_moved_over_half=plus_one allows it at +1)"
            )
        mods.append(Modifier("firer moved more than half", 1, page))
    if firer_damaged:
        mods.append(
            Modifier("firer damaged", int(rules.const("damaged-to-hit")), "L2 Tank Hit Effect")
        )
    return tuple(mods)


def terrain_modifier(
    rules: Rules, column: str, terrain: str | None, hull_down: bool = False, soft: bool = False
) -> list[Modifier]:
    """The single most protective terrain entry of a chart column (decision Q26)."""
    options = []
    for ident in ([terrain] if terrain else []) + (["hulldown"] if hull_down else []):
        t = rules.terrain(ident)
        value = (
            t.he_soft if (column == "he" and soft and t.he_soft is not None) else getattr(t, column)
        )
        if value is None:
            raise RuleError(
                f"{t.name}: the {column.upper()} column is N/A for this target (decision Q27)"
            )
        options.append(Modifier(f"{t.name} ({column.upper()})", value, P_TERRAIN))
    if not options:
        return []
    best = max(options, key=lambda m: m.value)
    return [best] if best.value else []


def armour_of(target: Vehicle, aspect: Aspect, variant: str | None = None) -> tuple[int, str]:
    if target.armour is None:
        return 0, "armour"
    armour = target.armour.model_dump()
    path = "armour"
    if variant:
        if variant not in target.variants:
            raise RuleError(f"{target.name} has no variant {variant!r}")
        armour.update({k: v for k, v in target.variants[variant].items() if k in armour})
        path = f"variants.{variant}"
    side = "front" if aspect == "front" else "side"  # no rear value: rear shots use side (Q8)
    return armour[side], f"{path}.{side}" if path == "armour" else path


def tank_hit_effect(rules: Rules, modifier: int, why: str, page: str = "L2 Tank Hit Effect"):
    """Roll d10 + modifier on the Tank Hit Effect table; returns the result name."""
    roll = yield Roll("1d10", f"hit effect ({why})", page)
    result, lookup = rules.tank_hit(roll + modifier)
    yield lookup
    return result


def direct_fire(rules: Rules, shot: Shot):
    """Fire a gun at a vehicle or gun: to-hit (roll-under, Q1), then Tank Hit Effect."""
    gun, gpath = weapon_of(shot.firer, shot.weapon)
    band = band_of(gun, shot.range, shot.firer.name)
    yield Cite.fields(shot.firer, f"{gpath}.range", f"{gpath}.to_hit", f"{gpath}.pen")
    nation = getattr(shot.firer, "nation", None)
    band_name = ("short", "long")[band] if len(gun.range) == 2 else "only"
    yield Note(f'{shot.firer.name} at {shot.range:g}": {band_name} band (to {gun.range[band]}")')
    mods = [
        *movement_modifiers(
            rules,
            nation,
            shot.target_moved,
            shot.firer_moved,
            shot.firer_buttoned,
            shot.firer_damaged,
        ),
        *terrain_modifier(rules, "at", shot.terrain, shot.hull_down),
    ]
    yield from mods
    need = gun.to_hit[band]
    yield Lookup("to-hit number", band_name, need, CHART_PAGE.get(nation or ""))
    roll = yield Roll("1d10", "to-hit", CHART_PAGE.get(nation or ""), at_most=need - total(mods))
    modified = roll + total(mods)
    if modified > need:
        yield Note(f"to-hit {roll}{total(mods):+d} = {modified} > {need}: miss")
        return Outcome("miss")
    yield Note(f"to-hit {roll}{total(mods):+d} = {modified} <= {need}: hit")
    armour, apath = armour_of(shot.target, shot.aspect, shot.target_variant)
    yield Cite.fields(shot.target, apath)
    pen = gun.pen[band]
    yield Note(f"penetration {pen} - {shot.aspect} armour {armour} = {pen - armour:+d}")
    result = yield from tank_hit_effect(rules, pen - armour, f"pen {pen} vs armour {armour}")
    return Outcome(result)


def _memo_key(rules: Rules, shot: Shot) -> tuple:
    """The odds of a shot depend on its range only through the band it falls in (the charts
    give one to-hit and one penetration per band), and a rear shot's are a side shot's (rear
    shots use side armour, Q8), so such shots share their exact odds (`chance.exact` memo)."""
    if shot.aspect == "rear":
        shot = replace(shot, aspect="side")
    try:
        gun, _ = weapon_of(shot.firer, shot.weapon)
    except RuleError:
        return (rules, shot)
    band = gun.band(shot.range)
    return (rules, shot) if band is None else (rules, replace(shot, range=gun.range[band]))


direct_fire.memo_key = _memo_key  # type: ignore[attr-defined]
