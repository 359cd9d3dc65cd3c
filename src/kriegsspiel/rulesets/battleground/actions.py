"""Battleground actions for `kriegsspiel odds|resolve battleground ACTION` and the odds page.

Each builder turns CLI parameters into one resolution of `rules/` (digest §3 cited there)."""

from __future__ import annotations

import difflib
from typing import Any

from ...data.catalogue import Catalogue
from ...data.errors import RuleError
from ..actions import Action, Param, Query, flag
from .models import COLUMNS, ATWeapon, Gun, SmallArm, Vehicle
from .options import Options
from .rules import (
    armour,
    artillery,
    checks,
    close_assault,
    grenades,
    hand_to_hand,
    infantry_at,
    mines,
    movement,
    sighting,
    small_arms,
    tank_fire,
    tank_morale,
)
from .rules.armour import ARMOUR_OUTCOMES, FACINGS, Impact
from .rules.core import QUALITIES, SIZES, Rules, parse_ml
from .rules.effects import COVERS, RESULTS, Target

# numeric bounds shared by several parameters (issue 15 item 3), with their source
BATTALION_BOUND = dict(min=0, max=60, bound="at most a tank battalion")
CALIBRE_BOUND = dict(min=1, max=240, bound="generous: the heaviest field artillery")
D10_BOUND = dict(min=0, max=10, bound="a d10 number")
INCHES_BOUND = dict(min=0, max=100, bound="generous: longer than a 6 by 4 ft table's diagonal")
LEADER_BOUND = dict(min=-3, max=3, bound="generous: leader modifiers run from -3 to +3")
PEN_BOUND = dict(min=0, max=67, bound="the highest penetration in the data")
SQUAD_BOUND = dict(min=1, max=20, bound="generous: a squad of twenty figures")


QUALITY = Param("quality", str, "regular", "troop or crew quality", QUALITIES)
FACING = Param("facing", str, "front", "armour facing toward the firer", FACINGS)
SEVERITY = Param("severity", str, "normal", "check severity", ("normal", "half", "quarter"))
MODS = Param("mods", str, None, "extra modifiers, e.g. 'smoke:-2,wire:+1'")
COVER = Param("cover", str, None, f"target cover, comma-separated: {', '.join(COVERS)}")


def _rules(cat: Catalogue, opts: Options) -> Rules:
    return Rules(cat, opts)


def _names(text: str | None) -> tuple[str, ...]:
    return tuple(p.strip() for p in (text or "").split(",") if p.strip())


def _known(flag: str, given: tuple[str, ...], allowed: tuple[str, ...]) -> tuple[str, ...]:
    """Comma-separated names, each one of `allowed` (else the flag, the name and the list)."""
    for name in given:
        if name not in allowed:
            close = difflib.get_close_matches(name, allowed, n=3)
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            raise RuleError(f"{flag}: {name!r} is not one of {', '.join(allowed)}{hint}")
    return given


def _moving(text: str) -> str:
    """`none`, `front_rear` or `side:<inches>` (§3.29), checked."""
    if text in ("none", "front_rear"):
        return text
    kind, _, inches = text.partition(":")
    try:
        ok = kind == "side" and 0 <= float(inches) <= 100
    except ValueError:
        ok = False
    if not ok:
        raise RuleError(
            f"--target-moving {text!r}: expected none, front_rear or side:<inches> "
            "(inches 0 to 100, longer than a 6 by 4 ft table's diagonal)"
        )
    return text


def _pairs(text: str | None) -> tuple[tuple[str, int], ...]:
    out = []
    for part in _names(text):
        name, sep, value = part.rpartition(":")
        try:
            if not sep or not name:
                raise ValueError
            out.append((name, int(value)))
        except ValueError:
            raise RuleError(f"--mods {part!r}: expected name:value, e.g. smoke:-2") from None
    return tuple(out)


def _rec(cat: Catalogue, kind: str, name: str) -> Any:
    return cat.get(kind, name)


def _morale(ml: str) -> tuple[int, int]:
    return parse_ml(ml)


def _target(cat: Catalogue, p: dict) -> Impact:
    v = _rec(cat, "vehicle", p["target"])
    assert isinstance(v, Vehicle)
    return Impact(
        v,
        p.get("facing", "front"),
        0,
        hull_down=p.get("hull_down", False),
        leader_shift=p.get("leader_shift", 0) or 0,
        skirts=p.get("skirts", False),
    )


# ----------------------------------------------------------------------- checks (§3.2-§3.6)


def _check(p: dict, fire: bool) -> checks.Check:
    morale, _ = _morale(p["morale"])
    return checks.Check(
        morale,
        _pairs(p.get("mods")),
        p.get("severity", "normal"),
        p.get("light_wound", False),
        p.get("team_of_one", False),
        fire,
        p.get("leadership", 0) or 0,
    )


def build_morale(cat, opts, **p) -> Query:
    c = _check(p, not p.get("not_fire", False))
    return Query(
        checks.morale_check,
        (_rules(cat, opts), c),
        checks.MORALE_OUTCOMES,
        f"morale check against {c.morale}",
    )


def _simple(fn, label):
    def build(cat, opts, **p) -> Query:
        c = _check(p, False)
        return Query(
            fn, (_rules(cat, opts), c), checks.CHECK_OUTCOMES, f"{label} against {c.morale}"
        )

    return build


