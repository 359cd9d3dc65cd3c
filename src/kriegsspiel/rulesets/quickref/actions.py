"""quickref actions for `kriegsspiel odds|resolve quickref ACTION` (names match the issue's CLI)."""

from __future__ import annotations

from ...data.catalogue import Catalogue
from ..actions import Action, Param, Query, flag
from . import assault, direct_fire, he_fire, morale, small_arms
from .direct_fire import RuleError, Shot
from .infantry_effects import InfantryState
from .models import Artillery, Infantry, Vehicle
from .options import Options
from .tables import rules

# numeric bounds shared by several parameters (issue 15 item 3), with their source
RANGE_BOUND = dict(
    min=0, max=108, bound="the longest range in the data, a gun's indirect maximum (L4)"
)
SA_BOUND = dict(min=0, max=9, bound="the strongest squad's SA plus an attached MG (L2)")
STRENGTH_BOUND = dict(min=0, max=24, bound="the Effects table's last column (L2)")


TERRAIN = Param("terrain", str, None, "target's terrain (terrain chart row, e.g. woods, building)")


def _rules(cat: Catalogue, opts: Options):
    return rules(cat, opts)


def _checked_strength(r, strength: int, what: str) -> int:
    """A strength must have a column on the Effects table (L2): 1 up to its last column."""
    last = r.effects.columns[-1]
    if not 1 <= strength <= last:
        raise RuleError(
            f"{what} strength {strength} is off the Effects table (columns 1 to {last}, L2)"
        )
    return strength


def _vehicle(cat: Catalogue, name: str) -> Vehicle:
    rec = cat.get("vehicle", name)
    assert isinstance(rec, Vehicle)
    return rec


def _firer(cat: Catalogue, name: str) -> Vehicle | Infantry:
    try:
        return _vehicle(cat, name)
    except LookupError as vehicle_error:
        try:
            rec = cat.get("infantry", name)
        except LookupError:
            raise vehicle_error from None
        assert isinstance(rec, Infantry)
        return rec


def build_fire(
    cat,
    opts,
    *,
    firer,
    target,
    range,
    aspect,
    target_moved,
    firer_moved,
    firer_moved_far,
    firer_buttoned,
    firer_damaged,
    terrain,
    hull_down,
    weapon,
    target_variant,
) -> Query:
    if firer_moved and firer_moved_far:
        raise RuleError("--firer-moved and --firer-moved-far exclude each other")
    moved = "over_half" if firer_moved_far else "half" if firer_moved else "none"
    shot = Shot(
        _firer(cat, firer),
        _vehicle(cat, target),
        float(range),
        weapon,
        aspect,
        target_moved,
        moved,
        firer_buttoned,
        firer_damaged,
        terrain,
        hull_down,
        target_variant,
    )
    return Query(
        direct_fire.direct_fire,
        (_rules(cat, opts), shot),
        direct_fire.OUTCOMES,
        f'{shot.firer.name} fires at {shot.target.name}, {range:g}", {aspect}',
    )


def _sa_bands(weapon: str, distance: float) -> tuple[int, int]:
    """The weapon's (short, long) small-arms bands; beyond long range there is no shot."""
    short, long = small_arms.WEAPON_RANGES[weapon]
    if distance > long:
        raise RuleError(f'range {distance:g}" is beyond {weapon} long range {long}"')
    return short, long


def build_small_arms(
    cat, opts, *, strength, range, weapon, terrain, target_suppressed, suppressive
) -> Query:
    r = _rules(cat, opts)
    _checked_strength(r, strength, "small-arms")
    short, long = _sa_bands(weapon, range)
    kind = "mg_team" if weapon != "rifle" else "squad"
    member = small_arms.Member(weapon, strength, (short, long), float(range), kind)
    if suppressive and max(strength, 0) < int(r.const("suppressive-fire-min-sa")):
        raise RuleError("suppressive fire needs an SA of 3 or more (decision Q12)")
    atk = small_arms.SmallArms(strength, member.long, terrain, target_suppressed, suppressive)
    return Query(
        small_arms.small_arms,
        (r, atk),
        small_arms.OUTCOMES,
        f'small arms {strength} ({weapon}) at {range:g}"',
    )


