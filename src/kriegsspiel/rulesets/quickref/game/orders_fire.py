"""Fire orders (turn steps Fire: suppressive, all): who may shoot what, resolved with the rules
core; results wait until the end of the step (simultaneous fire, decision Q34)."""

from __future__ import annotations

import random
from typing import Any

from ....chance import Roll, sample
from ....data.errors import RuleError
from ....engine.commands import IllegalCommand
from ....engine.events import Draft
from ...quickref import direct_fire as df
from ...quickref import he_fire, small_arms
from ..models import Infantry, Vehicle
from ..tables import Rules
from .board import Board
from .geometry_helpers import aspect, distance
from .state import State, Unit
from .units import is_armoured, is_soft_vehicle, record, sa_ranges, unit_sa

SYMBOL = {"none": "-", "suppressed": "Sp", "retreat": "Rt", "hit": "H", "kia": "KIA"}


def _own(state: State, side: str, uid: Any, what: str = "unit") -> Unit:
    u = state.units.get(uid) if isinstance(uid, str) else None
    # an enemy's id gets the answer a made-up id gets: a refusal tells nothing of enemy units
    if u is None or u.side != side or not u.alive or u.reinforcement_turn > state.turn:
        raise IllegalCommand(f"no unit {uid!r} of yours on the table", what)
    if u.transport:
        raise IllegalCommand(f"{u.name} is carried by {u.transport} and cannot act", what)
    return u


def _target(state: State, side: str, tid: Any) -> Unit:
    t = state.units.get(tid) if isinstance(tid, str) else None
    if t is None or not t.alive or t.side == side or tid not in state.seen.get(side, []):
        raise IllegalCommand(f"no enemy unit {tid!r} in sight", "target")
    return t


def _cover(board: Board, t: Unit, column: str) -> str | None:
    return board.cover(t.x, t.y, column)


def _hull_down(board: Board, t: Unit) -> bool:
    return t.kind == "vehicle" and any(f.row == "hulldown" for f in board.features_at(t.x, t.y))


def fire_query(rules: Rules, board: Board, state: State, side: str, cmd: dict[str, Any]):
    """Validate a fire command and return (ids, target, (attack, resolution, args, meta))."""
    ids = cmd.get("units") or ([cmd["unit"]] if "unit" in cmd else [])
    if not isinstance(ids, list) or not ids:
        raise IllegalCommand("fire needs 'unit' or a list 'units'", "units")
    if len(set(ids)) != len(ids):
        raise IllegalCommand("a unit is listed twice", "units")
    firers = [_own(state, side, i, "units") for i in ids]
    target = _target(state, side, cmd.get("target"))
    suppressive = bool(cmd.get("suppressive", False))
    if state.phase == "fire_suppressive" and not suppressive:
        raise IllegalCommand(
            "only suppressive fire in this step; other fire comes next", "suppressive"
        )
    if state.phase == "fire_all" and suppressive:
        raise IllegalCommand("suppressive fire was the previous step", "suppressive")
    for f in firers:
        if f.fired_turn == state.turn:
            raise IllegalCommand(f"{f.name} has already fired this turn (decision Q35)", "units")
        if not board.los(f.pos, target.pos):
            raise IllegalCommand(f"{f.name} has no line of sight to {target.name}", "target")
    weapon = cmd.get("weapon")
    if weapon is not None:
        known = {"main", "he", "flame", "mg"}.union(
            *(getattr(record(rules, f), "alt_guns", None) or {} for f in firers)
        )
        if weapon not in known:
            raise IllegalCommand(
                f"no weapon {weapon!r}; the firers have {', '.join(sorted(known))}", "weapon"
            )
    return ids, target, _choose(rules, board, state, firers, target, weapon, suppressive)