def build_rally(cat, opts, **p) -> Query:
    morale, lead = _morale(p["morale"])
    r = checks.Rally(
        morale, p["mode"], p["leadership"] or lead, _pairs(p.get("mods")), p["light_wound"]
    )
    return Query(checks.rally, (_rules(cat, opts), r), ("rallied", "broken"), f"{r.mode} rally")


def build_squad(cat, opts, **p) -> Query:
    leader = _morale(p["leader"])[0] if p.get("leader") else None
    s = checks.Squad(
        p["size"], p["disabled"], p["quality"], leader, _pairs(p.get("mods")), p["ripple"]
    )
    return Query(
        checks.squad_morale,
        (_rules(cat, opts), s),
        checks.SQUAD_OUTCOMES,
        f"squad morale: {s.disabled} of {s.size} disabled",
    )


def build_no_quarter(cat, opts, **p) -> Query:
    morale, _ = _morale(p["morale"])
    return Query(
        checks.no_quarter,
        (_rules(cat, opts), p["nationality"], p["whose"], morale, p.get("versus") or ""),
        ("fires", "refuses"),
        f"No Quarter: {p['nationality']} at surrendering {p['whose']} men",
    )


def build_sight(cat, opts, **p) -> Query:
    s = sighting.Sight(
        float(p["range"]),
        p["target"],
        p["concealed"],
        p["moving"],
        p["firing"],
        p["size"],
        _names(p.get("shifts")),
        p.get("terrain"),
    )
    return Query(
        sighting.sight,
        (_rules(cat, opts), s),
        sighting.OUTCOMES,
        f"sight {s.row()}{f' in {s.terrain}' if s.terrain else ''} at {s.range:g} in",
    )


# ----------------------------------------------------------------------- small arms (§3.7-)


def _fire(cat: Catalogue, p: dict, weapon: str | None = None) -> small_arms.Fire:
    w = _rec(cat, "small_arm", weapon or p["weapon"])
    assert isinstance(w, SmallArm)
    return small_arms.Fire(
        w,
        float(p["range"]),
        p["quality"],
        Target(_names(p.get("cover")), p.get("prone", False)),
        p.get("light_wound", False),
        p.get("non_qualified", False),
        p.get("captured", False),
        p.get("leadership", 0) or 0,
        p.get("aimed", False),
        p.get("sniper", False),
        p.get("on_move", False),
        p.get("no_target", False),
        p.get("crew_missing", 0) or 0,
        p.get("mode", "normal"),
    )


FIRE_PARAMS = (
    Param(
        "range",
        float,
        required=True,
        help="range in inches",
        example=10,
        **INCHES_BOUND,
    ),
    QUALITY,
    COVER,
    flag("prone", "target prone"),
    flag("light_wound", "firer light wounded"),
    flag("non_qualified", "crew weapon not his own"),
    flag("captured", "captured weapon"),
    Param(
        "leadership",
        int,
        0,
        "directing leader's modifier, e.g. -2",
        **LEADER_BOUND,
    ),
    flag("aimed", "aimed shot (action 1 aims)"),
    flag("sniper", "sniper"),
    flag("on_move", "passenger on a moving vehicle"),
    flag("no_target", "into smoke / unseen area / pistol port"),
    Param(
        "crew_missing",
        int,
        0,
        "crew members missing",
        min=0,
        max=10,
        bound="generous: a crew of ten",
    ),
)


def build_fire(cat, opts, **p) -> Query:
    f = _fire(cat, p)
    if p.get("ambush"):
        reach = 40 if f.sniper else 15
        if f.range > reach:
            raise RuleError(f"Ambush fire reaches {reach} in, not {f.range:g} (§3.10, §3.21)")
        if f.sniper and f.light_wound:
            raise RuleError("a light-wounded sniper cannot set Ambush (§3.21)")
    return Query(
        small_arms.burst,
        (_rules(cat, opts), f),
        ("miss", *RESULTS, "jam"),
        f"{f.weapon.name} ({f.mode}) at {f.range:g} in",
    )


def _groups(text: str) -> list[tuple[int, str]]:
    """'8 x Kar 98k, 1 x MG-34 LMG, MP-40' -> [(8, 'Kar 98k'), (1, 'MG-34 LMG'), (1, 'MP-40')]."""
    out = []
    for part in _names(text):
        count, sep, name = part.partition("x")
        if sep and count.strip().isdigit():
            out.append((int(count), name.strip()))
        else:
            out.append((1, part))
    if not out or any(n < 1 for n, _ in out):
        raise RuleError(f"--weapons {text!r}: expected e.g. '8 x Kar 98k, 1 x MG-34 LMG'")
    return out


def build_squad_fire(cat, opts, **p) -> Query:
    groups = tuple((_fire(cat, p, name), n) for n, name in _groups(p["weapons"]))
    s = small_arms.SquadFire(groups, p["target_size"])
    return Query(
        small_arms.squad_fire,
        (_rules(cat, opts), s),
        tuple(f"casualties_{i}" for i in range(s.target_size + 1)),
        f"squad fire ({p['weapons']}) at {float(p['range']):g} in",
    )


def build_grenade(cat, opts, **p) -> Query:
    t = grenades.Throw(
        float(p["range"]),
        p["kind"],
        _names(p.get("grenade_mods")),
        p["vehicle_motion"],
        Target(_names(p.get("cover")), p["prone"]),
        p["enclosed"],
        p["blind"],
        p["from_moving_halftrack"],
    )
    return Query(
        grenades.grenade, (_rules(cat, opts), t), grenades.OUTCOMES, f"{t.kind} at {t.range:g} in"
    )


