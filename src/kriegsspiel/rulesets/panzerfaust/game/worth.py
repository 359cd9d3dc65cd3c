"""What an element is worth for victory (decision P256): exits by points or by a share of the
force (a breakthrough, p5: at least half the attacker's initial point value) and losses by
points weigh each element by this (engine/victory.py reads it as `PieceStatus.points`).

An element is worth its army-list base PV (p44: every printed PV is a base value), as
`points.base_price` finds it: printed in a chart or an equipment list (`seed`,
`seed-inferred`), else the fitted PV model's estimate (`placeholder`, decision P100). The few
records nothing prices take the median printed PV of their kind, flagged `placeholder` too.
The troop-class multiplier (pp. 22-23) is left out: a force bought at one rating scales every
element alike, so shares are unchanged, and a scenario's points goal is stated in base PV.
Option `worth=pieces` counts every element as 1 instead.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..points import base_price
from ..pv_model import median_printed_pv
from .build import record


class Worth(NamedTuple):
    """An element's worth, where it comes from (seed, seed-inferred, placeholder, option) and
    how it was found, for the log and the unit card."""

    value: float
    source: str
    basis: str


_CACHE: dict[tuple[int, str, str], Worth] = {}


def worth_of_type(rules: Any, type_id: str) -> Worth:
    """The worth of an element of record `type_id` under `rules` (its catalogue and options)."""
    if rules.opts.worth == "pieces":
        return Worth(1.0, "option", "option worth=pieces: every element counts 1")
    key = (id(rules.cat), rules.opts.worth, type_id)
    hit = _CACHE.get(key)
    if hit is None:
        kind, rec = record(rules, type_id)
        price = base_price(rules.cat, f"{kind}:{rec.id}")
        if price.pv is not None:
            assert price.provenance is not None
            hit = Worth(float(price.pv), price.provenance, f"base PV of {kind}:{rec.id} (p44)")
        else:
            median = median_printed_pv(rules.cat, kind)
            hit = Worth(
                float(median or 1),
                "placeholder",
                f"{kind}:{rec.id} has no PV: the median printed PV of its kind (P256)",
            )
        _CACHE[key] = hit
    return hit


def worth(state: Any, element: Any) -> Worth:
    """The worth of one element of the game."""
    return worth_of_type(state.rules, element.type)


def notes(state: Any) -> tuple[str, ...]:
    """The game-over explanation of each exit goal counted in points (P256): how much of the
    worth that left, and of the side's whole force, is a placeholder PV. Totals only: no
    element is named, so the public verdict tells a side nothing of pieces it never saw."""
    out = []
    for c in state.scenario.victory.conditions:
        if c.kind != "exit" or c.measure == "count":
            continue
        mine = [e for e in state.elements.values() if e.side == c.side]
        gone = [e for e in mine if e.exited == c.edge and not e.lost]
        rows = []
        for label, group in (("left by the " + str(c.edge) + " edge", gone), ("force", mine)):
            values = [worth(state, e) for e in group]
            total = sum(w.value for w in values)
            guessed = sum(w.value for w in values if w.source == "placeholder")
            rows.append(f"{label} {total:g} points ({guessed:g} of them placeholder PVs)")
        out.append(f"{c.side} exit worth, army-list base PV (p44, P256): " + "; ".join(rows))
    return tuple(out)
