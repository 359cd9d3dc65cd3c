"""Anti-tank direct fire (pp. 28-31): range band, to-hit on 3D6 with every variation of the p30
table, hit location, penetration against armour, Penetration Effects and their accumulation;
AA/auto-cannon extra hits (p31); infantry AT weapons use the same procedure (p19)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from ....chance import Cite, Lookup, Modifier, Note, Outcome, Roll, Sub, total
from ....data.errors import RuleError
from .effects import calibre_variation, escalate, located, note_prior, penetration_effects
from .tables import Rules
from .weapons import Target, Weapon, armour

HE_MIN_CALIBRE_MM = 65  # p31: HE under 65 mm has no effect on an AFV

P_TOHIT = "p30 Direct AT fire variations"
P_LOC = "p31 hit location"
Moving = Literal["none", "over15_to_from", "across_under15", "across_over15"]
Cover = Literal["none", "partial", "hull_down"]
OUTCOMES = (
    "miss",
    "no_penetration",
    "no_effect",
    "stunned_1",
    "stunned_2",
    "immobilised",
    "gun_damaged",
    "destroyed",
)
LOCATIONS = {
    1: "tracks",
    2: "lower_hull",
    3: "upper_hull",
    4: "upper_hull",
    5: "turret",
    6: "turret",
}
AUTOCANNON_CAP = ((30, 3), (45, 2))  # p31: 20-25 mm up to 3 hits, 37-40 mm up to 2


@dataclass(frozen=True)
class Shot:
    weapon: Weapon
    target: Target
    range: float
    facing: Literal["front", "side", "rear"] = "front"
    ammo: str = "AP"
    troop_class: str = "regular"
    firer_moved: bool = False  # more than 5 cm (never more than half)
    target_moving: Moving = "none"
    cover: Cover = "none"
    just_sighted: bool = False
    seen_under_half: bool = False
    shots_before: int = 0  # earlier shots at the same target by this firer (2nd-shot bonus)
    target_stationary: bool = True
    traversed: bool = False
    muzzle_flash: bool = False
    commander_killed: bool = False
    bore_sighted: bool = False
    weather: Literal["clear", "rain", "night"] = "clear"
    one_man_turret: bool = False
    open_topped_firer: bool = False
    lower_hidden: bool = False  # only tracks and lower hull hidden: re-roll 1-2 (p31)
    covered: frozenset[str] = frozenset()  # skirts/sandbags: locations covered (p28)
    prior: str = "none"  # the target's earlier effect (accumulation, p31)


def _row(rules: Rules, key: str, name: str, page: str = P_TOHIT) -> Modifier:
    return Modifier(name, rules.modifier("at-fire-variations", key, "to_hit"), page)


def to_hit_modifiers(rules: Rules, s: Shot) -> list[Modifier]:
    """Every variation of p30 that applies (the moving rows are alternatives)."""
    w, m = s.weapon, []
    if s.just_sighted:
        m.append(_row(rules, "target_just_came_into_sight", "target just came into sight"))
    if s.seen_under_half:
        m.append(_row(rules, "target_seen_less_than_half_turn", "target seen under half a turn"))
    moving = {
        "over15_to_from": ("target_moving_over_15cm_to_or_from", "target moving >15 cm to/from"),
        "across_under15": ("target_moving_up_to_15cm_across_los", "target moving <=15 cm across"),
    }
    if s.target_moving in moving:
        m.append(_row(rules, *moving[s.target_moving]))
    elif s.target_moving == "across_over15":
        key = "turreted" if w.turreted else "non_turreted"
        m.append(
            _row(
                rules, f"target_moving_15cm_plus_across_los_{key}", f"target >=15 cm across ({key})"
            )
        )
    if s.cover == "partial":
        m.append(_row(rules, "target_partially_concealed_33_66", "target 33-66% behind hard cover"))
    elif s.cover == "hull_down":
        m.append(_row(rules, "target_hull_down_or_concealed_66_plus", "target hull-down or >66%"))
    if s.target.size in ("A", "B", "D"):
        key = f"target_size_{s.target.size.lower()}"
        m.append(_row(rules, key, f"target size {s.target.size}"))
    if s.shots_before:
        key = "stationary" if s.target_stationary else "moving"
        cap, _ = rules.cell("at-fire-variations", f"second_shot_{key}_target", "cap")
        each = rules.modifier("at-fire-variations", f"second_shot_{key}_target", "to_hit")
        m.append(
            Modifier(
                f"{s.shots_before} earlier shot(s), {key} target",
                min(each * s.shots_before, int(cap)),
                P_TOHIT,
            )
        )
    if s.ammo == "HE":
        m.append(_row(rules, "firing_he", "firing HE"))
    if s.traversed:
        if w.towed:
            m.append(Modifier("towed gun traversed over half", -2, "p34"))
        else:
            m.append(_row(rules, "firer_traversed_over_half", "traversed over half"))
    if s.muzzle_flash:
        m.append(_row(rules, "firing_at_muzzle_flash", "firing at a muzzle flash"))
    if s.firer_moved:
        m.append(_row(rules, "firer_moved_over_5cm", "firer moved over 5 cm"))
    if w.barrels > 1:
        each = rules.modifier("at-fire-variations", "each_additional_aa_barrel", "to_hit")
        m.append(Modifier(f"{w.barrels - 1} extra barrel(s)", each * (w.barrels - 1), P_TOHIT))
    if s.commander_killed:
        m.append(_row(rules, "afv_commander_killed", "AFV commander killed"))
    if s.troop_class in ("veteran", "conscript"):
        m.append(_row(rules, f"firer_{s.troop_class}", s.troop_class))
    if s.bore_sighted:
        m.append(_row(rules, "bore_sighted_area", "bore-sighted area"))
    if s.weather == "rain" and (w.towed or s.open_topped_firer):
        m.append(Modifier("rain or falling snow (field/AT gun, open-topped AFV)", -1, "p10"))
    elif s.weather == "night":
        m.append(Modifier("night", -3, "p11"))
    if s.one_man_turret:
        m = [
            Modifier(f"{x.name} (one-man turret doubles it)", 2 * x.value, "p28")
            if x.value < 0
            else x
            for x in m
        ]
    return m


def _effect_mods(rules: Rules, s: Shot, pen: float | None, arm: float | None):
    """The p31 variations of one hit's Penetration Effects roll (yields the cites)."""
    w, m = s.weapon, []
    if s.ammo == "HE":
        m += yield from calibre_variation(rules, "HE", w.calibre_mm)
        if s.target.size in ("A", "B"):
            m.append(Modifier("HE on a light AFV", 2, "p31"))
        if s.target.open:
            m.append(Modifier("HE on an open-topped/sided/rear AFV", 2, "p31"))
            if s.facing != "front" and ({"sides", "rear"} & set(s.target.open)):
                m.append(Modifier("fired into the open side/rear", 1, "p31"))
        return m
    if not w.infantry:
        m += yield from calibre_variation(rules, "AP", w.calibre_mm)
    if w.infantry or w.heat:
        m.append(Modifier("HEAT or infantry AT weapon", -4, "p31"))
    assert pen is not None and arm is not None
    margin = pen - arm
    if margin >= 6:
        m.append(Modifier(f"penetration exceeds armour by {margin:g} (6+)", 6, "p31, Q&A 6"))
    elif margin >= 3:
        m.append(Modifier(f"penetration exceeds armour by {margin:g} (3-5)", 3, "p31, Q&A 6"))
    return m