def build_flame(cat, opts, **p) -> Query:
    f = grenades.Flame(p["zone"], p["active"], Target(_names(p.get("cover")), p["prone"]))
    return Query(
        grenades.flamethrower,
        (_rules(cat, opts), f),
        ("fails_to_ignite", *RESULTS),
        f"flamethrower, {f.zone} zone",
    )


def build_carrier(cat, opts, **p) -> Query:
    t = Target(_names(p.get("cover")), p["prone"])
    return Query(
        grenades.flame_carrier_hit,
        (_rules(cat, opts), p["column"], t),
        ("tank_explodes", "tank_holds"),
        f"flamethrower carrier hit (column {p['column']})",
    )


def build_demolition(cat, opts, **p) -> Query:
    c = grenades.Charge(p["kind"], p["packs"])
    return Query(grenades.demolition, (_rules(cat, opts), c), ("success", "fails"), c.kind)


def build_hth(cat, opts, **p) -> Query:
    a = hand_to_hand.Fighter(
        _names(p.get("attacker_mods")), p["attacker_leader"], p["extra_attackers"]
    )
    d = hand_to_hand.Fighter(_names(p.get("defender_mods")), p["defender_leader"])
    return Query(
        hand_to_hand.hand_to_hand,
        (_rules(cat, opts), a, d, p["obstacle"]),
        hand_to_hand.OUTCOMES,
        "hand-to-hand",
    )


# ----------------------------------------------------------------------- man vs tank (§3.17-)


def build_afv_gut(cat, opts, **p) -> Query:
    morale, _ = _morale(p["morale"])
    a = close_assault.Approach(
        morale,
        p["advancing"],
        not p["not_tank"],
        _names(p.get("approach_mods")),
        p.get("distance"),
    )
    return Query(
        close_assault.afv_gut,
        (_rules(cat, opts), a),
        ("stands", "retreats", "no_check"),
        "AFV gut check",
    )


def build_close_assault(cat, opts, **p) -> Query:
    a = close_assault.Assault(
        p["attack"],
        _target(cat, p),
        _names(p.get("assault_mods")),
        p["cluster"],
        p["moving"],
        p["thrown"],
        p["throw_range"],
    )
    return Query(
        close_assault.close_assault,
        (_rules(cat, opts), a),
        ("failed", "beside_vehicle", *ARMOUR_OUTCOMES[2:]),
        f"close assault: {a.attack} on {a.target.vehicle.name}",
    )


def build_molotov(cat, opts, **p) -> Query:
    m = close_assault.Molotov(p["open_top"], _names(p.get("molotov_mods")))
    return Query(close_assault.molotov, (_rules(cat, opts), m), (), "Molotov on a vehicle")


def build_at_weapon(cat, opts, **p) -> Query:
    w = _rec(cat, "at_weapon", p["weapon"])
    assert isinstance(w, ATWeapon)
    s = infantry_at.ATShot(w, float(p["range"]), _target(cat, p), _pairs(p.get("mods")))
    return Query(
        infantry_at.at_weapon,
        (_rules(cat, opts), s),
        ARMOUR_OUTCOMES[:1] + ARMOUR_OUTCOMES[2:],
        f"{w.name} at {s.target.vehicle.name}, {s.range:g} in, {s.target.facing}",
    )


def build_mg_vs_afv(cat, opts, **p) -> Query:
    w = _rec(cat, "at_weapon", p["weapon"])
    assert isinstance(w, ATWeapon)
    if w.family != "mg":
        raise RuleError(f"{w.name} is not an MG row; use at-weapon")
    s = infantry_at.MGBurst(w, p["rof"], float(p["range"]), _target(cat, p), _pairs(p.get("mods")))
    return Query(
        infantry_at.mg_vs_afv,
        (_rules(cat, opts), s),
        ("no_effect", *ARMOUR_OUTCOMES[2:]),
        f"{w.name} burst at {s.target.vehicle.name}",
    )


def _gun(cat: Catalogue, name: str) -> tank_fire.Gun:
    try:
        rec = cat.get("vehicle", name)
    except LookupError as exc_v:
        try:
            rec = cat.get("gun", name)
        except LookupError:
            raise exc_v from None
    if rec.gun_mm is None or rec.barrel is None:  # type: ignore[union-attr]
        raise RuleError(f"{rec.name} has no main gun")
    ph = rec.placeholders("pen", "barrel", "gun_mm")
    return tank_fire.Gun(
        rec.name,
        rec.gun_mm,  # type: ignore[union-attr]
        rec.barrel,  # type: ignore[union-attr]
        tuple(rec.pen.items()),  # type: ignore[union-attr]
        getattr(rec, "turret", None) or "N",
        tuple(ph),
        isinstance(rec, Gun),
        "gyro" in getattr(rec, "specials", ()),
        rec.id == "t34_m1941",
        getattr(rec, "he_size", None) or "medium",
    )


TARGET_PARAMS = (
    Param("target", str, required=True, help="target vehicle", example="pziv_h"),
    FACING,
    flag("hull_down", "target hull down"),
    flag("skirts", "Schurzen/sandbags cover the struck location"),
)