def dry_run(rules: Rules, board: Board, state: State, side: str, cmd: dict[str, Any]) -> bool:
    """Whether a fire command would be accepted: validated, and its resolution run up to its
    first roll (where the rules core checks ranges, movement and terrain columns)."""
    try:
        _ids, _target, (_attack, fn, args, _meta) = fire_query(rules, board, state, side, cmd)
        gen = fn(*args)
        node = next(gen)
        while not isinstance(node, Roll):
            node = gen.send(None)
        gen.close()
    except (IllegalCommand, ValueError, StopIteration):
        return False
    return True


WEAPONS = ("main", "he", "mg", "flame")  # besides a vehicle's alternative guns (alt_guns)


def fire_choices(
    rules: Rules, board: Board, state: State, side: str, cmd: dict[str, Any]
) -> dict[str, Any]:
    """What a fire order may also be, each by `dry_run` (the order's own check): the weapons
    its single firer may use at the target, and the side's units that may join it in a fire
    group (small arms and MGs fire together: sheet L2)."""
    uid, target = cmd.get("unit"), cmd.get("target")
    ids = cmd.get("units") or [uid]
    base = {"type": "fire", "target": target, "suppressive": bool(cmd.get("suppressive"))}
    weapons: list[str] = []
    if len(ids) == 1:
        u = _own(state, side, ids[0], "unit")
        alt = getattr(record(rules, u), "alt_guns", None) or {}
        seen = set()  # the same attack by another name ("he" at a tank is its main gun) once
        for w in (*WEAPONS, *alt):
            order = {**base, "unit": u.id, "weapon": w}
            if not dry_run(rules, board, state, side, order):
                continue
            attack = fire_query(rules, board, state, side, order)[2][0]
            if w in alt or attack not in seen:
                weapons.append(w)
                seen.add(attack)
    group = [
        o.id
        for o in state.alive(side)
        if o.id not in ids
        and not o.transport
        and dry_run(rules, board, state, side, {**base, "units": [*ids, o.id]})
    ]
    return {"ok": True, "weapons": weapons, "group": group}


def resolve_fire(
    rules: Rules, board: Board, state: State, side: str, cmd: dict[str, Any], rng: random.Random
) -> list[Draft]:
    ids, target, (attack, fn, args, meta) = fire_query(rules, board, state, side, cmd)
    try:
        res = sample(fn, *args, rng=rng)
    except RuleError as exc:
        raise IllegalCommand(str(exc), "units") from None
    outcome = res.result
    data = {
        "attack": attack,
        "firers": ids,
        "target": target.id,
        "outcome": outcome.name,
        "parts": list(outcome.get("parts", ())),
        **meta,
    }
    return [Draft("fire", data, None, tuple(res.lines()))]


def _gun_of(rec: Vehicle | Infantry) -> bool:
    return isinstance(rec, Vehicle) and rec.gun is not None and rec.gun.to_hit is not None


def _choose(
    rules: Rules,
    board: Board,
    state: State,
    firers: list[Unit],
    target: Unit,
    weapon: str | None,
    suppressive: bool,
):
    single = firers[0] if len(firers) == 1 else None
    rt = record(rules, target)
    if weapon == "mg" and is_armoured(rules, target):
        raise IllegalCommand(f"an MG cannot hurt {target.name}: it is armoured", "weapon")
    if single is not None and not suppressive:
        f = single
        rec = record(rules, f)
        dist = distance(f, target)
        if is_armoured(rules, target) or (
            is_soft_vehicle(rules, target) and weapon in (None, "main") and _gun_of(rec)
        ):
            return _gun_at_vehicle(rules, board, f, rec, target, dist, weapon)
        if isinstance(rec, Vehicle) and rec.flame and weapon in (None, "flame"):
            if dist > rec.gun.range[-1]:
                raise IllegalCommand(
                    f"{rec.name}'s flamethrower reaches {rec.gun.range[-1]}\"", "target"
                )
            t = he_fire.HETarget("infantry", _cover(board, target, "he"), target.suppressed)
            return "flame", he_fire.flamethrower, (rules, rec.flame, t), {"kind": "infantry"}
        if (
            isinstance(rec, Vehicle)
            and _gun_of(rec)
            and (rec.gun.he or 0) > 0
            and weapon in (None, "he", "main")
            and not isinstance(rt, Vehicle)
        ):
            _no_fire_after_far_move(rules, f)
            shot = df.Shot(
                rec,
                rec,
                dist,
                "main",
                "side",
                target.moved != "none",
                f.moved,
                f.buttoned,
                f.damaged,
            )
            t = he_fire.HETarget("infantry", _cover(board, target, "he"), target.suppressed)
            return "he", he_fire.he_direct, (rules, shot, t), {"kind": "infantry"}
    if is_armoured(rules, target):
        raise IllegalCommand(f"{target.name} is armoured: small arms cannot hurt it", "target")
    return _small_arms(rules, board, state, firers, target, suppressive)