def build_soft_vehicle(cat, opts, *, strength, range, weapon, terrain, mg) -> Query:
    r = _rules(cat, opts)
    _checked_strength(r, strength, "small-arms")
    short, _long = _sa_bands(weapon, range)
    atk = small_arms.SmallArms(strength, range > short, terrain)
    return Query(
        small_arms.soft_vehicle_fire,
        (r, atk, mg or weapon != "rifle"),
        ("none", "suppressed", "retreat", "ineffective", "tracked", "damaged", "ko"),
        f"small arms {strength} at a soft vehicle",
    )


def _he_target(cat, target, target_vehicle, terrain, hull_down, target_suppressed):
    if target_vehicle:
        return he_fire.vehicle_target(
            _vehicle(cat, target_vehicle), terrain, hull_down, target_suppressed
        )
    return he_fire.HETarget(target, terrain, target_suppressed, 0, hull_down)


def _strength(cat, opts, strength, battery) -> int:
    if battery:
        rec = cat.get("artillery", battery)
        assert isinstance(rec, Artillery)
        return rec.strength
    if strength is None:
        raise RuleError("give --strength or --battery")
    return _checked_strength(_rules(cat, opts), strength, "HE")


def build_he(
    cat, opts, *, strength, battery, target, target_vehicle, terrain, hull_down, target_suppressed
) -> Query:
    s = _strength(cat, opts, strength, battery)
    t = _he_target(cat, target, target_vehicle, terrain, hull_down, target_suppressed)
    order = he_fire.HE_OUTCOMES if t.kind == "infantry" else he_fire.VEHICLE_OUTCOMES
    return Query(he_fire.he_effect, (_rules(cat, opts), s, t), order, f"HE {s} burst")


def build_indirect(
    cat,
    opts,
    *,
    strength,
    battery,
    russian,
    observer,
    target,
    target_vehicle,
    terrain,
    hull_down,
    target_suppressed,
) -> Query:
    s = _strength(cat, opts, strength, battery)
    t = _he_target(cat, target, target_vehicle, terrain, hull_down, target_suppressed)
    mission = he_fire.FireMission(s, russian, observer == "fo")
    base = he_fire.HE_OUTCOMES if t.kind == "infantry" else he_fire.VEHICLE_OUTCOMES
    return Query(
        he_fire.indirect_fire,
        (_rules(cat, opts), mission, t),
        ("no_call", "drift", *base),
        f"indirect HE {s}",
    )


def build_he_direct(
    cat,
    opts,
    *,
    firer,
    range,
    target,
    target_vehicle,
    terrain,
    hull_down,
    target_suppressed,
    target_moved,
    firer_moved,
    firer_buttoned,
    firer_damaged,
) -> Query:
    t = _he_target(cat, target, target_vehicle, terrain, hull_down, target_suppressed)
    shot = Shot(
        _firer(cat, firer),
        _vehicle(cat, target_vehicle) if target_vehicle else _vehicle(cat, firer),
        float(range),
        "main",
        "side",
        target_moved,
        "half" if firer_moved else "none",
        firer_buttoned,
        firer_damaged,
        terrain,
    )
    base = he_fire.HE_OUTCOMES if t.kind == "infantry" else he_fire.VEHICLE_OUTCOMES
    return Query(
        he_fire.he_direct,
        (_rules(cat, opts), shot, t),
        ("miss", *base),
        f'{shot.firer.name} fires HE at {range:g}"',
    )


def build_flame(cat, opts, *, weapon, target_vehicle, terrain, target_suppressed) -> Query:
    rec = cat.get("vehicle", weapon) if weapon not in ("man-portable", "vehicle") else None
    if rec is not None:
        assert isinstance(rec, Vehicle)
        if rec.flame is None:
            raise RuleError(f"{rec.name} has no flamethrower")
        s = rec.flame
    else:
        art = cat.get("artillery", f"flamethrower-{weapon}")
        assert isinstance(art, Artillery)
        s = art.strength
    if target_vehicle:
        _vehicle(cat, target_vehicle)  # a chart vehicle (closest names listed if not)
    t = he_fire.HETarget("infantry", terrain, target_suppressed)
    order = he_fire.VEHICLE_OUTCOMES if target_vehicle else he_fire.HE_OUTCOMES
    return Query(
        he_fire.flamethrower,
        (_rules(cat, opts), s, t, bool(target_vehicle)),
        order,
        f"flamethrower {s}",
    )