def build_tank_fire(cat, opts, **p) -> Query:
    gun = _gun(cat, p["firer"])
    lead_to_location = p["leader_use"] == "location"
    tgt = _target(cat, {**p, "leader_shift": -p["leadership"] if lead_to_location else 0})
    s = tank_fire.Shot(
        gun,
        float(p["range"]),
        tgt,
        p["ammo"],
        p["quality"],
        0 if lead_to_location else p["leadership"],
        p["aimed"],
        p["on_move"],
        p["moved_previous"],
        p["buttoned_up"],
        p["no_commander"],
        p["no_target"],
        p["zeroed"],
        p["shots_before"],
        _moving(p["target_moving"]),
        p["light_woods"],
        p["turret_turn"],
        p["turret_turned_before"],
    )
    return Query(
        tank_fire.tank_fire,
        (_rules(cat, opts), s),
        ARMOUR_OUTCOMES,
        f"{gun.name} ({s.ammo}) at {tgt.vehicle.name}, {s.range:g} in, {tgt.facing}",
    )


def build_he_fire(cat, opts, **p) -> Query:
    gun = _gun(cat, p["firer"])
    s = tank_fire.HEShot(
        gun,
        float(p["range"]),
        Target(_names(p.get("cover")), p["prone"]),
        p["ammo"],
        p["quality"],
        _names(p.get("gun_mods")),
        p["leadership"],
    )
    return Query(
        tank_fire.he_fire,
        (_rules(cat, opts), s),
        ("miss", "jam", *RESULTS),
        f"{gun.name} {s.ammo} at a figure, {s.range:g} in",
    )


def build_penetration(cat, opts, **p) -> Query:
    tgt = _target(cat, p)
    imp = Impact(
        tgt.vehicle,
        tgt.facing,
        p["pen"],
        p["heat"],
        p["gun_mm"],
        p["small_arms"],
        tgt.hull_down,
        0,
        tgt.skirts,
    )
    if p.get("location"):
        return Query(
            armour.at_location,
            (_rules(cat, opts), imp, p["location"]),
            ARMOUR_OUTCOMES[2:],
            f"penetration {imp.pen} at {tgt.vehicle.name} {tgt.facing} location {p['location']}",
        )
    return Query(
        armour.impact,
        (_rules(cat, opts), imp),
        ARMOUR_OUTCOMES[2:],
        f"penetration {imp.pen} at {tgt.vehicle.name} {tgt.facing}",
    )


# ----------------------------------------------------------------------- artillery (§3.33-)


def build_artillery(cat, opts, **p) -> Query:
    if p.get("target"):  # checked even when unused: a misspelt name is never ignored
        _rec(cat, "vehicle", p["target"])
    veh = _target(cat, {**p, "facing": "top"}) if p["on"] == "afv" else None
    s = artillery.Strike(
        p["on"],
        p["ring"],
        p["gun_mm"],
        p["he_pen"],
        Target(_names(p.get("cover")), p["prone"]),
        p["forest"],
        veh,
    )
    return Query(
        artillery.strike, (_rules(cat, opts), s), (), f"{p['gun_mm']} mm shell on a {s.target}"
    )


def build_offboard(cat, opts, **p) -> Query:
    return Query(
        artillery.offboard,
        (_rules(cat, opts), p["contact"], p["availability"]),
        ("mission_next_turn", "no_contact", "unavailable"),
        f"fire mission call: contact {p['contact']}, availability {p['availability']}",
    )


def build_correction(cat, opts, **p) -> Query:
    return Query(
        artillery.correction, (_rules(cat, opts),), ("on_target",), "on-board fire correction"
    )


# ----------------------------------------------------------------------- hazards


def build_mine(cat, opts, **p) -> Query:
    m = mines.Mine(p["field"], p["movement"], p["anti_tank"], p["detector"], p["marked_lane"])
    return Query(
        mines.mine,
        (_rules(cat, opts), m),
        ("no_detonation",),
        f"{'AT' if m.anti_tank else 'AP'} mine",
    )


def build_booby(cat, opts, **p) -> Query:
    b = mines.BoobyTrap(_morale(p["morale"])[0], _pairs(p.get("mods")))
    return Query(
        mines.booby_trap,
        (_rules(cat, opts), b),
        ("refuses", "disarmed", "still_armed", "detonates"),
        "clear a booby trap",
    )


def build_bog(cat, opts, **p) -> Query:
    b = movement.Bog(p["terrain"], _names(p.get("bog_mods")), p["unbogging"])
    return Query(
        movement.bog,
        (_rules(cat, opts), b),
        ("clear", "bogged", "free", "still_bogged", "immobilized"),
        f"bog check: {b.terrain}",
    )


def build_bail_out(cat, opts, **p) -> Query:
    leader = _morale(p["leader"])[0] if p.get("leader") else None
    c = tank_morale.CrewCheck(
        p["quality"], p["tank_leader"], leader, p["cause"], _pairs(p.get("mods"))
    )
    return Query(
        tank_morale.crew_morale,
        (_rules(cat, opts), c),
        tank_morale.CREW_OUTCOMES,
        f"crew morale ({c.cause})",
    )


