"""Artillery (digest §3.33-§3.35): off-board contact and availability, on-board correction,
and impacts: a figure in a ring, a foxhole, an AFV struck on top."""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import Any, Literal

from ....chance import Modifier, Note, Outcome, Roll, Sub
from ....data.errors import RuleError
from .armour import Impact, hit_location, penetrate
from .core import Rules, d20_under
from .effects import Target, cover_mods, effect_roll

RINGS = ("A", "B", "C", "D", "E")


def offboard(rules: Rules, contact: int, available: int) -> Generator[Any, Any, Outcome]:
    """Spotter's call: d20 <= Contact, then d20 <= Availability; lands next Artillery Phase."""
    for n, name in ((contact, "contact"), (available, "availability")):
        if not 0 <= n <= 20:
            raise RuleError(f"{name} {n}: must be 0-20")
    roll = yield from d20_under(contact, "contact", "§3.34")
    if roll > contact:
        return Outcome("no_contact")
    roll = yield from d20_under(available, "availability", "§3.34")
    return Outcome("mission_next_turn" if roll <= available else "unavailable")


def correction(rules: Rules) -> Generator[Any, Any, Outcome]:
    """On-board correction: d10 9-10 a direct hit, else d6 inches off in the d10's direction."""
    hit = yield from rules.get("specials", "onboard_direct_hit_d10", "value")
    d10 = yield Roll("1d10", "correction", "§3.33", cuts=(hit - 1,))
    if d10 >= hit:
        return Outcome("on_target")
    off = yield Roll("1d6", "deviation inches", "§3.33")
    return Outcome(f"off_{off}in")


DEVIATIONS = ("first_shot", "blind", "offboard_new", "offboard_correct")


def deviation(rules: Rules, mode: str) -> Generator[Any, Any, Outcome]:
    """How far a shell or mission lands from its point (§3.33-§3.34): an on-board first shot or
    a new off-board mission d8 direction and 2d6 inches, blind fire 3d6, off-board correction
    d6 inches (with the option's d10, 9-10 on target)."""
    if mode not in DEVIATIONS:
        raise RuleError(f"deviation {mode!r}: expected one of {DEVIATIONS}")
    if mode == "offboard_correct" and rules.opts.correcting_die == "d10":
        hit = yield from rules.get("specials", "onboard_direct_hit_d10", "value")
        d10 = yield Roll("1d10", "correction direction", "§3.34", cuts=(hit - 1,))
        if d10 >= hit:
            return Outcome("on_target")
    elif mode != "blind":
        yield Roll("1d8", "deviation direction", "§3.33")
    dice = {"first_shot": "2d6", "offboard_new": "2d6", "blind": "3d6", "offboard_correct": "1d6"}
    inches = yield Roll(dice[mode], "deviation inches", "§3.33")
    return Outcome(f"off_{inches}in")


@dataclass(frozen=True)
class Strike:
    target: Literal["figure", "foxhole", "afv"] = "figure"
    ring: str = "A"
    gun_mm: int = 81
    he_pen: int = 9
    cover: Target = Target()
    forest: bool = False
    vehicle: Impact | None = None  # for afv: facing 'top', pen filled from he_pen


def calibre_mod(rules: Rules, mm: int) -> Generator[Any, Any, Modifier | None]:
    best = None
    for key in rules.table("he_calibre_mods").cells:
        if mm >= int(key):
            best = key
    if best is None:
        return None
    return (yield from rules.drm("he_calibre_mods", best))


def strike(rules: Rules, s: Strike) -> Generator[Any, Any, Outcome]:
    """One shell on a target (§3.35): forests burst one ring larger, no prone bonus and half
    other cover; foxholes take a round inside on d6 = 1; AFVs are hit directly on d6 1-2."""
    if s.ring not in RINGS:
        raise RuleError(f"ring {s.ring!r}: expected one of {RINGS}")
    if s.forest and s.target in ("afv", "foxhole"):
        yield Note("in woods: no direct hits on vehicles or entrenchments", "§3.35")
        if s.target == "afv":
            return Outcome("no_direct_hit")
    if s.target == "afv":
        if s.vehicle is None:
            raise RuleError("an AFV strike needs a target vehicle")
        n = yield from rules.get("specials", "afv_direct_hit_d6", "value")
        d6 = yield Roll("1d6", "direct hit on the AFV", "§3.35", cuts=(n,))
        if d6 > n:
            return Outcome("no_direct_hit")
        imp = Impact(s.vehicle.vehicle, "top", s.he_pen, gun_mm=s.gun_mm)
        return (yield Sub(top_hit, (rules, imp), label="top hit"))
    if s.target == "foxhole" and not s.forest:
        n = yield from rules.get("specials", "foxhole_shell_inside_d6", "value")
        d6 = yield Roll("1d6", "round inside the foxhole", "§3.35", cuts=(n,))
        if d6 <= n:
            return Outcome("KIA")
        if s.cover.prone:
            yield Note("prone in the foxhole: immune", "§3.35")
            return Outcome("no_effect")
    ring = s.ring
    mods = list((yield from cover_mods(rules, s.cover, prone_counts=not s.forest)))
    if s.forest:  # the burst reaches one ring further (the caller places the figure)
        mods = [Modifier(m.name + " (halved in forest)", (m.value + 1) // 2, m.page) for m in mods]
        yield Note("forest: no prone bonus, other cover halved", "§3.35")
    if rules.opts.calibre_mods_on == "effect":
        cal = yield from calibre_mod(rules, s.gun_mm)
        if cal is not None:
            mods.append(cal)
    return (yield from effect_roll(rules, ring, tuple(mods), f"ring {ring}"))


def top_hit(rules: Rules, imp: Impact) -> Generator[Any, Any, Outcome]:
    """A shell on top of an AFV: an open compartment kills everyone inside and rolls the
    penetration effects at -3 (§3.35); otherwise HE penetration against the top armour."""
    hit = yield from hit_location(rules, imp)
    assert hit is not None
    if hit[1].part == "compartment" or imp.vehicle.armor.get("top") == "auto":
        yield Note("into the open compartment: everyone inside is killed", "§3.35")
        roll = yield Roll("1d20", "penetration effects", "§3.35")
        result = yield from rules.band("pen_effects", roll - 3, "result")
        return Outcome(result, (("crew", "killed"),))
    return (yield from penetrate(rules, imp, *hit))


PATTERNS = {
    "loose_point": (4, 6),
    "tight_point": (2, 3),
    "loose_line": (4, 6),
    "tight_line": (2, 2),
}


def pattern_spacing(rules: Rules, pattern: str) -> int:
    """Inches between the tubes' markers of an off-board pattern (§3.34): the text's spacing or
    the diagram's labels (option `pattern_spacing`, decision BG-PATTERN)."""
    if pattern not in PATTERNS:
        raise RuleError(f"pattern {pattern!r}: expected one of {tuple(PATTERNS)}")
    text, diagram = PATTERNS[pattern]
    return text if rules.opts.pattern_spacing == "text" else diagram
