"""Morale checks (sheet L7: basic morale number 7 or less passes)."""

from __future__ import annotations

from ...chance import Note, Outcome, Roll
from .tables import Rules

P_MORALE = "L7 Morale Checks"


def morale_test(rules: Rules, why: str):
    """Roll a morale test; returns True on a pass (d10 <= 7 by default, decision Q2)."""
    target = int(rules.const("morale"))
    roll = yield Roll(rules.opts.morale_dice, f"morale test ({why})", P_MORALE, at_most=target)
    passed = roll <= target
    yield Note(f"morale {roll} vs {target} or less: {'pass' if passed else 'fail'}", P_MORALE)
    return passed


def morale_check(rules: Rules):
    """A stand-alone morale check as a resolution: pass / fail."""
    passed = yield from morale_test(rules, "check")
    return Outcome("pass" if passed else "fail")