def build_integrity(cat, opts, **p) -> Query:
    pl = tank_morale.Platoon(
        p["tanks"],
        p["out"],
        p["brewed"],
        p["quality"],
        p["tank_leader"],
        _known("--integrity-mods", _names(p.get("integrity_mods")), tank_morale.INTEGRITY_MODS),
    )
    return Query(
        tank_morale.platoon_integrity,
        (_rules(cat, opts), pl),
        tank_morale.INTEGRITY_OUTCOMES,
        f"platoon integrity: {pl.out}/{pl.tanks} out",
    )


def build_availability(cat, opts, **p) -> Query:
    return Query(
        tank_morale.availability,
        (_rules(cat, opts), p["number"], p["what"]),
        ("available", "absent"),
        f"{p['what']} availability <= {p['number']}",
    )


def build_run_down(cat, opts, **p) -> Query:
    return Query(
        movement.run_down,
        (_rules(cat, opts), _morale(p["morale"])[0], p["prone_open"], p["light_wound"]),
        ("escapes", "HW"),
        "run down by a vehicle",
    )


def build_crash(cat, opts, **p) -> Query:
    return Query(movement.crash, (_rules(cat, opts),), (), "crash chart")


def build_truck_hit(cat, opts, **p) -> Query:
    return Query(
        movement.truck_hit, (_rules(cat, opts), p["facing"], p["he"]), (), "main-gun hit on a truck"
    )


def build_damage(cat, opts, **p) -> Query:
    return Query(
        movement.damage_points,
        (_rules(cat, opts), p["gun_mm"]),
        ("dp_0", "dp_half", "dp_1", "dp_2"),
        f"{p['gun_mm']} mm HE on terrain",
    )


def build_ignite(cat, opts, **p) -> Query:
    return Query(
        grenades.ignite, (_rules(cat, opts), p["source"]), ("burning", "no_fire"), p["source"]
    )


def build_deviation(cat, opts, **p) -> Query:
    return Query(
        artillery.deviation,
        (_rules(cat, opts), p["mode"]),
        ("on_target",),
        f"deviation: {p['mode']}",
    )


def build_passenger_bail(cat, opts, **p) -> Query:
    return Query(
        movement.bail_moving, (_rules(cat, opts),), RESULTS, "bail out of a moving vehicle"
    )


def build_ramming(cat, opts, **p) -> Query:
    return Query(movement.ramming, (_rules(cat, opts),), (), "ramming")


MORALE = Param(
    "morale", str, required=True, help="morale, or morale-leadership like 12-1", example="10"
)
CHECK_PARAMS = (
    MORALE,
    SEVERITY,
    MODS,
    flag("light_wound", "light wounded (+5)"),
    flag("team_of_one", "alone: half morale"),
    Param(
        "leadership",
        int,
        0,
        "leader in base contact: his modifier, e.g. -1",
        **LEADER_BOUND,
    ),
)