def _no_fire_after_far_move(rules: Rules, f: Unit) -> None:
    if f.moved == "over_half" and rules.opts.firer_moved_over_half == "no_fire":
        raise IllegalCommand(
            f"{f.name} moved more than half its move and may not fire its gun (decision Q6)",
            "units",
        )


def _gun_at_vehicle(rules, board, f, rec, target, dist, weapon):
    firer_rec = rec
    if isinstance(rec, Infantry):
        if rec.kind == "at_team":
            if f.suppressed:
                raise IllegalCommand(
                    f"{f.name} is suppressed and may not fire its AT weapon", "units"
                )
            if not (f.at_weapon or rec.at_weapon):
                raise IllegalCommand(f"{f.name} has no AT weapon", "units")
            firer_rec = rules.cat.get("vehicle", f.at_weapon or rec.at_weapon)
        elif rec.hmg_at is None:
            raise IllegalCommand(f"{f.name} has no weapon that can hurt {target.name}", "target")
    else:
        if not _gun_of(rec):
            raise IllegalCommand(f"{rec.name} has no gun that can hurt {target.name}", "target")
        _no_fire_after_far_move(rules, f)
    w = weapon if weapon not in (None, "he") else "main"
    shot = df.Shot(
        firer_rec,
        record(rules, target),
        dist,
        w,
        aspect(f, target, rules.opts.front_arc_half_angle),
        target.moved != "none",
        f.moved,
        f.buttoned,
        f.damaged,
        _cover(board, target, "at"),
        _hull_down(board, target),
    )
    try:
        gun, _ = df.weapon_of(shot.firer, shot.weapon)
    except RuleError as exc:
        raise IllegalCommand(str(exc), "weapon") from None
    if gun.band(dist) is None:
        raise IllegalCommand(
            f'{target.name} is {dist:.1f}" away, beyond {firer_rec.name}\'s {gun.range[-1]}"',
            "target",
        )
    return "gun", df.direct_fire, (rules, shot), {"kind": "vehicle"}


def _small_arms(rules, board, state, firers, target, suppressive):
    members = []
    for f in firers:
        rec = record(rules, f)
        kind = "vehicle" if isinstance(rec, Vehicle) else rec.kind
        sa = unit_sa(rules, f)
        if sa <= 0:
            raise IllegalCommand(f"{f.name} has no small arms or MG", "units")
        members.append(
            small_arms.Member(f.name, sa, sa_ranges(rules, f), distance(f, target), kind)
        )
    rt = record(rules, target)
    try:
        atk = small_arms.group_attack(
            rules,
            members,
            terrain=_cover(board, target, "sa"),
            target_suppressed=target.suppressed,
            suppressive=suppressive,
            positions=[f.pos for f in firers],
        )
    except ValueError as exc:
        raise IllegalCommand(str(exc), "units") from None
    if suppressive and not isinstance(rt, Infantry):
        raise IllegalCommand("suppressive fire is aimed at infantry (decision Q12)", "target")
    if isinstance(rt, Vehicle):
        mg = any(m.kind in ("mg_team", "vehicle") for m in members)
        return "soft", small_arms.soft_vehicle_fire, (rules, atk, mg), {"kind": "vehicle"}
    return "small_arms", small_arms.small_arms, (rules, atk), {"kind": "infantry"}