def build_assault_vehicle(
    cat, opts, *, vehicle, buttoned, terrain, suppressed, riders_sa, escort_within_3
) -> Query:
    v = _vehicle(cat, vehicle)
    _check_sa(_rules(cat, opts), "--riders-sa", riders_sa)
    a = assault.VehicleAssault(
        buttoned, v.open_topped, terrain, suppressed, InfantryState(), riders_sa, escort_within_3
    )
    return Query(
        assault.assault_vehicle,
        (_rules(cat, opts), a),
        assault.VEHICLE_OUTCOMES,
        f"squad assaults {v.name}",
    )


def _check_sa(r, flag: str, sa: int) -> None:
    """An infantry SA within what the data allows (L2): 0 to the strongest infantry's SA plus
    the strongest attached machine gun's."""
    infantry = r.cat.all("infantry")
    mg = max(rec.sa for rec in infantry if rec.kind == "mg_team")
    most = max(rec.sa for rec in infantry if rec.kind != "mg_team") + mg
    if not 0 <= sa <= most:
        raise RuleError(
            f"{flag}: strength {sa} is out of range: 0 to {most} (the strongest SA plus an "
            "attached machine gun, L2)"
        )


def _check_assault(r, strengths: tuple[int, ...], defender: int) -> None:
    """Close-assault strengths within what the data allows (L7, decision Q15): each attacker
    from 1 to the strongest infantry's assault value plus an LMG; the defender an SA."""
    top = max(rec.assault for rec in r.cat.all("infantry")) + int(r.const("assault-lmg"))
    for s in strengths:
        if not 1 <= s <= top:
            raise RuleError(
                f"--attackers: strength {s} is out of range: 1 to {top} (the strongest "
                "assault squad with an LMG, L7)"
            )
    _check_sa(r, "--defender", defender)


def build_assault_infantry(cat, opts, *, attackers, defender, terrain) -> Query:
    try:
        strengths = tuple(int(x) for x in attackers.split(","))
    except ValueError:
        raise RuleError(
            f"--attackers {attackers!r}: expected comma-separated numbers, e.g. 1,1,3"
        ) from None
    r = _rules(cat, opts)
    _check_assault(r, strengths, defender)
    a = assault.InfantryAssault(strengths, defender, terrain)
    return Query(
        assault.assault_infantry,
        (_rules(cat, opts), a),
        ("attackers_win", "defender_wins"),
        f"assault {attackers} vs {defender}",
    )


def build_morale(cat, opts) -> Query:
    return Query(morale.morale_check, (_rules(cat, opts),), ("pass", "fail"), "morale check")


TARGET_PARAMS = (
    Param("target", str, "infantry", "kind of target", ("infantry", "soft", "armoured")),
    Param("target_vehicle", str, None, "a chart vehicle as the target (sets kind and armour)"),
    TERRAIN,
    flag("hull_down", "target is hull-down"),
    flag("target_suppressed", "target is suppressed"),
)
STRENGTH = (
    Param(
        "strength",
        int,
        None,
        "HE strength",
        example=6,
        **STRENGTH_BOUND,
    ),
    Param("battery", str, None, "HE class instead of a strength, e.g. medium-gun"),
)