ACTIONS = {
    a.name: a
    for a in [
        Action(
            "sight",
            "sighting check (§3.1)",
            (
                Param(
                    "range",
                    float,
                    required=True,
                    help="range in inches",
                    example=20,
                    **INCHES_BOUND,
                ),
                Param("target", str, "infantry", "target kind", ("infantry", "vehicle")),
                flag("concealed", "target in concealing terrain"),
                flag("moving", "target moved last action"),
                flag("firing", "target fired last action"),
                Param("size", str, "M", "vehicle size", SIZES),
                Param("shifts", str, None, f"column shifts: {', '.join(sighting.SHIFTS)}"),
                Param("terrain", str, None, "target's terrain (sets Concealed), e.g. light_woods"),
            ),
            build_sight,
        ),
        Action(
            "morale",
            "morale check; heroes and cowards when caused by fire (§3.3)",
            (*CHECK_PARAMS, flag("not_fire", "not caused by enemy fire")),
            build_morale,
        ),
        Action(
            "skill", "skill check (§3.3)", CHECK_PARAMS, _simple(checks.skill_check, "skill check")
        ),
        Action("gut", "gut check (§3.3)", CHECK_PARAMS, _simple(checks.gut_check, "gut check")),
        Action(
            "rally",
            "rally a broken figure (§3.5)",
            (
                MORALE,
                Param("mode", str, "self", "self or leader rally", ("self", "leader")),
                Param(
                    "leadership",
                    int,
                    0,
                    "rallying leader's modifier",
                    **LEADER_BOUND,
                ),
                MODS,
                flag("light_wound", "light wounded (+5)"),
            ),
            build_rally,
        ),
        Action(
            "squad-morale",
            "squad/team morale at the break point (§3.6)",
            (
                Param(
                    "size",
                    int,
                    required=True,
                    help="original figures",
                    example=10,
                    **SQUAD_BOUND,
                ),
                Param(
                    "disabled",
                    int,
                    required=True,
                    help="KIA + HW + broken + captured",
                    example=3,
                    **{**SQUAD_BOUND, "min": 0},
                ),
                QUALITY,
                Param("leader", str, None, "best surviving leader's morale"),
                MODS,
                flag("ripple", "ripple effect forces the check"),
            ),
            build_squad,
        ),
        Action(
            "no-quarter",
            "gun down surrendering men (§3.4)",
            (
                MORALE,
                Param(
                    "nationality",
                    str,
                    "german",
                    "shooter",
                    ("american", "russian", "commissar", "german", "german_ss"),
                ),
                Param("whose", str, "enemy", "whose men surrender", ("own", "enemy")),
                Param(
                    "versus",
                    str,
                    None,
                    "the surrendering men's nation (the No Quarter table's rows)",
                    ("american", "russian", "german", "german_ss", "other"),
                ),
            ),
            build_no_quarter,
        ),
        Action(
            "fire",
            "small-arms fire action at one figure (§3.8)",
            (
                Param(
                    "weapon",
                    str,
                    required=True,
                    help="small arm, e.g. Kar 98k, MP-40",
                    example="Kar 98k",
                ),
                *FIRE_PARAMS,
                Param(
                    "mode", str, "normal", "fire mode", ("normal", "spray", "raking", "plunging")
                ),
                flag("ambush", "fired from Ambush (15 in; snipers 40)"),
            ),
            build_fire,
        ),
        Action(
            "squad-fire",
            "a squad's fire action: casualties in the target squad (§3.8)",
            (
                Param(
                    "weapons",
                    str,
                    required=True,
                    help="e.g. '8 x Kar 98k, 1 x MG-34 LMG, 1 x MP-40'",
                    example="8 x Kar 98k, 1 x MG-34 LMG, 1 x MP-40",
                ),
                *FIRE_PARAMS,
                Param(
                    "target_size",
                    int,
                    10,
                    "figures in the target squad",
                    **SQUAD_BOUND,
                ),
            ),
            build_squad_fire,
        ),
        Action(
            "grenade",
            "grenade or rifle grenade at a figure at the aim point (§3.12)",
            (
                Param(
                    "range",
                    float,
                    required=True,
                    help="range in inches",
                    example=5,
                    **INCHES_BOUND,
                ),
                Param("kind", str, "thrown", "grenade kind", grenades.KINDS),
                Param("grenade_mods", str, None, f"modifiers: {', '.join(grenades.GRENADE_MODS)}"),
                Param(
                    "vehicle_motion",
                    float,
                    0.0,
                    "inches the target vehicle moved",
                    **INCHES_BOUND,
                ),
                COVER,
                flag("prone", "target prone"),
                flag("enclosed", "target in an enclosed space (ring A)"),
                flag("blind", "long-range rifle grenade at a point out of sight"),
                flag("from_moving_halftrack", "thrown from a moving halftrack"),
            ),
            build_grenade,
        ),
        Action(
            "flame-carrier",
            "a hit flamethrower carrier: does the tank explode (§3.15)",
            (
                Param("column", str, "E", "effects column of the weapon that hit him", COLUMNS),
                COVER,
                flag("prone", "carrier prone"),
            ),
            build_carrier,
        ),
        Action(
            "ignite",
            "does a fire start (§3.15, §3.36)",
            (Param("source", str, "flamethrower_ignite", "what sets it", grenades.IGNITERS),),
            build_ignite,
        ),
        Action(
            "deviation",
            "artillery deviation of a shot or mission (§3.33-§3.34)",
            (Param("mode", str, "first_shot", "which shot", artillery.DEVIATIONS),),
            build_deviation,
        ),
        Action(
            "passenger-bail",
            "bail out of a moving vehicle: column F (§3.39)",
            (),
            build_passenger_bail,
        ),
        Action(
            "flamethrower",
            "flamethrower burst at a figure (§3.15)",
            (
                Param("zone", str, "yellow", "template zone", ("red", "yellow")),
                flag("active", "fired last action (no activation roll)"),
                COVER,
                flag("prone", "target prone"),
            ),
            build_flame,
        ),
        Action(
            "demolition",
            "pole charge or La Neuville bridge (§3.14)",
            (
                Param("kind", str, "pole_slit", "charge", ("pole_slit", "pole_window", "bridge")),
                Param(
                    "packs",
                    int,
                    0,
                    "demo packs set on the bridge",
                    min=0,
                    max=10,
                    bound="generous: ten demolition packs",
                ),
            ),
            build_demolition,
        ),
        Action(
            "hand-to-hand",
            "hand-to-hand combat (§3.13)",
            (
                Param("attacker_mods", str, None, f"attacker: {', '.join(hand_to_hand.MODS)}"),
                Param("defender_mods", str, None, "defender modifiers"),
                Param(
                    "attacker_leader",
                    int,
                    0,
                    "attacker leader's modifier",
                    **LEADER_BOUND,
                ),
                Param(
                    "defender_leader",
                    int,
                    0,
                    "defender leader's modifier",
                    **LEADER_BOUND,
                ),
                Param(
                    "extra_attackers",
                    int,
                    0,
                    "attackers beyond the first",
                    min=0,
                    max=10,
                    bound="generous: ten more attackers in one melee",
                ),
                flag("obstacle", "fought across an obstacle"),
            ),
            build_hth,
        ),
        Action(
            "afv-gut",
            "gut check when an AFV comes close or to advance on it (§3.17)",
            (
                MORALE,
                flag("advancing", "moving within range of it"),
                flag("not_tank", "an AFV that is not a tank or assault gun"),
                Param(
                    "approach_mods",
                    str,
                    None,
                    "elite, green, in_cover, front, unbuttoned, engineer, in_smoke, immobilized",
                ),
                Param(
                    "distance",
                    float,
                    None,
                    "inches from the AFV (checks within 5, or 4)",
                    **INCHES_BOUND,
                ),
            ),
            build_afv_gut,
        ),
        Action(
            "close-assault",
            "close assault on a vehicle (§3.18)",
            (
                Param(
                    "attack",
                    str,
                    required=True,
                    help="attack",
                    choices=close_assault.ATTACKS,
                    example="magnetic",
                ),
                *TARGET_PARAMS,
                Param(
                    "assault_mods",
                    str,
                    None,
                    "elite, green, light_wound, engineer, anti_magnetic_paste, zimmerit",
                ),
                flag("cluster", "cluster grenade"),
                flag("moving", "vehicle moving"),
                flag("thrown", "thrown satchel or demo pack"),
                Param(
                    "throw_range",
                    float,
                    0.0,
                    "inches the satchel is thrown",
                    min=0,
                    max=10,
                    bound="generous: twice a grenade's throw",
                ),
            ),
            build_close_assault,
        ),
        Action(
            "molotov",
            "Molotov cocktail on a vehicle (§3.18)",
            (
                flag("open_top", "lands in an open-top vehicle"),
                Param("molotov_mods", str, None, "unbuttoned, flamethrower, rain_snow"),
            ),
            build_molotov,
        ),
        Action(
            "at-weapon",
            "infantry AT weapon or ATR at a vehicle (§3.19)",
            (
                Param(
                    "weapon",
                    str,
                    required=True,
                    help="e.g. Panzerfaust 60, Bazooka 44, Anti-tank rifle",
                    example="Panzerfaust 60",
                ),
                Param(
                    "range",
                    float,
                    required=True,
                    help="range in inches",
                    example=5,
                    **INCHES_BOUND,
                ),
                *TARGET_PARAMS,
                MODS,
            ),
            build_at_weapon,
        ),
        Action(
            "mg-vs-afv",
            "MG burst at an AFV (§3.20)",
            (
                Param("weapon", str, "mmg", "MG row: lmg, mmg, hmg, lcmg"),
                Param(
                    "rof",
                    int,
                    4,
                    "to-hit dice",
                    min=1,
                    max=4,
                    bound="the highest rate of fire in the data",
                ),
                Param(
                    "range",
                    float,
                    required=True,
                    help="range in inches",
                    example=10,
                    **INCHES_BOUND,
                ),
                *TARGET_PARAMS,
                MODS,
            ),
            build_mg_vs_afv,
        ),
        Action(
            "tank-fire",
            "tank or AT gun shot: to-hit, location, penetration (§3.29)",
            (
                Param(
                    "firer",
                    str,
                    required=True,
                    help="vehicle or gun, e.g. Panther, PaK 40",
                    example="pak40",
                ),
                Param(
                    "range",
                    float,
                    required=True,
                    help="range in inches",
                    example=30,
                    **INCHES_BOUND,
                ),
                *TARGET_PARAMS,
                Param("ammo", str, "AP", "round", tank_fire.AMMO),
                QUALITY,
                Param(
                    "leadership",
                    int,
                    0,
                    "tank leader's modifier when directing, e.g. -1",
                    **LEADER_BOUND,
                ),
                Param(
                    "leader_use",
                    str,
                    "to_hit",
                    "leader modifies to-hit or shifts the location",
                    ("to_hit", "location"),
                ),
                flag("aimed", "aimed (extra gunner action)"),
                flag("on_move", "fires on the move"),
                flag("moved_previous", "moved in the previous action"),
                flag("buttoned_up", "buttoned up"),
                flag("no_commander", "no commander directing"),
                flag("no_target", "into smoke"),
                flag("zeroed", "zeroed in (scenario)"),
                Param(
                    "shots_before",
                    int,
                    0,
                    "earlier shots at this target without moving",
                    min=0,
                    max=10,
                    bound="generous: ten earlier shots at one target",
                ),
                Param("target_moving", str, "none", "none, front_rear, or side:<inches>"),
                flag("light_woods", "target in light woods"),
                Param(
                    "turret_turn", str, "none", "turret traverse this action", tank_fire.TURRET_TURN
                ),
                flag("turret_turned_before", "T-34: turret turned last action"),
            ),
            build_tank_fire,
        ),
        Action(
            "he-fire",
            "a main gun's HE or HEAT round at a figure (§3.32)",
            (
                Param("firer", str, required=True, help="vehicle or gun", example="pak40"),
                Param(
                    "range",
                    float,
                    required=True,
                    help="range in inches",
                    example=30,
                    **INCHES_BOUND,
                ),
                Param("ammo", str, "HE", "round", ("HE", "HEAT")),
                QUALITY,
                Param("gun_mods", str, None, "to-hit modifiers: buttoned_up, moved_previous, ..."),
                Param(
                    "leadership",
                    int,
                    0,
                    "tank leader's modifier when directing",
                    **LEADER_BOUND,
                ),
                COVER,
                flag("prone", "target prone"),
            ),
            build_he_fire,
        ),
        Action(
            "penetration",
            "penetration of a hit on a vehicle (§3.29)",
            (
                Param(
                    "pen",
                    int,
                    required=True,
                    help="penetration value after range",
                    example=10,
                    **PEN_BOUND,
                ),
                *TARGET_PARAMS,
                Param(
                    "location",
                    int,
                    None,
                    "struck location 1-20 (else rolled)",
                    min=1,
                    max=20,
                    bound="the hit location table's d20",
                ),
                flag("heat", "HEAT round"),
                Param(
                    "gun_mm",
                    int,
                    75,
                    "calibre (mm)",
                    **CALIBRE_BOUND,
                ),
                flag("small_arms", "ATR or MG"),
            ),
            build_penetration,
        ),
        Action(
            "artillery",
            "one shell on a figure, foxhole or AFV (§3.35)",
            (
                Param("on", str, "figure", "what is under the shell", ("figure", "foxhole", "afv")),
                Param("ring", str, "A", "template ring", artillery.RINGS),
                Param(
                    "gun_mm",
                    int,
                    81,
                    "calibre (mm)",
                    **CALIBRE_BOUND,
                ),
                Param(
                    "he_pen",
                    int,
                    9,
                    "HE penetration",
                    **PEN_BOUND,
                ),
                COVER,
                flag("prone", "prone"),
                flag("forest", "in woods"),
                Param("target", str, "PzKpfw IV H", "AFV under the shell"),
            ),
            build_artillery,
        ),
        Action(
            "offboard",
            "off-board fire mission call (§3.34)",
            (
                Param(
                    "contact",
                    int,
                    required=True,
                    help="Contact number",
                    example=6,
                    **D10_BOUND,
                ),
                Param(
                    "availability",
                    int,
                    required=True,
                    help="Availability number",
                    example=6,
                    **D10_BOUND,
                ),
            ),
            build_offboard,
        ),
        Action("correction", "on-board indirect fire correction (§3.33)", (), build_correction),
        Action(
            "mine",
            "mine detonation (§3.16, §3.31)",
            (
                Param("field", str, "hasty", "minefield", mines.FIELDS),
                Param(
                    "movement",
                    str,
                    "move5",
                    f"AP: {', '.join(mines.AP_ROWS)}; AT: {', '.join(mines.AT_ROWS)}",
                ),
                flag("anti_tank", "AT minefield"),
                flag("detector", "mine detector"),
                flag("marked_lane", "in a marked lane"),
            ),
            build_mine,
        ),
        Action("booby-trap", "clear a booby trap (§3.16)", (MORALE, MODS), build_booby),
        Action(
            "bog",
            "bog or unbog check (§3.27)",
            (
                Param(
                    "terrain",
                    str,
                    required=True,
                    help="bocage, small_roadblock, wire_tracked, gun_M, snow_pzivh, ...",
                    example="bocage",
                ),
                Param("bog_mods", str, None, f"modifiers: {', '.join(movement.BOG_MODS)}"),
                flag("unbogging", "trying to unbog"),
            ),
            build_bog,
        ),
        Action(
            "bail-out",
            "tank crew morale: bail out, button up, heroes (§3.24)",
            (
                QUALITY,
                flag("tank_leader", "tank leader aboard"),
                Param("leader", str, None, "printed tank leader morale, e.g. 14-1"),
                Param("cause", str, "crew_killed", "trigger", tank_morale.CAUSES),
                MODS,
            ),
            build_bail_out,
        ),
        Action(
            "platoon-integrity",
            "tank platoon integrity check (§3.25)",
            (
                Param(
                    "tanks",
                    int,
                    required=True,
                    help="tanks and AFVs of the side",
                    example=5,
                    min=1,
                    max=60,
                    bound="generous: a tank battalion",
                ),
                Param(
                    "out",
                    int,
                    0,
                    "destroyed or out of action",
                    **BATTALION_BOUND,
                ),
                Param(
                    "brewed",
                    int,
                    0,
                    "brewed up",
                    **BATTALION_BOUND,
                ),
                QUALITY,
                flag("tank_leader", "checks on a tank leader"),
                Param("integrity_mods", str, None, ", ".join(tank_morale.INTEGRITY_MODS)),
            ),
            build_integrity,
        ),
        Action(
            "availability",
            "pre-game availability roll (§3.27)",
            (
                Param(
                    "number",
                    int,
                    required=True,
                    help="chart number",
                    example=5,
                    **D10_BOUND,
                ),
                Param(
                    "what",
                    str,
                    "smoke_launchers",
                    "what is rolled for",
                    (
                        "smoke_launchers",
                        "aamg",
                        "halftrack_mg",
                        "schurzen",
                        "zimmerit",
                        "apcr",
                        "sandbags",
                        "gyro",
                    ),
                ),
            ),
            build_availability,
        ),
        Action(
            "run-down",
            "infantry run down by a vehicle (§3.32)",
            (
                MORALE,
                flag("prone_open", "prone in the open"),
                flag("light_wound", "light wounded"),
            ),
            build_run_down,
        ),
        Action("crash", "crash chart for a softskin whose driver is hit (§3.39)", (), build_crash),
        Action(
            "truck-hit",
            "main-gun hit on a truck or jeep (§3.39)",
            (
                Param("facing", str, "front", "facing", ("front", "side")),
                flag("he", "HE or HEAT round"),
            ),
            build_truck_hit,
        ),
        Action(
            "damage-points",
            "HE damage points on terrain (§3.37)",
            (
                Param(
                    "gun_mm",
                    int,
                    75,
                    "calibre (mm)",
                    **CALIBRE_BOUND,
                ),
            ),
            build_damage,
        ),
        Action(
            "ramming",
            "ramming (§3.31: charts lost, not implemented)",
            (),
            build_ramming,
            not_implemented="ramming, §3.31",
        ),
    ]
}


def query(cat: Catalogue, name: str, opts: Options | None = None, **params: Any) -> Query:
    """An action's query from Python, its parameters defaulted as on the CLI."""
    action = ACTIONS[name]
    full = {p.name: p.default for p in action.params}
    full.update(params)
    return action.build(cat, opts or Options(), **full)
