"""Direct area fire, smoke and WP (pp. 31-33): the gun's to-hit at the range to the point of
aim, then 3D6 per soft target in the beaten zone against base + variations (p32); a target only
partly covered is in on 1D6 4-6 (p32). Smoke and WP roll with the firer's variations only."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from ....chance import Cite, Lookup, Modifier, Note, Outcome, Roll, total
from ....data.errors import RuleError
from . import placeholders as ph
from .tables import Rules
from .weapons import Weapon

P_VAR = "p32 direct area fire variations"
BZR = ((42, 3), (50, 4), (57, 5), (76, 6), (90, 7), (105, 8), (122, 9), (155, 10))  # p32
Cover = Literal["none", "soft", "hard", "dug_in", "fortification"]
COVER = {"soft": -2, "hard": -4, "dug_in": -5, "fortification": -6}


def radius(w: Weapon, building: bool = False) -> int:
    """The beaten-zone radius of a weapon's HE: its own (p19 infantry HE) or by calibre."""
    r = w.bzr_cm if w.bzr_cm is not None else bzr_cm(w.calibre_mm or 0)
    return 2 * r if building else r


def bzr_cm(calibre_mm: float, building: bool = False) -> int:
    """Beaten zone radius (p32; the 95-150 mm bands lost their calibres: P89 reads them as
    up to 105, 122 and 155 mm); doubled on a building."""
    r = next((cm for mm, cm in BZR if calibre_mm <= mm), 12)
    return 2 * r if building else r


@dataclass(frozen=True)
class AreaShot:
    weapon: Weapon
    range: float
    troop_class: str = "regular"
    size: str = "A"
    cover: Cover = "none"
    target_moving: bool = False
    observed_under_half: bool = False
    speculative: bool = False
    turns_on_poa: int = 1
    firer_moved: bool = False
    smoke: bool = False  # target in smoke
    wp: bool = False  # the round is WP
    partly_in: bool = False
    building: bool = False
    shielded: bool = False  # a gun crew behind its shield, fired on from its front (P71)


def calibre_band(calibre_mm: float) -> str:
    """The p32 calibre row of a gun, by the beaten-zone calibre bands."""
    return next((f"to_{mm}mm" for mm, _ in BZR if calibre_mm <= mm), "over_155mm")


def firer_mods(rules: Rules, a: AreaShot):
    """The firer's p32 variations (a generator: yields the cite of the lost calibre row)."""
    m = []
    cal = a.weapon.calibre_mm or 0
    if cal and 50 < cal <= 57:
        m.append(Modifier("57 mm gun", -2, P_VAR))
    else:
        band = calibre_band(cal)
        value, labels = rules.lost("area-fire-calibre", band, "to_hit", ph.AREA_CALIBRE)
        yield Cite(labels)
        lost = " (lost; placeholder P89)" if labels else ""
        m.append(Modifier(f"calibre variation, {band}{lost}", int(value), P_VAR))
    if a.troop_class in ("veteran", "conscript"):
        m.append(Modifier(a.troop_class, 1 if a.troop_class == "veteran" else -1, P_VAR))
    if a.speculative:
        m.append(Modifier("speculative fire", -2, P_VAR))
    if a.turns_on_poa > 1:
        m.append(
            Modifier(f"turn {a.turns_on_poa} on the same POA", min(a.turns_on_poa - 1, 3), P_VAR)
        )
    if a.firer_moved:
        m.append(Modifier("firer moved over 5 cm", -2, P_VAR))
    return m


def target_mods(rules: Rules, a: AreaShot) -> list[Modifier]:
    m = []
    if a.shielded and a.cover == "none" and rules.opts.gun_shield_area == "partial":
        m.append(Modifier("gun shield as partial cover (p32; decision P71)", COVER["soft"], P_VAR))
    if a.size in ("C", "D"):
        m.append(Modifier(f"target size {a.size}", 2 if a.size == "D" else 1, P_VAR))
    if a.cover in COVER:
        m.append(Modifier(f"target in {a.cover.replace('_', ' ')} cover", COVER[a.cover], P_VAR))
    if a.target_moving:
        m.append(Modifier("target moving", -1, P_VAR))
    if a.observed_under_half:
        m.append(Modifier("target observed half a turn or less", -1, P_VAR))
    if a.smoke:
        m.append(Modifier("target in smoke", -1, P_VAR))
    if a.wp:
        m.append(Modifier("WP", -2, P_VAR))
    return m


def base_to_hit(rules: Rules, a: AreaShot):
    w = a.weapon
    band, edge, cite = rules.band(w.bands, a.range, len(w.to_hit), w.name)
    yield cite
    yield Cite(tuple(w.record.placeholders(f"{w.paths[0]}.{band}")))
    if a.range <= radius(w):
        raise RuleError(
            f"{w.name}: the POA at {a.range:g} cm is inside its own beaten zone (errata 3)"
        )
    need = w.need(band)
    yield Lookup("to-hit number", f"band {band + 1} (to {edge} cm)", need, "p32 gun chart")
    return need


def area_fire(rules: Rules, a: AreaShot):
    """One soft target in the beaten zone: destroyed or survives (or outside)."""
    need = yield from base_to_hit(rules, a)
    if a.partly_in:
        face = yield Roll("1d6", "partly in the beaten zone", "p32", at_most=3)
        if face <= 3:
            yield Note(f"1D6 {face}: outside the beaten zone this turn", "p32")
            return Outcome("outside")
        yield Note(f"1D6 {face}: inside the beaten zone", "p32")
    mods = (yield from firer_mods(rules, a)) + target_mods(rules, a)
    yield from mods
    adjusted = need + total(mods)
    roll = yield Roll("3d6", "area fire", P_VAR, at_most=adjusted)
    if roll <= adjusted:
        yield Note(f"3D6 {roll} <= {adjusted}: destroyed", P_VAR)
        return Outcome("destroyed")
    yield Note(f"3D6 {roll} > {adjusted}: survives", P_VAR)
    return Outcome("survives")


def smoke(rules: Rules, a: AreaShot):
    """Smoke or WP placed: the same roll with the firer's variations only (p33)."""
    need = yield from base_to_hit(rules, a)
    mods = yield from firer_mods(rules, a)
    yield from mods
    adjusted = need + total(mods)
    roll = yield Roll("3d6", "smoke", "p33", at_most=adjusted)
    return Outcome("placed" if roll <= adjusted else "failed")


SMOKE_MOVES = {  # wind: (smoke moves, drift cm/move, WP moves) p33
    "none": (3, 0, 2),
    "light": (2, 5, 1),
    "moderate": (1, 10, 0),
    "gale": (0, 0, 0),
}


def smoke_duration(wind: str, wp: bool = False) -> tuple[int, int]:
    """(moves it lasts, drift cm per move from the 2nd move) for smoke or WP (p33)."""
    moves, drift, wp_moves = SMOKE_MOVES[wind]
    return (wp_moves, drift if wp_moves > 1 or wind == "light" else 0) if wp else (moves, drift)


def _memo_key(rules: Rules, a: AreaShot) -> tuple:
    try:
        _, edge, _ = rules.band(a.weapon.bands, a.range, len(a.weapon.to_hit), a.weapon.name)
    except RuleError:
        return (rules, a)
    if a.range <= radius(a.weapon):
        return (rules, a)
    return (rules, replace(a, range=float(edge)))


area_fire.memo_key = _memo_key  # type: ignore[attr-defined]