ACTIONS = {
    a.name: a
    for a in [
        Action(
            "fire",
            "gun fire at a vehicle or gun",
            (
                Param(
                    "firer",
                    str,
                    required=True,
                    help="firing vehicle, gun or AT weapon",
                    example="Tiger",
                ),
                Param(
                    "target", str, required=True, help="target vehicle or gun", example="Sherman"
                ),
                Param(
                    "range",
                    float,
                    required=True,
                    help="range in inches",
                    example=12,
                    **RANGE_BOUND,
                ),
                Param(
                    "aspect",
                    str,
                    "front",
                    "target aspect seen from the firer",
                    ("front", "side", "rear"),
                ),
                flag("target_moved", "target moved last move"),
                flag("firer_moved", "firer moved up to half its move"),
                flag("firer_moved_far", "firer moved more than half (decision Q6)"),
                flag("firer_buttoned", "firer buttoned up"),
                flag("firer_damaged", "firer is damaged"),
                TERRAIN,
                flag("hull_down", "target hull-down"),
                Param("weapon", str, "main", "main, or an alternative gun such as 75mm"),
                Param("target_variant", str, None, "target variant, e.g. late_armour"),
            ),
            build_fire,
        ),
        Action(
            "small-arms",
            "small-arms fire at infantry",
            (
                Param(
                    "strength",
                    int,
                    required=True,
                    help="total SA strength of the attack",
                    example=4,
                    **STRENGTH_BOUND,
                ),
                Param(
                    "range",
                    float,
                    required=True,
                    help="range in inches",
                    example=12,
                    **RANGE_BOUND,
                ),
                Param(
                    "weapon", str, "rifle", "sets the range bands", ("rifle", "lmg", "mmg", "hmg")
                ),
                TERRAIN,
                flag("target_suppressed", "target is suppressed"),
                flag("suppressive", "suppressive fire"),
            ),
            build_small_arms,
        ),
        Action(
            "soft-vehicle",
            "small-arms fire at an unarmoured vehicle",
            (
                Param(
                    "strength",
                    int,
                    required=True,
                    help="SA strength",
                    example=4,
                    **STRENGTH_BOUND,
                ),
                Param(
                    "range",
                    float,
                    required=True,
                    help="range in inches",
                    example=12,
                    **RANGE_BOUND,
                ),
                Param(
                    "weapon",
                    str,
                    "rifle",
                    "sets ranges; MGs use +2",
                    ("rifle", "lmg", "mmg", "hmg"),
                ),
                TERRAIN,
                flag("mg", "machine guns took part"),
            ),
            build_soft_vehicle,
        ),
        Action("he", "one HE burst on a unit", (*STRENGTH, *TARGET_PARAMS), build_he),
        Action(
            "indirect",
            "call for fire, drift and burst",
            (
                *STRENGTH,
                flag("russian", "Russian observer (7+)"),
                Param("observer", str, "fo", "fo/command stand or other", ("fo", "other")),
                *TARGET_PARAMS,
            ),
            build_indirect,
        ),
        Action(
            "he-direct",
            "direct HE from a gun",
            (
                Param(
                    "firer", str, required=True, help="firing vehicle or gun", example="PzKw IV H"
                ),
                Param(
                    "range",
                    float,
                    required=True,
                    help="range in inches",
                    example=12,
                    **RANGE_BOUND,
                ),
                *TARGET_PARAMS,
                flag("target_moved", "target moved"),
                flag("firer_moved", "firer moved up to half"),
                flag("firer_buttoned", "firer buttoned"),
                flag("firer_damaged", "firer damaged"),
            ),
            build_he_direct,
        ),
        Action(
            "flame",
            "flamethrower attack",
            (
                Param(
                    "weapon", str, "man-portable", "man-portable, vehicle, or a flame tank's name"
                ),
                Param("target_vehicle", str, None, "a vehicle target"),
                TERRAIN,
                flag("target_suppressed", "target is suppressed"),
            ),
            build_flame,
        ),
        Action(
            "assault-vehicle",
            "one squad close-assaults a vehicle",
            (
                Param("vehicle", str, required=True, help="the vehicle", example="Panther"),
                flag("buttoned", "vehicle buttoned up"),
                Param("terrain", str, None, "the assaulting squad's terrain"),
                flag("suppressed", "assaulting squad is suppressed"),
                Param(
                    "riders_sa",
                    int,
                    0,
                    "SA of infantry riding on the vehicle (fires first)",
                    **SA_BOUND,
                ),
                flag(
                    "escort_within_3",
                    'friendly infantry of the vehicle within 3" (must be assaulted first)',
                ),
            ),
            build_assault_vehicle,
        ),
        Action(
            "assault-infantry",
            "infantry close assault",
            (
                Param(
                    "attackers",
                    str,
                    required=True,
                    help="assault strengths, e.g. 1,1,3 (LMG +2)",
                    example="1,1,3",
                ),
                Param(
                    "defender",
                    int,
                    required=True,
                    help="defender's SA plus support weapons",
                    example=2,
                    **SA_BOUND,
                ),
                Param("terrain", str, None, "defender's terrain"),
            ),
            build_assault_infantry,
        ),
        Action("morale", "a morale check", (), build_morale),
    ]
}
