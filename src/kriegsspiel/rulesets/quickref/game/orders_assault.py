"""Close assault orders (turn step Close assault, sheet L7)."""

from __future__ import annotations

import random
from typing import Any

from ....chance import sample
from ....engine.commands import IllegalCommand
from ....engine.events import Draft
from .. import assault
from ..infantry_effects import InfantryState
from ..models import Infantry, Vehicle
from ..tables import Rules
from .board import Board
from .geometry_helpers import distance
from .orders_arty import visible_to
from .state import State, Unit
from .units import record, unit_sa

CONTACT = 2.0  # inches between unit centres that counts as base contact (decision Q38)
ESCORT = 3.0


def _assault_strength(rules: Rules, u: Unit) -> int:
    rec = record(rules, u)
    assert isinstance(rec, Infantry)
    lmg = int(rules.const("assault-lmg")) if u.attached_mg == "lmg-team" else 0
    return rec.assault + lmg


def resolve_assault(
    rules: Rules,
    board: Board,
    state: State,
    side: str,
    cmd: dict[str, Any],
    own,
    target_of,
    rng: random.Random,
) -> list[Draft]:
    ids = cmd.get("units") or ([cmd["unit"]] if "unit" in cmd else [])
    if not isinstance(ids, list) or not ids:
        raise IllegalCommand("assault needs 'unit' or a list 'units'", "units")
    attackers = [own(state, side, i, "units") for i in ids]
    target = target_of(state, side, cmd.get("target"))
    for a in attackers:
        if a.kind != "infantry":
            raise IllegalCommand(f"{a.name}: only infantry close-assaults (L7)", "units")
        if distance(a, target) > CONTACT:
            raise IllegalCommand(
                f"{a.name} is not in contact with {target.name} "
                f'({distance(a, target):.1f}" apart, contact is {CONTACT:g}")',
                "units",
            )
        if a.fired_turn == state.turn and a.fired_phase == "close_assault":
            raise IllegalCommand(f"{a.name} has already assaulted this turn", "units")
    trec = record(rules, target)
    drafts: list[Draft] = [Draft("assault_declared", {"units": ids, "target": target.id}, None)]
    if isinstance(trec, Vehicle):
        escort = [
            u
            for u in state.alive(target.side)
            if u.kind == "infantry" and distance(u, target) <= ESCORT
        ]
        for a in attackers:
            spec = assault.VehicleAssault(
                target.buttoned,
                trec.open_topped,
                board.cover(a.x, a.y, "sa"),
                a.suppressed,
                InfantryState(a.stands, a.damaged, a.suppressed, a.attached_mg),
                0,
                bool(escort),
            )
            try:
                res = sample(assault.assault_vehicle, rules, spec, rng=rng)
            except ValueError as exc:
                raise IllegalCommand(str(exc), "target") from None
            name = res.result.name
            drafts.append(
                Draft(
                    "assault",
                    {"unit": a.id, "target": target.id, "outcome": name},
                    None,
                    tuple(res.lines()),
                )
            )
            if name in ("tracked", "damaged", "ko"):
                drafts.append(
                    Draft(
                        "pending_now",
                        {
                            "target": target.id,
                            "kind": "vehicle",
                            "outcome": name,
                            "attack": "assault",
                        },
                        visible_to(state, target),
                    )
                )
            if name == "repulsed":
                drafts.append(
                    Draft(
                        "pending_now",
                        {
                            "target": a.id,
                            "kind": "infantry",
                            "outcome": "retreat",
                            "attack": "assault",
                            "from": [target.x, target.y],
                        },
                        (a.side,),
                    )
                )
        return drafts
    limit = int(rules.const("assault-max-attackers"))
    if len(attackers) > limit:
        raise IllegalCommand(f"at most {limit} units assault one position", "units")
    spec = assault.InfantryAssault(
        tuple(_assault_strength(rules, a) for a in attackers),
        unit_sa(rules, target),
        board.cover(target.x, target.y, "sa"),
    )
    res = sample(assault.assault_infantry, rules, spec, rng=rng)
    out = res.result
    drafts.append(
        Draft(
            "assault",
            {
                "units": ids,
                "target": target.id,
                "outcome": out.name,
                "attackers": list(out.get("attackers")),
                "defender": out.get("defender"),
            },
            None,
            tuple(res.lines()),
        )
    )
    table = {"fight_on": "none", "Rt": "retreat", "H": "hit", "KIA": "kia"}
    for a, r in zip(attackers, out.get("attackers"), strict=True):
        if r != "fight_on":
            parts = ["hit", "retreat"] if r == "H" else [table[r]]  # a hit unit retreats too
            drafts.append(
                Draft(
                    "pending_now",
                    {
                        "target": a.id,
                        "kind": "infantry",
                        "outcome": table[r],
                        "parts": parts,
                        "attack": "assault",
                        "from": [target.x, target.y],
                    },
                    (a.side,),
                )
            )
    d = out.get("defender")
    if d != "fight_on":
        parts = ["hit", "retreat"] if d == "H" else [table[d]]
        drafts.append(
            Draft(
                "pending_now",
                {
                    "target": target.id,
                    "kind": "infantry",
                    "outcome": table[d],
                    "parts": parts,
                    "attack": "assault",
                    "from": [attackers[0].x, attackers[0].y],
                },
                visible_to(state, target),
            )
        )
    return drafts