def _one_hit(rules: Rules, s: Shot, band: int, n: int, prior: str):
    """Location, penetration and effects of one hit on an AFV; returns the new state."""
    w, t = s.weapon, s.target
    tag = f" (hit {n})" if n > 1 else ""
    if s.cover == "hull_down":
        location = "turret"
        yield Note("hull-down: every hit strikes the turret/superstructure", P_LOC)
    else:
        reroll = frozenset({1, 2}) if s.lower_hidden else frozenset()
        if w.kind == "magnetic_mine" and t.size in ("C", "D"):
            reroll |= {5, 6}  # p21: placed on the hull only of a medium or heavy AFV
        face = yield Roll("1d6", f"hit location{tag}", P_LOC, reroll=reroll)
        location = LOCATIONS[face]
        yield Lookup("hit location", face, location, P_LOC)
    if location in s.covered and (w.heat and w.infantry or w.atr or (w.calibre_mm or 99) <= 30):
        yield Note(f"{location} is covered by skirts/sandbags: no effect from this weapon", "p28")
        return prior, "no_penetration"
    if s.ammo == "HE":
        if (w.calibre_mm or 0) < HE_MIN_CALIBRE_MM:
            yield Note("HE under 65 mm has no effect on an AFV", "p31")
            return prior, "no_effect"
        yield Note("HE: armour is ignored", "p31")
        pen = arm = None
    else:
        arm, apath = armour(t, location, s.facing)
        pen = w.pen(band)
        yield Cite(tuple(t.record.placeholders(apath)))
        if not pen > arm:
            yield Note(f"penetration {pen:g} does not exceed {location} armour {arm:g}", "p31")
            return prior, "no_penetration"
        yield Note(f"penetration {pen:g} exceeds {location} armour {arm:g}", "p31")
        if location == "tracks":
            if w.atr:
                yield Note("AT rifles never immobilise through the tracks", "p19")
                return prior, "no_effect"
            new = escalate(prior, "damaged")
            yield Note("a penetrating hit on the tracks immobilises", "p31")
            return new, located(new, "tracks")
    mods = yield from _effect_mods(rules, s, pen, arm)
    result = yield from penetration_effects(rules, mods, f"{location}{tag}")
    new = escalate(prior, result)
    yield from note_prior(prior, result, new)
    # the outcome is this hit's effect after accumulation (a no-effect roll stays no effect)
    return new, located(new if result != "no_effect" else result, location)


