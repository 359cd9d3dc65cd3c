"""Armoured and AT-gun direct fire (digest §3.28-§3.29, §3.33): band by barrel class, to-hit
modifiers (leader, hull down, turret turn, ammunition), natural 20 jams, then location and
penetration with the AP range fall-off."""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ....chance import Cite, Lookup, Modifier, Note, Outcome, Roll, Sub
from ....data.errors import RuleError
from .armour import Impact, impact
from .artillery import calibre_mod
from .core import Rules, d20_under, quality_of
from .effects import Target, cover_mods, effect_roll
from .grenades import ring_at

BANDS = ("PB", "SHORT", "EFF", "LONG", "EXT")
AMMO = ("AP", "APCR", "HEAT", "HE")
TURRET_TURN = ("none", "45", "90", "180")


@dataclass(frozen=True)
class Gun:
    """What fires: a vehicle's main gun or a towed gun (the fields the rules read)."""

    name: str
    gun_mm: int
    barrel: str
    pen: tuple[tuple[str, int | None], ...]
    turret: str = "N"
    placeholders: tuple[str, ...] = ()
    artillery: bool = False
    gyro: bool = False
    t34: bool = False
    he_size: str = "medium"


@dataclass(frozen=True)
class Shot:
    gun: Gun
    range: float
    target: Impact  # pen is filled in by the shot
    ammo: str = "AP"
    quality: str = "regular"
    leadership: int = 0
    aimed: bool = False
    on_move: bool = False
    moved_previous: bool = False
    buttoned_up: bool = False
    no_commander: bool = False
    no_target: bool = False
    zeroed: bool = False
    shots_before: int = 0  # acquired target: 2nd shot -1, 3rd and later -2
    target_moving: str = "none"  # none | front_rear | side:<inches>
    light_woods: bool = False
    turret_turn: str = "none"
    turret_turned_before: bool = False  # T-34 M1941 only


def gun_band(rules: Rules, barrel: str, rng: float) -> Generator[Any, Any, str]:
    if rng < 0:
        raise RuleError(f"range {rng}: must be positive")
    for b in BANDS:
        limit = yield from rules.get("gun_bands", barrel, b)
        if limit is None or rng <= limit:
            return b
    return "beyond"


