"""Indirect fire (pp. 35-38): the call-down roll (phase E), the beaten-zone roll for each unit
in the zone (3D6 <= 8 + variations, p36) and its effects (p37); rockets (p38), counter-battery
(p37), map-fire delays (p37). The call-down table is lost (placeholder P85)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from ....chance import Cite, Modifier, Note, Outcome, Roll, exact, total
from ....data.errors import RuleError
from . import placeholders as ph
from .effects import calibre_variation, penetration_effects
from .tables import Rules

P_BZ = "p36 indirect fire"
Kind = Literal["infantry", "gun", "softskin", "afv", "open_afv"]
Protection = Literal["none", "soft", "entrenched", "pillbox"]
BZR = ((80, 7), (90, 9), (105, 12), (122, 14), (155, 16), (199, 18))  # p35 (bands P89)


def bzr_cm(calibre_mm: float) -> int:
    return next((cm for mm, cm in BZR if calibre_mm <= mm), 20)


@dataclass(frozen=True)
class CallDown:
    caller: Literal["fao", "company_commander"] = "fao"
    skill: Literal["us", "vet_reg", "conscript"] = "vet_reg"
    near_previous: bool = False  # within 20 cm of the previous successful POA


def call_down(rules: Rules, c: CallDown):
    """Phase E: does the fire arrive this turn? 3D6 <= the (lost) call-down number."""
    value, labels = rules.lost(
        "call-down-table", c.caller, c.skill, ph.CALL_DOWN[(c.caller, c.skill)]
    )
    need = int(value)
    yield Cite(labels)
    yield Note(
        f"call-down number {need}" + (" (lost table: placeholder P85)" if labels else ""), "p36"
    )
    mods = [Modifier("within 20 cm of the previous POA", 1, "p36")] if c.near_previous else []
    yield from mods
    roll = yield Roll("3d6", "call-down", "p36", at_most=need + total(mods))
    return Outcome("arrives" if roll <= need + total(mods) else "not_yet")


def average_wait(rules: Rules, c: CallDown) -> Fraction:
    """Expected turns until the fire arrives (geometric): the p36 text gives 2/3/4 for an FAO."""
    p = exact(call_down, rules, c).p("arrives")
    return 1 / p


@dataclass(frozen=True)
class BZTarget:
    kind: Kind = "infantry"
    calibre_mm: float = 105
    pairs: int = 1  # gun pairs (or mortars) firing at the POA
    mortar: bool = False
    first_mortar_turn: bool = False
    partial: bool = False  # less than the whole move in the zone, or partly outside
    protection: Protection = "none"
    rocket: bool = False
    german_heavy_rocket: bool = False
    wp: bool = False  # the zone was fired with white phosphorus (p37)


def bz_modifiers(t: BZTarget) -> list[Modifier]:
    m = []
    cal = t.calibre_mm
    if t.kind in ("afv", "open_afv"):
        m.append(Modifier("AFV", -2, P_BZ))
    if t.partial:
        m.append(Modifier("in the zone part of the move, or partly outside", -1, P_BZ))
    if t.mortar and t.first_mortar_turn:
        m.append(Modifier("mortar's first turn on the target", -1, P_BZ))
    if t.protection == "soft" and cal < 122:
        m.append(Modifier("hard cover of sandbags/ditch/wood, or in woods", -1, P_BZ))
    if t.protection == "entrenched":
        v = -1 if cal >= 122 else -2 if cal >= 85 else -3
        m.append(Modifier("entrenched, dug in or in a stone building", v, P_BZ))
    if t.protection == "pillbox" and cal > 80:  # 80 mm and under: immune (bz_hit)
        v = -2 if cal >= 140 else -3
        m.append(Modifier("pillbox, bunker or dugout", v, P_BZ))
    if t.pairs > 1:
        m.append(Modifier(f"{t.pairs} pairs/mortars", min(t.pairs - 1, 3), P_BZ))
    if t.wp:
        m.append(Modifier("firing white phosphorus", -1, "p37 indirect smoke"))
    return m


def bz_hit(rules: Rules, t: BZTarget):
    """One unit in a beaten zone this turn: hit, then its effect (p36-37)."""
    if t.protection == "pillbox" and t.calibre_mm <= 80:
        yield Note("pillboxes, bunkers and dugouts are immune to 80 mm and under", "p36")
        return Outcome("no_effect")
    base = 7 if t.german_heavy_rocket else 6 if t.rocket else 8
    mods = bz_modifiers(t)
    yield Note(f"base {base}" + (" (rockets, p38)" if t.rocket else ""), P_BZ)
    yield from mods
    need = base + total(mods)
    roll = yield Roll("3d6", "beaten zone", P_BZ, at_most=need)
    if roll > need:
        yield Note(f"3D6 {roll} > {need}: missed", P_BZ)
        return Outcome("missed")
    yield Note(f"3D6 {roll} <= {need}: hit", P_BZ)
    return (yield from hit_effect(rules, t))


def hit_effect(rules: Rules, t: BZTarget):
    """What an indirect hit (or a bomb or rocket hit of the same calibre, p42-43) does (p37)."""
    if t.kind in ("infantry", "gun", "softskin"):
        yield Note("squad, heavy weapon, gun or softskin wiped out with all aboard", "p37")
        return Outcome("destroyed")
    if t.kind == "open_afv":
        face = yield Roll("1d6", "open-topped AFV", "p37", at_most=4)
        if face >= 5:
            return Outcome("destroyed")
        if t.mortar:
            return Outcome("no_effect")
    elif t.mortar:
        yield Note("mortars have no effect on an enclosed AFV", "p37")
        return Outcome("no_effect")
    mods2 = yield from calibre_variation(rules, "HE", t.calibre_mm)
    if t.kind == "open_afv":
        mods2.append(Modifier("HE on an open-topped AFV", 2, "p31"))
    name = yield from penetration_effects(rules, mods2, "indirect HE")
    return Outcome("immobilised" if name == "damaged" else name)


def beaten_zone(rules: Rules, targets: tuple[BZTarget, ...]) -> dict[int, Fraction]:
    """Exact distribution of the number of units destroyed among `targets` (each diced
    independently, p36): the product of each target's memoised odds."""
    dist = {0: Fraction(1)}
    for t in targets:
        p = exact(bz_hit, rules, t).p("destroyed")
        new: dict[int, Fraction] = {}
        for k, q in dist.items():
            new[k] = new.get(k, Fraction(0)) + q * (1 - p)
            new[k + 1] = new.get(k + 1, Fraction(0)) + q * p
        dist = new
    return dist


