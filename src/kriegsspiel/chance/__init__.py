"""Chance: one rules implementation for rolls and for odds (DESIGN: chance)."""

from .drivers import (
    Distribution,
    Estimate,
    Explained,
    RollRecord,
    TreeTooLarge,
    clear_cache,
    exact,
    monte_carlo,
    outcome_key,
    sample,
    wilson,
)
from .nodes import Cite, Lookup, Modifier, Note, Outcome, Resolution, Roll, total

__all__ = [
    "Cite",
    "Distribution",
    "Estimate",
    "Explained",
    "Lookup",
    "Modifier",
    "Note",
    "Outcome",
    "Resolution",
    "Roll",
    "RollRecord",
    "TreeTooLarge",
    "clear_cache",
    "exact",
    "monte_carlo",
    "outcome_key",
    "sample",
    "total",
    "wilson",
]