def to_hit_mods(rules: Rules, s: Shot) -> Generator[Any, Any, list[Modifier]]:
    names: list[str] = []
    q = quality_of(s.quality)
    if q in ("green", "elite"):
        names.append(q)
    if s.aimed:
        names.append("aimed")
    if s.on_move:
        names.append("fire_on_move_gyro" if s.gun.gyro else "fire_on_move")
    elif s.moved_previous:
        names.append("moved_previous_gyro" if s.gun.gyro else "moved_previous")
    small_turret = s.gun.turret in ("1", "2")  # the commander works the gun (§3.28)
    if small_turret and not (s.buttoned_up and s.no_commander):
        yield Note("commander is the gunner: No Commander and Buttoned Up", "§3.28")
    if s.buttoned_up or small_turret:
        names.append("buttoned_up")
    if s.ammo in ("HEAT", "HE"):
        names.append("special_round")
    if s.no_commander or small_turret:
        names.append("no_commander")
    if s.zeroed:
        names.append("zeroed_in")
    if s.shots_before and not s.gun.artillery:
        names.append("acquired_2" if s.shots_before == 1 else "acquired_3")
    if s.target_moving == "front_rear":
        names.append("target_moving")
    names.append(f"size_{s.target.vehicle.size}")
    if s.light_woods:
        names.append("light_woods")
    if s.turret_turned_before and s.gun.t34:
        names.append("t34_turret_turned")
    mods = yield from rules.drms("tank_to_hit_mods", names)
    if s.target_moving.startswith("side:"):
        inches = float(s.target_moving.split(":", 1)[1])
        mods.append(Modifier("target moving across", int(inches // 3), "§3.29"))
        yield mods[-1]
    if s.leadership:
        mods.append(Modifier("tank leader directing", s.leadership, "§3.24"))
        yield mods[-1]
    if s.turret_turn != "none":
        if s.turret_turn not in TURRET_TURN:
            raise RuleError(f"turret turn {s.turret_turn!r}: expected one of {TURRET_TURN}")
        v = yield from rules.get("turret_turn", s.gun.turret, s.turret_turn)
        mods.append(Modifier(f"turret turned {s.turret_turn} deg", int(v), "§3.28"))
        yield mods[-1]
    return mods


def adjusted_pen(rules: Rules, s: Shot, b: str) -> Generator[Any, Any, int]:
    """The round's penetration with the AP/APCR range fall-off (HEAT and HE never fall off)."""
    pen = dict(s.gun.pen).get(s.ammo)
    if pen is None:
        raise RuleError(f"{s.gun.name} has no {s.ammo} penetration value")
    if s.ammo not in ("AP", "APCR"):
        return pen
    pct = yield from rules.get("pen_falloff", s.gun.barrel, b)
    exact = Fraction(pen) * (100 + pct) / 100
    out = int(exact) if rules.opts.pen_rounding == "down" else int(exact + Fraction(1, 2))
    if pct:
        yield Note(f"{s.ammo} {pen} {pct:+d}% at {b} = {out}", "§3.29")
    return out


def gun_number(rules: Rules, gun: Gun, rng: float) -> Generator[Any, Any, tuple[str, int] | None]:
    """The band and base to-hit number of a gun at a range (None: beyond its last band)."""
    if gun.placeholders:
        yield Cite(gun.placeholders)
    b = yield from gun_band(rules, gun.barrel, rng)
    if b == "beyond":
        yield Note(f"{rng:g} in is beyond the {gun.barrel} barrel's extreme band", "§3.29")
        return None
    number = yield from rules.get("gun_to_hit", "guns", b)
    yield Lookup("gun to-hit", f"{gun.barrel} {b}", number, "§3.29")
    return b, number


def tank_fire(rules: Rules, s: Shot) -> Generator[Any, Any, Outcome]:
    if s.ammo not in AMMO:
        raise RuleError(f"ammo {s.ammo!r}: expected one of {AMMO}")
    found = yield from gun_number(rules, s.gun, s.range)
    if found is None:
        return Outcome("miss")
    b, number = found
    mods = yield from to_hit_mods(rules, s)
    target = number - sum(m.value for m in mods)
    if s.no_target:
        target = rules.scale(target, Fraction(1, 2))
        yield Note(f"No Target: halved to {target}", "§3.29")
    roll = yield from d20_under(target, "gun to-hit", "§3.29")
    if roll == 20:
        yield Note("natural 20: the gun jams, no round fired", "§3.29")
        return Outcome("jam")
    if roll > target:
        return Outcome("miss")
    pen = yield from adjusted_pen(rules, s, b)
    imp = Impact(
        s.target.vehicle,
        s.target.facing,
        pen,
        heat=s.ammo == "HEAT",
        gun_mm=s.gun.gun_mm,
        hull_down=s.target.hull_down,
        leader_shift=s.target.leader_shift,
        skirts=s.target.skirts,
    )
    return (yield Sub(impact, (rules, imp), label="hit on the vehicle"))


@dataclass(frozen=True)
class HEShot:
    """A main gun's HE (or HEAT) round at a point where a figure stands (§3.32)."""

    gun: Gun
    range: float
    target: Target = Target()
    ammo: str = "HE"
    quality: str = "regular"
    mods: tuple[str, ...] = ()  # tank_to_hit_mods names (buttoned_up, moved_previous, ...)
    leadership: int = 0


def he_fire(rules: Rules, s: HEShot) -> Generator[Any, Any, Outcome]:
    """To-hit on the gun chart (+2 for the round); a hit centres the gun's HE template on the
    aim point (ring A on the figure there), a miss deviates d6 inches in a d8 direction (HEAT
    misses are ignored); the effect roll takes cover and the calibre modifier (BG-CAL)."""
    if s.ammo not in ("HE", "HEAT"):
        raise RuleError(f"ammo {s.ammo!r}: HE or HEAT against soft targets")
    found = yield from gun_number(rules, s.gun, s.range)
    if found is None:
        return Outcome("miss")
    number = found[1]
    names = [*s.mods, "special_round"]
    q = quality_of(s.quality)
    if q in ("green", "elite"):
        names.append(q)
    mods = yield from rules.drms("tank_to_hit_mods", names)
    if s.leadership:
        mods.append(Modifier("tank leader directing", s.leadership, "§3.24"))
        yield mods[-1]
    cal = yield from calibre_mod(rules, s.gun.gun_mm)
    if cal is not None and rules.opts.calibre_mods_on == "to_hit":
        mods.append(cal)
    target = number - sum(m.value for m in mods)
    roll = yield from d20_under(target, "gun to-hit", "§3.32")
    if roll == 20:
        return Outcome("jam")
    distance = 0
    if roll > target:
        if s.ammo == "HEAT":
            yield Note("a HEAT miss is ignored", "§3.32")
            return Outcome("miss")
        yield Roll("1d8", "deviation direction", "§3.32")
        distance = yield Roll("1d6", "deviation inches", "§3.32")
    ring = yield from ring_at(rules, s.gun.he_size, distance, smaller=s.ammo == "HEAT")
    if ring is None:
        return Outcome("no_effect")
    emods = yield from cover_mods(rules, s.target)
    if cal is not None and rules.opts.calibre_mods_on == "effect":
        emods.append(cal)
    return (yield from effect_roll(rules, ring, tuple(emods), f"ring {ring}"))