def beaten_zone_roll(rules: Rules, targets: tuple[BZTarget, ...]):
    """The same beaten zone rolled target by target (for `resolve`)."""
    destroyed = 0
    for i, t in enumerate(targets, 1):
        yield Note(f"target {i}: {t.kind}", P_BZ)
        r = yield from bz_hit(rules, t)
        destroyed += r.name == "destroyed"
    return Outcome(f"destroyed_{destroyed}")


MAP_DELAY = {"us": 2, "veteran": 3, "regular": 3, "conscript": 4}


def map_fire_next(last_turn: int, troop: str) -> int:
    """First turn a map-fire battery fires on a new target after finishing one (p37; example:
    a veteran battery firing turns 1-3 fires again from turn 6)."""
    return last_turn + MAP_DELAY[troop]


@dataclass(frozen=True)
class CounterBattery:
    moves_seen: int = 1
    moves_silent: int = 0
    rocket: bool = False
    mobile_rocket: bool = False
    pairs: int = 1
    calibre_threshold: int = 5  # 1D6 needed per CBF pair (bands lost: P89)


def counter_battery(rules: Rules, c: CounterBattery):
    """Counter-battery fire (p37): 2D6 <= 2 + 1 per move seen firing (+3 rockets) - 1 per
    silent move (-2 mobile rockets); then 1D6 per pair, each success silences one pair."""
    per = 3 if c.rocket else 1
    need = 2 + per * c.moves_seen - (2 if c.mobile_rocket else 1) * c.moves_silent
    yield Note(f"locate on 2D6 <= {need}", "p37")
    roll = yield Roll("2d6", "counter-battery", "p37", at_most=need)
    if roll > need:
        return Outcome("silenced_0")
    silenced = 0
    for i in range(c.pairs):
        face = yield Roll("1d6", f"CBF pair {i + 1}", "p37", at_most=c.calibre_threshold - 1)
        silenced += face >= c.calibre_threshold
    return Outcome(f"silenced_{silenced}")


# p37 counter-battery damage: the 1D6 a CBF pair needs, by the firing battery's calibre. The
# calibres of the first four rows were lost; they are read as the p35 medium and heavy BZR
# bands (P89: to 105, 122, 155, 199 mm), and the first row's lone value as 6 (decision P268).
CBF_DAMAGE = ((105, 6), (122, 5), (155, 4), (199, 3))
LIGHT_MAX_MM = 90  # p35: light guns are 60-90 mm; only medium and heavy fire CBF (p37)


def cbf_threshold(calibre_mm: float) -> int:
    """The least 1D6 face with which one pair of a CBF battery puts an enemy pair out of action
    (p37; 201 mm and over: 2)."""
    return next((t for mm, t in CBF_DAMAGE if calibre_mm <= mm), 2)


def rocket_fires_every(reload_moves: int) -> int:
    """A launcher with reload N fires every (N+1)th move (p38: NbW41 reload 6 -> every 7th)."""
    return reload_moves + 1


def smoke_moves(pairs: int) -> int:
    """How long indirect smoke on one POA takes to lay (p37): one gun pair or mortar 2 moves,
    two 1 move; rocket launchers one set 2 moves, two sets 1 (p38). The zone is smoked from the
    next turn; WP also rolls against units in it with -1."""
    if pairs < 1:
        raise RuleError("at least one gun pair, mortar or launcher set fires smoke")
    return 2 if pairs == 1 else 1