def at_fire(rules: Rules, s: Shot):
    """One shot of direct AT fire at an AFV, gun, motorised gun or softskin."""
    w, t = s.weapon, s.target
    slow_only = rules.opts.atmm_targets == "slow"
    if w.kind == "magnetic_mine" and s.target_moving != "none" and slow_only:
        raise RuleError(
            "an AT magnetic mine is placed only on a target that moved 5 cm or less "
            "(p21 notes; option atmm_targets=slow, decision P75)"
        )
    band, edge, cite = rules.band(w.bands, s.range, len(w.to_hit), w.name)
    yield cite
    yield Cite(tuple(w.record.placeholders(f"{w.paths[0]}.{band}", f"{w.paths[1]}.{band}")))
    yield Note(f"{w.name} at {s.range:g} cm: band {band + 1} (to {edge} cm)", "p29")
    need = w.need(band)
    yield Lookup("to-hit number", f"band {band + 1}", need, "p29 gun chart")
    mods = to_hit_modifiers(rules, s)
    yield from mods
    adjusted = need + total(mods)
    many = w.autocannon and t.kind == "afv"
    cap = _autocannon_cap(w) if many else 1
    # the sequel depends on the roll only through the number of hits (p31): one band each
    cuts = tuple(range(adjusted - cap + 1, adjusted + 1))
    roll = yield Roll("3d6", "to-hit", P_TOHIT, cuts=cuts)
    if roll > adjusted:
        yield Note(f"to-hit 3D6 {roll} > {adjusted}: miss", P_TOHIT)
        return Outcome("miss")
    yield Note(f"to-hit 3D6 {roll} <= {adjusted}: hit", P_TOHIT)
    if t.kind != "afv":
        yield Note(f"{t.name} hit: destroyed with its crew and anything it tows", "p30")
        return Outcome("destroyed")
    if not many:
        _, result = yield from _one_hit(rules, s, band, 1, s.prior)
        return Outcome(result)
    hits = min(1 + adjusted - roll, cap)
    yield Note(f"auto-cannon: {hits} hit(s) ({adjusted} - {roll} extra, at most {cap})", "p31")
    rest = yield Sub(_hits, (rules, s, band, 1, hits, s.prior, "no_penetration"), key=_state_key)
    return Outcome(rest.name)


def _autocannon_cap(w: Weapon) -> int:
    """Most hits one burst scores (p31): 20-25 mm 3, 37-40 mm 2, +1 per extra barrel."""
    return next((c for mm, c in AUTOCANNON_CAP if (w.calibre_mm or 20) <= mm), 2) + w.barrels - 1


def _state_key(result: Outcome) -> tuple:
    return (result.name, result.get("state"))


def _hit(rules: Rules, s: Shot, band: int, n: int, prior: str):
    """One hit of a burst as a resolution of its own: outcome the result, detail the state."""
    state, result = yield from _one_hit(rules, s, band, n, prior)
    return Outcome(result, (("state", state),))


def _hits(rules: Rules, s: Shot, band: int, n: int, last: int, state: str, outcome: str):
    """Hits n..last of an auto-cannon burst, each rolled separately (p31) and accumulating on
    the target; each hit is a memoised sub-resolution, so exact odds stay small."""
    if n > last or state == "destroyed":
        return Outcome(outcome, (("state", state),))
    one = yield Sub(_hit, (rules, s, band, n, state), key=_state_key)
    new, result = one.get("state"), one.name
    if new != state or result == "no_effect" and outcome == "no_penetration":
        outcome = result
    rest = yield Sub(_hits, (rules, s, band, n + 1, last, new, outcome), key=_state_key)
    return rest


def _memo_key(rules: Rules, s: Shot) -> tuple:
    """A shot's odds depend on its range only through its band (p29)."""
    try:
        _, edge, _ = rules.band(s.weapon.bands, s.range, len(s.weapon.to_hit), s.weapon.name)
    except RuleError:
        return (rules, s)
    return (rules, replace(s, range=float(edge)))


at_fire.memo_key = _memo_key  # type: ignore[attr-defined]
