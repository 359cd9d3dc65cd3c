"""Small-arms fire (digest §3.7-§3.11, §3.21): ROF to-hit d20s by range band, jams, hits
rolled on the weapon's Effects column; aimed shots, snipers, fire on the move, No Target,
spraying and pinning fire (one to-hit die per action in the zone)."""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from ....chance import Lookup, Modifier, Note, Outcome, Sub, Tally
from ....data.errors import RuleError
from ..models import SmallArm
from .checks import Check, skill_check
from .core import Rules, d20_under, quality_of
from .effects import CASUALTY, RESULTS, Target, cover_mods, effect_roll, worst

BANDS = ("PB", "EFF", "LONG", "EXT")
SHOT_OUTCOMES = ("miss", "jam", *RESULTS)
Mode = Literal["normal", "spray", "raking", "plunging"]


@dataclass(frozen=True)
class Fire:
    weapon: SmallArm
    range: float
    quality: str = "regular"
    target: Target = Target()
    light_wound: bool = False
    non_qualified: bool = False
    captured: bool = False
    leadership: int = 0  # directing leader's modifier (e.g. -2)
    aimed: bool = False
    sniper: bool = False
    on_move: bool = False  # passenger on a moving vehicle: target halved
    no_target: bool = False  # smoke, unseen area, pistol port: target halved
    crew_missing: int = 0
    mode: Mode = "normal"
    loader_morale: int = 10  # raking/plunging: a jam is checked on the loader's morale


def band(rules: Rules, w: SmallArm, rng: float) -> Generator[Any, Any, str | None]:
    """The band the range falls in; the weapon's range bonus widens every band but PB."""
    if rng < 0:
        raise RuleError(f"range {rng}: must be positive")
    for b in BANDS:
        limit = yield from rules.get("small_arms_bands", w.range_row, b)
        if b != "PB":
            limit += w.range_bonus
        if rng <= limit:
            return b
    return None


def jam_number(w: SmallArm, f: Fire) -> list[Modifier]:
    mods = []
    if f.quality == "green":
        mods.append(Modifier("green", -1, "§3.7"))
    if f.non_qualified:
        mods.append(Modifier("non-qualified", -2, "§3.7"))
    if f.captured:
        mods.append(Modifier("captured weapon", -2, "§3.7"))
    if f.crew_missing:
        mods.append(Modifier("missing crew", -f.crew_missing, "§3.9"))
    return mods


def to_hit_mods(rules: Rules, f: Fire) -> Generator[Any, Any, list[Modifier]]:
    names = []
    q = quality_of(f.quality)
    if q in ("green", "elite"):
        names.append(q)
    for flag in ("light_wound", "non_qualified", "captured", "aimed", "sniper"):
        if getattr(f, flag):
            names.append(flag)
    mods = yield from rules.drms("infantry_to_hit_mods", names)
    if f.leadership:
        lead = Modifier("directed fire (leadership)", f.leadership, "§3.2")
        yield lead
        mods.append(lead)
    return mods


def shot(rules: Rules, f: Fire) -> Generator[Any, Any, Outcome]:
    """One to-hit die and, on a hit, its effect roll (a `Sub`, so bursts stay small)."""
    b = yield from band(rules, f.weapon, f.range)
    if b is None:
        yield Note(f"{f.range:g} in is beyond the {f.weapon.name}'s extreme range", "§3.8")
        return Outcome("miss")
    number = yield from rules.get("to_hit_numbers", "small_arms", b)
    yield Lookup("to-hit", f"{f.weapon.range_row} {b}", number, "§3.8")
    mods = yield from to_hit_mods(rules, f)
    target = number - sum(m.value for m in mods)
    if f.on_move or f.no_target or f.mode == "spray":
        target = rules.scale(target, Fraction(1, 2))
        yield Note(f"target halved after modifiers: {target}", "§3.8")
    jam_mods = jam_number(f.weapon, f)
    jam = f.weapon.jam + sum(m.value for m in jam_mods)
    yield from jam_mods
    roll = yield from d20_under(target, "to-hit", "§3.8", (jam - 1,))
    if roll >= jam:
        yield Note(f"natural {roll} >= jam number {jam}: jammed", "§3.9")
        if f.mode in ("raking", "plunging"):
            c = Check(f.loader_morale, caused_by_fire=False)
            kept = yield Sub(skill_check, (rules, c), label="pinning jam: loader's skill check")
            if kept.name == "pass":
                yield Note("the loader clears it at once: no jam, the die misses", "§3.10")
                return Outcome("miss")
            yield Note("the jam lifts the pinning fire", "§3.10")
        return Outcome("jam")
    if roll > target:
        return Outcome("miss")
    return (yield Sub(hit_effect, (rules, f, b), label="effect of the hit"))


