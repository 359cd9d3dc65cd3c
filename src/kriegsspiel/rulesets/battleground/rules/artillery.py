"""Artillery (digest §3.33-§3.35): off-board contact and availability, on-board correction,
and impacts: a figure in a ring, a foxhole, an AFV struck on top."""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import Any, Literal

from ....chance import Modifier, Note, Outcome, Roll, Sub
from ....data.errors import RuleError
from .armour import Impact, impact
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
    if s.target == "afv":
        if s.vehicle is None:
            raise RuleError("an AFV strike needs a target vehicle")
        n = yield from rules.get("specials", "afv_direct_hit_d6", "value")
        d6 = yield Roll("1d6", "direct hit on the AFV", "§3.35", cuts=(n,))
        if d6 > n:
            return Outcome("no_direct_hit")
        imp = Impact(s.vehicle.vehicle, "top", s.he_pen, gun_mm=s.gun_mm)
        return (yield Sub(impact, (rules, imp), label="top hit"))
    if s.target == "foxhole":
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