def hit_effect(rules: Rules, f: Fire, b: str) -> Generator[Any, Any, Outcome]:
    mods = yield from cover_mods(rules, f.target, prone_counts=f.mode != "plunging")
    if f.weapon.effect_mod:
        mods.append(Modifier(f"{f.weapon.name} effect", f.weapon.effect_mod, "§4.1"))
    if b == "PB":
        mods.append((yield from rules.drm("effect_mods", "point_blank")))
    if f.aimed:
        mods.append((yield from rules.drm("effect_mods", "aimed")))
    if f.sniper:
        mods.append((yield from rules.drm("effect_mods", "sniper")))
    return (yield from effect_roll(rules, f.weapon.effect, tuple(mods)))


def setup_actions(w: SmallArm, crew_missing: int = 0) -> int:
    """MG set-up (or breakdown) actions: the weapon's Set value, +1 per missing crewman
    (§3.11; the 1917A1 example: one man of three sets up in 5 actions)."""
    if w.set is None:
        raise RuleError(f"{w.name} needs no set-up")
    return w.set + crew_missing


def rof(f: Fire) -> int:
    """To-hit dice: ROF for a fire action; one die per action in a spray or pinning zone."""
    return 1 if f.mode != "normal" else f.weapon.rof


def burst(rules: Rules, f: Fire) -> Generator[Any, Any, Outcome]:
    """One fire action at one figure: ROF dice; the outcome is the worst result for the target
    (all hits on the same figure), with the jam flag and every count in the detail."""
    counts = yield Tally(shot, rof(f), (rules, f), label="to-hit die")
    jammed = counts["jam"] > 0
    if jammed and rules.opts.jam_voids_burst:
        yield Note("a die jammed: the burst is lost (option jam_voids_burst)", "§3.9")
        return Outcome("jam")
    results = [k for k, _ in counts if k not in ("miss", "jam")]
    if not results:
        return Outcome("jam" if jammed else "miss")
    return Outcome(worst(results), (("jammed", jammed), ("counts", tuple(counts))))


@dataclass(frozen=True)
class SquadFire:
    """A squad's fire action at a squad: (weapon fire, figures) groups; hits fall on distinct
    figures while any remain (decision BG-ALLOC). The outcome counts casualties (GD/KIA/HW)."""

    groups: tuple[tuple[Fire, int], ...]
    target_size: int = 10


def casualty_key(result: Outcome) -> str:
    """What squad fire counts of a die: a casualty (GD, KIA, HW), a jam, or nothing."""
    return "casualty" if result.name in CASUALTY else ("jam" if result.name == "jam" else "none")


def squad_fire(rules: Rules, s: SquadFire) -> Generator[Any, Any, Outcome]:
    lost = 0
    jams = 0
    for f, n in s.groups:
        counts = yield Tally(
            shot, rof(f) * n, (rules, f), label=f"{f.weapon.name} die", key=casualty_key
        )
        lost += counts["casualty"]
        jams += counts["jam"]
    lost = min(lost, s.target_size)
    return Outcome(f"casualties_{lost}", (("jammed_dice", jams),))
